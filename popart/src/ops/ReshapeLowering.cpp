// ReshapeOp (Reshape, Flatten, Squeeze, Unsqueeze): the input viewed in the
// output's shape.
#include "lowering/Lowering.hpp"

namespace popart {

void growReshape(const Op &op, LoweringContext &ctx,
                 poplar::program::Sequence &prog) {
  const Shape &shape = op.outputs[0]->info.shape();
  ctx.set(*op.outputs[0],
          copyOf(ctx,
                 ctx.get(op.inTensor(0))
                     .reshape(std::vector<std::size_t>(shape.begin(), shape.end())),
                 prog, op.name()));
}

} // namespace popart
