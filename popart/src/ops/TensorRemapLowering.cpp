// TensorRemapOp and its gradient: a copy into a new tensor mapped linearly
// over the tiles, or (the gradient of Fwd) the gradient as it is.
#include "lowering/Lowering.hpp"
#include "ops/TensorRemapOp.hpp"

#include <poputil/TileMapping.hpp>

namespace popart {
namespace {

poplar::Tensor remapped(LoweringContext &ctx, const poplar::Tensor &in,
                        poplar::program::Sequence &prog,
                        const std::string &name) {
  poplar::Tensor out = ctx.graph.addVariable(in.elementType(), in.shape(), name);
  poputil::mapTensorLinearly(ctx.graph, out);
  prog.add(poplar::program::Copy(in, out));
  return out;
}

} // namespace

void growTensorRemap(const Op &op, LoweringContext &ctx,
                     poplar::program::Sequence &prog) {
  ctx.set(op.outputs[0], remapped(ctx, ctx.get(op.inTensor(0)), prog, op.name()));
}

void growTensorRemapGrad(const Op &op, LoweringContext &ctx,
                         poplar::program::Sequence &prog) {
  const auto &g = static_cast<const TensorRemapGradOp &>(op);
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  ctx.set(op.outputs[0], g.remapType == TensorRemapType::Fwd
                             ? copyOf(ctx, in, prog, op.name())
                             : remapped(ctx, in, prog, op.name()));
}

} // namespace popart
