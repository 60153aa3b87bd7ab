// AbortOp: poplar's Abort, or AbortOnCondition of the condition.
#include "lowering/Lowering.hpp"
#include "ops/AbortOp.hpp"

namespace popart {

void growAbort(const Op &op, LoweringContext &ctx,
               poplar::program::Sequence &prog) {
  if (op.hasInput(0))
    prog.add(poplar::program::AbortOnCondition(
        ctx.get(op.inTensor(0)).reshape({}), op.name()));
  else
    prog.add(poplar::program::Abort(op.name()));
}

} // namespace popart
