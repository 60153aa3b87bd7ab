// SliceOp: slices and sub-samples of the input (reversed first along the
// dimensions sliced backwards).
#include "lowering/Lowering.hpp"
#include "ops/SliceOp.hpp"

namespace popart {

void growSlice(const Op &op, LoweringContext &ctx,
               poplar::program::Sequence &prog) {
  const auto &s = static_cast<const SliceOp &>(op);
  poplar::Tensor t = ctx.get(op.inTensor(0));
  for (std::size_t d = 0; d < s.begins.size(); ++d) {
    const auto dim = static_cast<unsigned>(d);
    if (s.reversed[d])
      t = t.reverse(dim);
    t = t.slice(static_cast<std::size_t>(s.begins[d]),
                static_cast<std::size_t>(s.ends[d]), dim);
    if (s.steps[d] > 1)
      t = t.subSample(static_cast<unsigned>(s.steps[d]), dim);
  }
  ctx.set(*op.outputs[0], copyOf(ctx, t, prog, op.name()));
}

} // namespace popart
