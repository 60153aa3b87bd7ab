// MaxUnpoolOp: a zeroed unpooled tensor whose elements at the indices are
// written with the input's values by popops' multi-update (updateRows),
// each element a row of one; then zeros after it up to output_shape.
#include "lowering/Lowering.hpp"
#include "ops/MaxUnpoolOp.hpp"

#include <popops/Cast.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {

void growMaxUnpool(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  const auto &unpool = static_cast<const MaxUnpoolOp &>(op);
  const poplar::Tensor x = ctx.get(op.inTensor(0));
  poplar::Tensor out = ctx.graph.addVariable(
      x.elementType(), dims(unpool.unpooled), op.name() + "/out");
  poputil::mapTensorLinearly(ctx.graph, out);
  popops::zero(ctx.graph, out, prog, op.name());
  const poplar::Tensor offsets =
      popops::cast(ctx.graph, ctx.get(op.inTensor(1)).flatten(),
                   poplar::UNSIGNED_INT, prog, op.name());
  updateRows(ctx, out.reshape({out.numElements(), 1}),
             x.reshape({x.numElements(), 1}), offsets, "none", prog,
             op.name());
  const Shape &full = op.outShape(0);
  if (full == unpool.unpooled) {
    ctx.set(op.outputs[0], out);
    return;
  }
  const poplar::Tensor zero =
      scalarConstant(ctx, x.elementType(), 0.0, op.name() + "/zero");
  for (std::size_t d = 0; d < full.size(); ++d)
    if (std::size_t(full[d]) > out.dim(unsigned(d))) {
      auto shape = out.shape();
      shape[d] = std::size_t(full[d]) - shape[d];
      out = poplar::concat(out, broadcastScalar(zero, shape), unsigned(d));
    }
  ctx.set(op.outputs[0], copyOf(ctx, out, prog, op.name()));
}

} // namespace popart
