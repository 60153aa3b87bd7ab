// IdentityOp (Identity, and Dropout, Detach, Nop in inference): a copy, so
// that the output is a tensor of its own (and Dropout's mask all true).
#include "lowering/Lowering.hpp"

namespace popart {

poplar::Tensor copyOf(LoweringContext &ctx, const poplar::Tensor &view,
                      poplar::program::Sequence &prog, const std::string &name) {
  poplar::Tensor out = ctx.graph.clone(view, name);
  prog.add(poplar::program::Copy(view, out));
  return out;
}

void growIdentity(const Op &op, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  ctx.set(*op.outputs[0], copyOf(ctx, ctx.get(op.inTensor(0)), prog, op.name()));
  if (op.outputs.size() > 1 && op.outputs[1]) {
    // Dropout's mask in inference: every element kept.
    const Shape &shape = op.outputs[1]->info.shape();
    poplar::Tensor mask = ctx.graph.addConstant(
        poplar::BOOL, std::vector<std::size_t>(shape.begin(), shape.end()), true,
        op.name() + "/mask");
    ctx.graph.setTileMapping(mask, 0);
    ctx.set(*op.outputs[1], mask);
  }
}

} // namespace popart
