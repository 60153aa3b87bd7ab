// ReduceMedianOp: the reduced dimensions moved last and flattened into
// rows, whose ((n - 1) / 2)-th smallest (popops::topKWithPermutation,
// ascending) is the median; the gradient puts each row's gradient at its
// median's index (a one-hot row).
#include "lowering/Lowering.hpp"
#include "ops/ReduceMedianOp.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Encoding.hpp>
#include <popops/TopK.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {

namespace {
// The input's shape with its dimensions in `order`.
std::vector<std::size_t> movedShape(const Shape &in,
                                    const std::vector<unsigned> &order) {
  std::vector<std::size_t> s;
  for (unsigned d : order)
    s.push_back(static_cast<std::size_t>(in[d]));
  return s;
}
} // namespace

void growReduceMedian(const Op &op, LoweringContext &ctx,
                      poplar::program::Sequence &prog) {
  const auto &m = static_cast<const ReduceMedianOp &>(op);
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  const std::size_t rows = static_cast<std::size_t>(op.outInfo(0).nelms());
  const std::size_t n = rows ? in.numElements() / rows : 0;
  const poplar::Tensor x2 = in.dimShuffle(m.order()).reshape({rows, n});
  const unsigned k = static_cast<unsigned>((n - 1) / 2 + 1);
  auto result = popops::topKWithPermutation(
      ctx.graph, prog, x2,
      popops::TopKParams(k, false, popops::SortOrder::ASCENDING, true),
      op.name());
  const auto outShape = dims(op.outShape(0));
  ctx.set(*op.outputs[0],
          copyOf(ctx, result.first.slice(k - 1, k, 1).reshape(outShape), prog,
                 op.name()));
  if (op.outputs.size() > 1 && op.outputs[1])
    ctx.set(*op.outputs[1],
            popops::cast(ctx.graph, result.second.slice(k - 1, k, 1), poplar::INT,
                         prog, op.name())
                .reshape(outShape));
}

void growReduceMedianGrad(const Op &op, LoweringContext &ctx,
                          poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const ReduceMedianGradOp &>(op);
  const Shape &inShape = op.outputs[0]->info.shape();
  const poplar::Tensor g = ctx.get(op.inTensor(0)).flatten();
  const std::size_t rows = g.numElements();
  const std::size_t n =
      rows ? static_cast<std::size_t>(op.outputs[0]->info.nelms()) / rows : 0;
  const poplar::Tensor idx =
      castTo(ctx, ctx.get(op.inTensor(1)), poplar::INT, prog, op.name())
          .flatten();
  poplar::Tensor oneHot =
      ctx.graph.addVariable(g.elementType(), {rows, n}, op.name() + "/oneHot");
  poputil::mapTensorLinearly(ctx.graph, oneHot);
  popops::encodeOneHot(ctx.graph, idx, oneHot, prog, op.name());
  popops::mulInPlace(ctx.graph, oneHot,
                     g.reshape({rows, 1}).broadcast(unsigned(n), 1), prog,
                     op.name());
  std::vector<unsigned> inverse(grad.order.size());
  for (unsigned i = 0; i < grad.order.size(); ++i)
    inverse[grad.order[i]] = i;
  ctx.set(op.outputs[0],
          oneHot.reshape(movedShape(inShape, grad.order)).dimShuffle(inverse));
}

} // namespace popart
