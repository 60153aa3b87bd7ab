// NormalizeImageOp: popops::normaliseImage.
#include "lowering/Lowering.hpp"
#include "ops/NormalizeImageOp.hpp"

#include <popops/NormaliseImage.hpp>

namespace popart {

void growNormalizeImage(const Op &op, LoweringContext &ctx,
                        poplar::program::Sequence &prog) {
  const auto &ni = static_cast<const NormalizeImageOp &>(op);
  ctx.set(*op.outputs[0],
          popops::normaliseImage(ctx.graph, prog, ctx.get(op.inTensor(0)),
                                 ni.scale, ctx.get(op.inTensor(1)),
                                 ctx.get(op.inTensor(2)), op.name()));
}

} // namespace popart
