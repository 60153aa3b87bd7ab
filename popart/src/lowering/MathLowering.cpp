// Lowerings of MatMul and Gemm (poplin), Softmax/LogSoftmax and the
// reductions (popops::reduce and popops::map).
#include "lowering/Lowering.hpp"
#include "ops/MathOps.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>

namespace popart {
namespace pe = popops::expr;
namespace {

poplar::OptionFlags flags(const std::map<std::string, std::string> &m) {
  poplar::OptionFlags f;
  for (const auto &p : m)
    f.set(p.first, p.second);
  return f;
}

// [.., m, k] x [.., k, n] with broadcast batch dimensions, as one grouped
// matrix multiplication.
poplar::Tensor matmul(LoweringContext &ctx, poplar::Tensor a, poplar::Tensor b,
                      const Shape &outShape, poplar::program::Sequence &prog,
                      const std::string &name) {
  if (a.rank() == 1)
    a = a.reshape({1, a.dim(0)});
  if (b.rank() == 1)
    b = b.reshape({b.dim(0), 1});
  const auto opts = flags(ctx.matmulOptions);
  if (a.rank() == 2 && b.rank() == 2)
    return poplin::matMul(ctx.graph, a, b, prog, name, opts, &ctx.matmulCache)
        .reshape(std::vector<std::size_t>(outShape.begin(), outShape.end()));
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

} // namespace

void registerMathLowerings(LoweringRegistry &r) {
  const std::string onnx = Domain::ai_onnx;
  r.add(onnx, "MatMul", [](const Op &op, LoweringContext &ctx,
                           poplar::program::Sequence &prog) {
    ctx.set(*op.outputs[0],
            matmul(ctx, ctx.get(op.inTensor(0)), ctx.get(op.inTensor(1)),
                   op.outputs[0]->info.shape(), prog, op.name));
  });
  r.add(onnx, "Gemm", [](const Op &op, LoweringContext &ctx,
                         poplar::program::Sequence &prog) {
    const auto &g = static_cast<const GemmOp &>(op);
    poplar::Tensor a = ctx.get(op.inTensor(0)), b = ctx.get(op.inTensor(1));
    if (g.transA)
      a = a.transpose();
    if (g.transB)
      b = b.transpose();
    poplar::Tensor y =
        matmul(ctx, a, b, op.outputs[0]->info.shape(), prog, op.name);
    if (g.alpha != 1.0f)
      y = popops::map(ctx.graph, pe::_1 * pe::Const(g.alpha), {y}, prog, op.name);
    if (op.hasInput(2) && g.beta != 0.0f)
      y = popops::map(ctx.graph, pe::_1 + pe::_2 * pe::Const(g.beta),
                      {y, ctx.get(op.inTensor(2))}, prog, op.name);
    ctx.set(*op.outputs[0], y);
  });
  for (const char *t : {"Softmax", "LogSoftmax"}) {
    const bool log = std::string(t) == "LogSoftmax";
    r.add(onnx, t, [log](const Op &op, LoweringContext &ctx,
                         poplar::program::Sequence &prog) {
      const auto &s = static_cast<const SoftmaxOp &>(op);
      poplar::Tensor x = ctx.get(op.inTensor(0));
      const auto shape = x.shape();
      // Move the softmax dimension(s) last and flatten to [outer, inner].
      std::size_t outer = 1, inner = 1;
      poplar::Tensor x2;
      std::vector<unsigned> perm;
      if (s.coerceTo2D()) {
        for (std::size_t d = 0; d < shape.size(); ++d)
          (static_cast<int64_t>(d) < s.axis ? outer : inner) *= shape[d];
        x2 = x.reshape({outer, inner});
      } else {
        for (unsigned d = 0; d < shape.size(); ++d)
          if (d != s.axis)
            perm.push_back(d);
        perm.push_back(static_cast<unsigned>(s.axis));
        poplar::Tensor moved = x.dimShuffle(perm);
        inner = shape[s.axis];
        outer = x.numElements() / std::max<std::size_t>(inner, 1);
        x2 = moved.reshape({outer, inner});
      }
      // Stable form: exp(x - max) / sum.
      poplar::Tensor mx = popops::reduce(ctx.graph, x2, {1},
                                         popops::Operation::MAX, prog, op.name)
                              .expand({1});
      poplar::Tensor shifted =
          popops::map(ctx.graph, pe::_1 - pe::_2, {x2, mx.broadcast(inner, 1)},
                      prog, op.name);
      poplar::Tensor e = popops::map(ctx.graph, pe::Exp(pe::_1), {shifted}, prog, op.name);
      poplar::Tensor sum = popops::reduce(ctx.graph, e, {1},
                                          popops::Operation::ADD, prog, op.name)
                               .expand({1})
                               .broadcast(inner, 1);
      poplar::Tensor y =
          log ? popops::map(ctx.graph, pe::_1 - pe::Log(pe::_2), {shifted, sum}, prog, op.name)
              : popops::map(ctx.graph, pe::_1 / pe::_2, {e, sum}, prog, op.name);
      if (s.coerceTo2D()) {
        y = y.reshape(shape);
      } else {
        std::vector<std::size_t> movedShape;
        for (auto p : perm)
          movedShape.push_back(shape[p]);
        std::vector<unsigned> inverse(perm.size());
        for (unsigned i = 0; i < perm.size(); ++i)
          inverse[perm[i]] = i;
        y = y.reshape(movedShape).dimShuffle(inverse);
      }
      ctx.set(*op.outputs[0], y);
    });
  }
  for (const char *t : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin",
                        "ReduceProd"}) {
    const std::string type = t;
    r.add(onnx, t, [type](const Op &op, LoweringContext &ctx,
                          poplar::program::Sequence &prog) {
      const auto &red = static_cast<const ReduceOp &>(op);
      poplar::Tensor x = ctx.get(op.inTensor(0));
      const auto operation = type == "ReduceMax"    ? popops::Operation::MAX
                             : type == "ReduceMin"  ? popops::Operation::MIN
                             : type == "ReduceProd" ? popops::Operation::MUL
                                                    : popops::Operation::ADD;
      std::vector<std::size_t> axes(red.reducedAxes.begin(), red.reducedAxes.end());
      poplar::Tensor y;
      if (axes.empty()) {
        y = ctx.graph.clone(x, op.name);
        prog.add(poplar::program::Copy(x, y));
      } else {
        y = popops::reduce(ctx.graph, x, axes, operation, prog, op.name);
      }
      if (type == "ReduceMean") {
        std::size_t count = 1;
        for (auto a : axes)
          count *= x.dim(a);
        y = popops::map(ctx.graph, pe::_1 / pe::Const(static_cast<float>(count)),
                        {y}, prog, op.name);
      }
      const auto &outShape = op.outputs[0]->info.shape();
      ctx.set(*op.outputs[0],
              y.reshape(std::vector<std::size_t>(outShape.begin(), outShape.end())));
    });
  }
}

} // namespace popart
