// ExpandOp: the input broadcast to the output's shape (a view), copied.
#include "lowering/Lowering.hpp"

namespace popart {

void growExpand(const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  const Shape &out = op.outputs[0]->info.shape();
  poplar::Tensor t = ctx.get(op.inTensor(0));
  while (t.rank() < out.size())
    t = t.expand({0});
  for (std::size_t d = 0; d < out.size(); ++d)
    if (t.dim(d) == 1 && out[d] != 1)
      t = t.broadcast(static_cast<unsigned>(out[d]), static_cast<unsigned>(d));
  ctx.set(*op.outputs[0], copyOf(ctx, t, prog, op.name()));
}


void growExpandGrad(const Op &op, LoweringContext &ctx,
                    poplar::program::Sequence &prog) {
  const poplar::Tensor g = ctx.get(op.inTensor(0));
  poplar::Tensor r =
      reduceToShape(ctx, g, op.outputs[0]->info.shape(), prog, op.name());
  ctx.set(op.outputs[0], r.shape() == g.shape() ? copyOf(ctx, r, prog, op.name()) : r);
}

} // namespace popart
