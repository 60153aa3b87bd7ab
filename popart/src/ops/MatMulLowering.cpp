// MatMulOp: poplin::matMul, or poplin::matMulGrouped over the broadcast
// batch dimensions.
#include "lowering/Lowering.hpp"
#include "ops/MatMulOp.hpp"

#include <poplin/MatMul.hpp>

#include <algorithm>

namespace popart {

// [.., m, k] x [.., k, n] with broadcast batch dimensions, as one grouped
// matrix multiplication.
poplar::Tensor lowerMatMul(LoweringContext &ctx, poplar::Tensor a,
                           poplar::Tensor b, const Shape &outShape,
                           poplar::program::Sequence &prog,
                           const std::string &name, const Tensor *rhsInput,
                           const Tensor *lhsInput,
                           const std::map<std::string, std::string> &opOptions) {
  if (a.rank() == 1)
    a = a.reshape({1, a.dim(0)});
  if (b.rank() == 1)
    b = b.reshape({b.dim(0), 1});
  const poplar::OptionFlags opts =
      poplibsOptionFlags(ctx.matmulOptions, opOptions);
  if (a.rank() == 2 && b.rank() == 2) {
    if (rhsInput)
      mapLikePlannedOperand(ctx, *rhsInput, b, [&](poplar::Graph &g) {
        return poplin::createMatMulInputRHS(g, a.elementType(), a.shape(),
                                            b.shape(), name, opts);
      });
    if (lhsInput)
      mapLikePlannedOperand(ctx, *lhsInput, a, [&](poplar::Graph &g) {
        return poplin::createMatMulInputLHS(g, a.elementType(), a.shape(),
                                            b.shape(), name, opts);
      });
    return poplin::matMul(ctx.graph, a, b, prog, name, opts, &ctx.matmulCache)
        .reshape(std::vector<std::size_t>(outShape.begin(), outShape.end()));
  }
  const std::size_t rank = std::max(a.rank(), b.rank());
  while (a.rank() < rank)
    a = a.expand({0});
  while (b.rank() < rank)
    b = b.expand({0});
  std::size_t groups = 1;
  for (std::size_t d = 0; d + 2 < rank; ++d) {
    const std::size_t n = std::max(a.dim(d), b.dim(d));
    if (a.dim(d) != n)
      a = a.broadcast(static_cast<unsigned>(n), static_cast<unsigned>(d));
    if (b.dim(d) != n)
      b = b.broadcast(static_cast<unsigned>(n), static_cast<unsigned>(d));
    groups *= n;
  }
  a = a.reshape({groups, a.dim(rank - 2), a.dim(rank - 1)});
  b = b.reshape({groups, b.dim(rank - 2), b.dim(rank - 1)});
  return poplin::matMulGrouped(ctx.graph, a, b, prog, a.elementType(), name,
                               opts, &ctx.matmulCache)
      .reshape(std::vector<std::size_t>(outShape.begin(), outShape.end()));
}


void growMatMul(const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  const auto &matmul = static_cast<const MatMulOp &>(op);
  ctx.set(*op.outputs[0],
          lowerMatMul(ctx, ctx.get(op.inTensor(0)), ctx.get(op.inTensor(1)),
                      op.outputs[0]->info.shape(), prog, op.name(),
                      op.inTensor(1), nullptr, matmul.poplibsOptions));
}


void growMatMulGrad(const Op &op, LoweringContext &ctx,
                    poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const MatMulGradOp &>(op);
  poplar::Tensor a = ctx.get(op.inTensor(1)), b = ctx.get(op.inTensor(2));
  poplar::Tensor g = ctx.get(op.inTensor(0));
  // Back to matrices: [..., m, k] x [..., k, n] -> [..., m, n].
  if (a.rank() == 1)
    a = a.reshape({1, a.dim(0)});
  if (b.rank() == 1)
    b = b.reshape({b.dim(0), 1});
  std::vector<std::size_t> gShape = g.shape();
  if (op.inRank(1) == 1)
    gShape.insert(gShape.end() - (op.inRank(2) == 1 ? 0 : 1), 1);
  if (op.inRank(2) == 1)
    gShape.push_back(1);
  g = g.reshape(gShape);
  auto lastTwoSwapped = [](const poplar::Tensor &t) {
    return t.dimRoll(static_cast<unsigned>(t.rank() - 1),
                     static_cast<unsigned>(t.rank() - 2));
  };
  const std::vector<std::size_t> gDims = g.shape();
  Shape outShape(gDims.begin(), gDims.end() - 2);
  poplar::Tensor r;
  const Tensor &argTensor = *op.outputs[0];
  if (grad.arg == 0) {
    outShape.push_back(static_cast<int64_t>(a.dim(a.rank() - 2)));
    outShape.push_back(static_cast<int64_t>(a.dim(a.rank() - 1)));
    r = lowerMatMul(ctx, g, lastTwoSwapped(b), outShape, prog, op.name(),
                    nullptr, nullptr, grad.poplibsOptions);
    const std::vector<std::size_t> aDims = a.shape();
    r = reduceToShape(ctx, r, Shape(aDims.begin(), aDims.end()), prog,
                      op.name());
  } else {
    outShape.push_back(static_cast<int64_t>(b.dim(b.rank() - 2)));
    outShape.push_back(static_cast<int64_t>(b.dim(b.rank() - 1)));
    r = lowerMatMul(ctx, lastTwoSwapped(a), g, outShape, prog, op.name(),
                    nullptr, nullptr, grad.poplibsOptions);
    const std::vector<std::size_t> bDims = b.shape();
    r = reduceToShape(ctx, r, Shape(bDims.begin(), bDims.end()), prog,
                      op.name());
  }
  ctx.set(op.outputs[0], r.reshape(dims(argTensor.info.shape())));
}

} // namespace popart
