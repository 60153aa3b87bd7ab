// WhereOp: popops::select.
#include "lowering/Lowering.hpp"

#include <popops/ElementWise.hpp>

namespace popart {

void growWhere(const Op &op, LoweringContext &ctx,
               poplar::program::Sequence &prog) {
  ctx.set(*op.outputs[0],
          popops::select(ctx.graph, ctx.get(op.inTensor(1)),
                         ctx.get(op.inTensor(2)), ctx.get(op.inTensor(0)), prog,
                         op.name()));
}

} // namespace popart
