// ReverseSequenceOp: each batch entry's reversed steps and the rest, views
// of the input concatenated, copied into a tensor of its own.
#include "lowering/Lowering.hpp"
#include "ops/ReverseSequenceOp.hpp"

namespace popart {

void growReverseSequence(const Op &op, LoweringContext &ctx,
                         poplar::program::Sequence &prog) {
  const auto &r = static_cast<const ReverseSequenceOp &>(op);
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  const unsigned batch = unsigned(r.batchAxis), time = unsigned(r.timeAxis);
  const std::size_t steps = in.dim(time);
  std::vector<poplar::Tensor> entries;
  for (std::size_t b = 0; b < r.lengths.size(); ++b) {
    const poplar::Tensor entry = in.slice(b, b + 1, batch);
    const std::size_t length = std::size_t(r.lengths[b]);
    std::vector<poplar::Tensor> parts;
    if (length > 0)
      parts.push_back(entry.slice(0, length, time).reverse(time));
    if (length < steps)
      parts.push_back(entry.slice(length, steps, time));
    entries.push_back(poplar::concat(parts, time));
  }
  ctx.set(op.outputs[0],
          copyOf(ctx, poplar::concat(entries, batch), prog, op.name()));
}

} // namespace popart
