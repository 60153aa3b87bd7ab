// DepthToSpaceOp: views of the input (reshape, dimShuffle, reshape)
// copied into a tensor of its own; the gradient takes the inverse views.
#include "lowering/Lowering.hpp"
#include "ops/DepthToSpaceOp.hpp"

namespace popart {

void growDepthToSpace(const Op &op, LoweringContext &ctx,
                      poplar::program::Sequence &prog) {
  const auto &r = static_cast<const DepthToSpaceOp &>(op).rearrangement;
  const poplar::Tensor view = ctx.get(op.inTensor(0))
                                  .reshape(dims(r.split))
                                  .dimShuffle(r.perm)
                                  .reshape(dims(op.outShape(0)));
  ctx.set(op.outputs[0], copyOf(ctx, view, prog, op.name()));
}

void growDepthToSpaceGrad(const Op &op, LoweringContext &ctx,
                          poplar::program::Sequence &prog) {
  const auto &r = static_cast<const DepthToSpaceGradOp &>(op).rearrangement;
  std::vector<std::size_t> permuted;
  std::vector<unsigned> inverse(r.perm.size());
  for (unsigned i = 0; i < r.perm.size(); ++i) {
    permuted.push_back(static_cast<std::size_t>(r.split[r.perm[i]]));
    inverse[r.perm[i]] = i;
  }
  const poplar::Tensor view = ctx.get(op.inTensor(0))
                                  .reshape(permuted)
                                  .dimShuffle(inverse)
                                  .reshape(dims(op.outputs[0]->info.shape()));
  ctx.set(op.outputs[0], copyOf(ctx, view, prog, op.name()));
}

} // namespace popart
