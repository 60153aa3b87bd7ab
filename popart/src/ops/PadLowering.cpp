// PadOp: popops::pad, with a constant value or as an edge or reflect view.
#include "lowering/Lowering.hpp"
#include "ops/PadOp.hpp"

#include <popops/Pad.hpp>

namespace popart {

namespace {

// t padded with views of the scalar `value`, dimension by dimension.
poplar::Tensor padWith(poplar::Tensor t, const poplar::Tensor &value,
                       const std::vector<std::ptrdiff_t> &lower,
                       const std::vector<std::ptrdiff_t> &upper) {
  for (unsigned d = 0; d < t.rank(); ++d) {
    auto padding = [&](std::ptrdiff_t n) {
      std::vector<std::size_t> shape = t.shape();
      shape[d] = static_cast<std::size_t>(n);
      return broadcastScalar(value, shape);
    };
    std::vector<poplar::Tensor> parts;
    if (lower[d] > 0)
      parts.push_back(padding(lower[d]));
    parts.push_back(t);
    if (upper[d] > 0)
      parts.push_back(padding(upper[d]));
    t = poplar::concat(parts, d);
  }
  return t;
}

} // namespace

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
  else if (p.valueIsTensor)
    out = padWith(in, ctx.get(op.inTensor(2)), lower, upper);
  else if (in.elementType() == poplar::FLOAT || in.elementType() == poplar::HALF)
    out = popops::pad(ctx.graph, in, lower, upper, p.value);
  else
    out = popops::pad(ctx.graph, in, lower, upper, static_cast<int>(p.value));
  ctx.set(*op.outputs[0], copyOf(ctx, out, prog, op.name()));
}


void growPadGrad(const Op &op, LoweringContext &ctx,
                 poplar::program::Sequence &prog) {
  const auto &p = static_cast<const PadGradOp &>(op);
  // Padding the gradient by the negated padding undoes the padding: a
  // negative pad crops, and a crop (negative) pads with zeros.
  std::vector<std::ptrdiff_t> lower, upper;
  for (std::size_t d = 0; d < p.lower.size(); ++d) {
    lower.push_back(-p.lower[d]);
    upper.push_back(-p.upper[d]);
  }
  const poplar::Tensor g = ctx.get(op.inTensor(0));
  poplar::Tensor out = g.elementType() == poplar::FLOAT || g.elementType() == poplar::HALF
                           ? popops::pad(ctx.graph, g, lower, upper, 0.0f)
                           : popops::pad(ctx.graph, g, lower, upper, 0);
  ctx.set(op.outputs[0], copyOf(ctx, out, prog, op.name()));
}

} // namespace popart
