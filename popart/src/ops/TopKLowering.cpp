// TopKOp (TopK, ArgMax, ArgMin): the axis moved last and the rest
// flattened, popops::topKWithPermutation on the rows (a stable sort, so
// that ties keep the lower index first; the rows reversed for
// select_last_index), then the axis moved back.
#include "lowering/Lowering.hpp"
#include <popops/Encoding.hpp>
#include <popops/Reduce.hpp>
#include <poputil/TileMapping.hpp>
#include "ops/TopKOp.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/TopK.hpp>

namespace popart {
namespace pe = popops::expr;

void growTopK(const Op &op, LoweringContext &ctx,
              poplar::program::Sequence &prog) {
  const auto &t = static_cast<const TopKOp &>(op);
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  const unsigned axis = static_cast<unsigned>(t.axis);
  std::vector<unsigned> perm;
  for (unsigned d = 0; d < in.rank(); ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  poplar::Tensor moved = in.dimShuffle(perm);
  // The last of equal values: search the reversed rows.
  if (t.selectLastIndex)
    moved = moved.reverse(moved.rank() - 1);
  const std::size_t n = in.dim(axis);
  const std::size_t rows = n ? in.numElements() / n : 0;
  const auto order = t.sorted ? (t.largest ? popops::SortOrder::DESCENDING
                                           : popops::SortOrder::ASCENDING)
                              : popops::SortOrder::NONE;
  auto result = popops::topKWithPermutation(
      ctx.graph, prog, moved.reshape({rows, n}),
      popops::TopKParams(static_cast<unsigned>(t.k), t.largest, order, true),
      op.name());

  // Back to the input's layout, with k in place of the axis.
  std::vector<std::size_t> movedShape = moved.shape();
  movedShape.back() = static_cast<std::size_t>(t.k);
  std::vector<unsigned> inverse(perm.size());
  for (unsigned i = 0; i < perm.size(); ++i)
    inverse[perm[i]] = i;
  auto restore = [&](const poplar::Tensor &x) {
    return x.reshape(movedShape).dimShuffle(inverse);
  };
  poplar::Tensor indices = popops::cast(ctx.graph, restore(result.second),
                                        poplar::INT, prog, op.name());
  if (t.selectLastIndex)
    indices = popops::map(ctx.graph, pe::Const(static_cast<int>(n) - 1) - pe::_1,
                          {indices}, prog, op.name());
  if (t.isArg()) {
    const Shape &outShape = op.outputs[0]->info.shape();
    ctx.set(*op.outputs[0],
            indices.reshape(std::vector<std::size_t>(outShape.begin(), outShape.end())));
    return;
  }
  ctx.set(*op.outputs[0], copyOf(ctx, restore(result.first), prog, op.name()));
  if (op.outputs.size() > 1 && op.outputs[1])
    ctx.set(*op.outputs[1], indices);
}


void growTopKGrad(const Op &op, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const TopKGradOp &>(op);
  const unsigned axis = static_cast<unsigned>(grad.axis);
  const Shape &inShape = op.outputs[0]->info.shape();
  const std::size_t n = std::size_t(inShape[axis]);
  // Rows with the axis last: g [rows, k], indices [rows, k].
  const poplar::Tensor g = ctx.get(op.inTensor(0)).dimRoll(axis, unsigned(inShape.size() - 1));
  const std::size_t k = g.dim(g.rank() - 1), rows = k ? g.numElements() / k : 0;
  const poplar::Tensor idx =
      castTo(ctx, ctx.get(op.inTensor(1)), poplar::INT, prog, op.name())
          .dimRoll(axis, unsigned(inShape.size() - 1))
          .flatten();
  poplar::Tensor oneHot = ctx.graph.addVariable(g.elementType(), {rows * k, n},
                                                op.name() + "/oneHot");
  poputil::mapTensorLinearly(ctx.graph, oneHot);
  popops::encodeOneHot(ctx.graph, idx, oneHot, prog, op.name());
  poplar::Tensor spread = popops::mul(
      ctx.graph, oneHot.reshape({rows, k, n}),
      g.reshape({rows, k, 1}).broadcast(unsigned(n), 2), prog, op.name());
  poplar::Tensor r = popops::reduce(ctx.graph, spread, g.elementType(), {1},
                                    popops::Operation::ADD, prog, op.name());
  std::vector<std::size_t> movedShape;
  for (std::size_t d = 0; d < inShape.size(); ++d)
    if (d != axis)
      movedShape.push_back(std::size_t(inShape[d]));
  movedShape.push_back(n);
  ctx.set(op.outputs[0],
          r.reshape(movedShape).dimRoll(unsigned(inShape.size() - 1), axis));
}

} // namespace popart
