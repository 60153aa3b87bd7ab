// TileOp: the input concatenated with itself along each dimension.
#include "lowering/Lowering.hpp"
#include "ops/TileOp.hpp"

namespace popart {

void growTile(const Op &op, LoweringContext &ctx,
              poplar::program::Sequence &prog) {
  const auto &repeats = static_cast<const TileOp &>(op).repeats;
  poplar::Tensor t = ctx.get(op.inTensor(0));
  for (std::size_t d = 0; d < repeats.size(); ++d)
    if (repeats[d] != 1)
      t = poplar::concat(std::vector<poplar::Tensor>(repeats[d], t),
                         static_cast<unsigned>(d));
  ctx.set(*op.outputs[0], copyOf(ctx, t, prog, op.name()));
}

} // namespace popart
