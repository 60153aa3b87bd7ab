// CompressOp: the kept slices (known when the graph is built) of the
// input, concatenated into a tensor of their own.
#include "lowering/Lowering.hpp"
#include "ops/CompressOp.hpp"

namespace popart {

void growCompress(const Op &op, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  const auto &c = static_cast<const CompressOp &>(op);
  poplar::Tensor in = ctx.get(op.inTensor(0));
  if (!c.hasAxis)
    in = in.flatten();
  const auto axis = static_cast<unsigned>(c.axis);
  std::vector<poplar::Tensor> slices;
  for (unsigned i : c.kept)
    slices.push_back(in.slice(i, i + 1, axis));
  ctx.set(op.outputs[0],
          copyOf(ctx, poplar::concat(slices, axis), prog, op.name()));
}

} // namespace popart
