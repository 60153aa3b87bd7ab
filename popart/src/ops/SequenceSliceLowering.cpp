// SequenceSliceOp: popops::sequenceSlice into a copy of the destination.
#include "lowering/Lowering.hpp"
#include "ops/SequenceSliceOp.hpp"

#include <popops/SequenceSlice.hpp>
#include <poputil/Util.hpp>

namespace popart {

void growSequenceSlice(const Op &op, LoweringContext &ctx,
                       poplar::program::Sequence &prog) {
  const auto &ss = static_cast<const SequenceSliceOp &>(op);
  const poplar::Tensor out = poputil::duplicate(
      ctx.graph, ctx.get(op.inTensor(1)), prog, op.name() + "/destination");
  popops::sequenceSlice(ctx.graph, ctx.get(op.inTensor(0)), out,
                        ctx.get(op.inTensor(2)), ctx.get(op.inTensor(3)),
                        ctx.get(op.inTensor(4)), ss.zeroUnused, prog,
                        op.name());
  ctx.set(*op.outputs[0], out);
}

} // namespace popart
