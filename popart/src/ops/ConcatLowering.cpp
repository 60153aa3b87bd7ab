// ConcatOp: poplar::concat of the inputs.
#include "lowering/Lowering.hpp"
#include "ops/ConcatOp.hpp"

namespace popart {

void growConcat(const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  std::vector<poplar::Tensor> parts;
  for (const Tensor *t : op.inputs)
    parts.push_back(ctx.get(*t));
  const auto axis = static_cast<unsigned>(static_cast<const ConcatOp &>(op).axis);
  ctx.set(*op.outputs[0], copyOf(ctx, poplar::concat(parts, axis), prog, op.name()));
}


void growConcatGrad(const Op &op, LoweringContext &ctx,
                    poplar::program::Sequence &prog) {
  const auto &g = static_cast<const ConcatGradOp &>(op);
  ctx.set(op.outputs[0],
          copyOf(ctx,
                 ctx.get(op.inTensor(0))
                     .slice(static_cast<std::size_t>(g.begin),
                            static_cast<std::size_t>(g.end),
                            static_cast<unsigned>(g.axis)),
                 prog, op.name()));
}

} // namespace popart
