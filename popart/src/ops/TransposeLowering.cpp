// TransposeOp: the input's dimensions shuffled.
#include "lowering/Lowering.hpp"
#include "ops/TransposeOp.hpp"

namespace popart {

void growTranspose(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  const auto &perm = static_cast<const TransposeOp &>(op).perm;
  std::vector<unsigned> p(perm.begin(), perm.end());
  ctx.set(*op.outputs[0],
          copyOf(ctx, ctx.get(op.inTensor(0)).dimShuffle(p), prog, op.name()));
}


void growTransposeGrad(const Op &op, LoweringContext &ctx,
                       poplar::program::Sequence &prog) {
  const auto &perm = static_cast<const TransposeGradOp &>(op).inversePerm;
  std::vector<unsigned> p(perm.begin(), perm.end());
  ctx.set(op.outputs[0],
          copyOf(ctx, ctx.get(op.inTensor(0)).dimShuffle(p), prog, op.name()));
}

} // namespace popart
