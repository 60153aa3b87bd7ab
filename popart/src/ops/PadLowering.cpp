// PadOp: popops::pad, with a constant value or as an edge or reflect view.
#include "lowering/Lowering.hpp"
#include "ops/PadOp.hpp"

#include <popops/Pad.hpp>

namespace popart {

void growPad(const Op &op, LoweringContext &ctx,
             poplar::program::Sequence &prog) {
  const auto &p = static_cast<const PadOp &>(op);
  const std::vector<std::ptrdiff_t> lower(p.lower.begin(), p.lower.end()),
      upper(p.upper.begin(), p.upper.end());
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  poplar::Tensor out;
  if (p.mode == "edge")
    out = popops::pad(in, lower, upper, popops::padding::Type::EDGE);
  else if (p.mode == "reflect")
    out = popops::pad(in, lower, upper, popops::padding::Type::REFLECT);
  else if (in.elementType() == poplar::FLOAT || in.elementType() == poplar::HALF)
    out = popops::pad(ctx.graph, in, lower, upper, p.value);
  else
    out = popops::pad(ctx.graph, in, lower, upper, static_cast<int>(p.value));
  ctx.set(*op.outputs[0], copyOf(ctx, out, prog, op.name()));
}

} // namespace popart
