// HostLoad and HostStore are copies: the session moves the stream's data
// (HostLoad's input, HostStore's output) between the host and the device
// once per batch. CopyVarUpdate copies into its input in place.
#include "lowering/Lowering.hpp"
#include "ops/HostIOOp.hpp"

namespace popart {

void growHostIO(const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  ctx.set(op.outputs[0], copyOf(ctx, ctx.get(op.inTensor(0)), prog, op.name()));
}

void growCopyVarUpdate(const Op &op, LoweringContext &ctx,
                       poplar::program::Sequence &prog) {
  const poplar::Tensor t = ctx.get(op.inTensor(0));
  prog.add(poplar::program::Copy(ctx.get(op.inTensor(1)), t));
  ctx.set(op.outputs[0], t);
}

} // namespace popart
