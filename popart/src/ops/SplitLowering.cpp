// SplitOp: consecutive slices along the axis.
#include "lowering/Lowering.hpp"
#include "ops/SplitOp.hpp"

namespace popart {

void growSplit(const Op &op, LoweringContext &ctx,
               poplar::program::Sequence &prog) {
  const auto &s = static_cast<const SplitOp &>(op);
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  std::size_t begin = 0;
  for (std::size_t i = 0; i < s.sizes.size(); ++i) {
    const std::size_t end = begin + static_cast<std::size_t>(s.sizes[i]);
    if (op.outputs[i])
      ctx.set(*op.outputs[i],
              copyOf(ctx, in.slice(begin, end, static_cast<unsigned>(s.axis)),
                     prog, op.name()));
    begin = end;
  }
}


void growSplitGrad(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  const auto axis = static_cast<unsigned>(static_cast<const SplitGradOp &>(op).axis);
  std::vector<poplar::Tensor> parts;
  for (const Tensor *t : op.inputs)
    parts.push_back(ctx.get(t));
  ctx.set(op.outputs[0], copyOf(ctx, poplar::concat(parts, axis), prog, op.name()));
}

} // namespace popart
