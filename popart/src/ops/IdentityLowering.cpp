// IdentityOp (Identity, Nop, Detach) and its gradient: a copy, so that the
// output is a tensor of its own.
#include "lowering/Lowering.hpp"
#include "ops/IdentityOp.hpp"

namespace popart {

poplar::Tensor copyOf(LoweringContext &ctx, const poplar::Tensor &view,
                      poplar::program::Sequence &prog, const std::string &name) {
  poplar::Tensor out = ctx.graph.clone(view, name);
  prog.add(poplar::program::Copy(view, out));
  return out;
}

void growIdentity(const Op &op, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  ctx.set(op.outputs[0], copyOf(ctx, ctx.get(op.inTensor(0)), prog, op.name()));
}

} // namespace popart
