// InitOp: a new variable spread over the tiles, zeroed for InitType::Zero.
#include "lowering/Lowering.hpp"
#include "ops/InitOp.hpp"

#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {

void growInit(const Op &op, LoweringContext &ctx,
              poplar::program::Sequence &prog) {
  const auto &init = static_cast<const InitOp &>(op);
  poplar::Tensor t = ctx.graph.addVariable(deviceType(init.info.dataType()),
                                           dims(init.info.shape()), op.name());
  poputil::mapTensorLinearly(ctx.graph, t);
  if (init.initType == InitType::Zero)
    popops::zero(ctx.graph, t, prog, op.name());
  ctx.set(*op.outputs[0], t);
}

} // namespace popart
