// CastOp: popops::cast to the device type of the target type.
#include "lowering/Lowering.hpp"

#include <popops/Cast.hpp>

namespace popart {

void growCast(const Op &op, LoweringContext &ctx,
              poplar::program::Sequence &prog) {
  ctx.set(*op.outputs[0],
          popops::cast(ctx.graph, ctx.get(op.inTensor(0)),
                       deviceType(op.outputs[0]->info.dataType()), prog, op.name()));
}


void growCastGrad(const Op &op, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  ctx.set(op.outputs[0],
          castTo(ctx, ctx.get(op.inTensor(0)),
                 deviceType(op.outputs[0]->info.dataType()), prog, op.name()));
}

} // namespace popart
