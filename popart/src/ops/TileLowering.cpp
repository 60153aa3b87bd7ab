// TileOp: the input concatenated with itself along each dimension.
#include "lowering/Lowering.hpp"
#include <popops/Reduce.hpp>
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


void growTileGrad(const Op &op, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  const auto &repeats = static_cast<const TileGradOp &>(op).repeats;
  const Shape &in = op.outputs[0]->info.shape();
  // [r0 * d0, r1 * d1, ...] seen as [r0, d0, r1, d1, ...], summed over the r.
  std::vector<std::size_t> split, reduced;
  for (std::size_t d = 0; d < in.size(); ++d) {
    reduced.push_back(split.size());
    split.push_back(static_cast<std::size_t>(repeats[d]));
    split.push_back(static_cast<std::size_t>(in[d]));
  }
  poplar::Tensor g = ctx.get(op.inTensor(0)).reshape(split);
  ctx.set(op.outputs[0],
          popops::reduce(ctx.graph, g, g.elementType(), reduced,
                         popops::Operation::ADD, prog, op.name())
              .reshape(dims(in)));
}

} // namespace popart
