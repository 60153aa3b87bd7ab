// ClipOp: a Clamp expression between the bounds, constants folded into
// the expression or scalar tensors read on the device.
#include "lowering/Lowering.hpp"
#include "ops/ClipOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

#include <algorithm>
#include <limits>

namespace popart {
namespace pe = popops::expr;

namespace {
// A bound held to the range of the integer type (the default bounds are
// the float range).
template <typename T> T bound(float v) {
  const double lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  return static_cast<T>(std::min(std::max(double(v), lo), hi));
}

// A constant bound as an expression of the compute type.
pe::Any constBound(float v, const poplar::Type &compute) {
  if (compute == poplar::FLOAT || compute == poplar::HALF)
    return pe::Const(v);
  if (compute == poplar::UNSIGNED_INT)
    return pe::Const(bound<unsigned>(v));
  return pe::Const(bound<int>(v));
}

// The operands of a clip of x (in the compute type): x, then the bounds
// that are tensors, broadcast; and the bounds as expressions of them.
struct ClipOperands {
  std::vector<poplar::Tensor> tensors;
  pe::Any lo = pe::Const(0.0f), hi = pe::Const(0.0f);
};

ClipOperands clipOperands(const Op &op, LoweringContext &ctx, poplar::Tensor x,
                          InIndex minIn, InIndex maxIn, float min, float max,
                          const poplar::Type &compute,
                          poplar::program::Sequence &prog) {
  ClipOperands o;
  o.tensors.push_back(x);
  auto operand = [&](bool isTensor, InIndex in, float value) -> pe::Any {
    if (!isTensor)
      return constBound(value, compute);
    o.tensors.push_back(broadcastScalar(
        castTo(ctx, ctx.get(op.inTensor(in)), compute, prog, op.name()),
        x.shape()));
    return pe::PlaceHolder(static_cast<unsigned>(o.tensors.size()));
  };
  o.lo = operand(minIn >= 0, minIn, min);
  o.hi = operand(maxIn >= 0, maxIn, max);
  return o;
}

} // namespace

void growClip(const Op &op, LoweringContext &ctx,
              poplar::program::Sequence &prog) {
  const auto &clip = static_cast<const ClipOp &>(op);
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  const poplar::Type compute = arithmeticType(in.elementType());
  const ClipOperands o = clipOperands(
      op, ctx, castTo(ctx, in, compute, prog, op.name()),
      clip.minIsTensor ? 1 : -1, clip.maxIsTensor ? 2 : -1, clip.min, clip.max,
      compute, prog);
  const pe::Any clipped = pe::Max(pe::Min(pe::_1, o.hi), o.lo);
  if (clip.inplaceInput == 0) { // ClipInplace: a type clipped as itself
    popops::mapInPlace(ctx.graph, clipped, o.tensors, prog, op.name());
    ctx.set(*op.outputs[0], in);
    return;
  }
  const poplar::Tensor out =
      popops::map(ctx.graph, clipped, o.tensors, prog, op.name());
  ctx.set(*op.outputs[0], castTo(ctx, out, in.elementType(), prog, op.name()));
}

void growClipGrad(const Op &op, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const ClipGradOp &>(op);
  const poplar::Tensor x = ctx.get(op.inTensor(1));
  ClipOperands o = clipOperands(op, ctx, x, grad.minIsTensor ? 2 : -1,
                                grad.maxIsTensor ? 3 : -1, grad.min, grad.max,
                                x.elementType(), prog);
  o.tensors.push_back(ctx.get(op.inTensor(0)));
  const auto g = pe::PlaceHolder(static_cast<unsigned>(o.tensors.size()));
  ctx.set(op.outputs[0],
          popops::map(ctx.graph,
                      pe::Select(g, pe::Const(0.0f),
                                 pe::And(pe::Gte(pe::_1, o.lo),
                                         pe::Lte(pe::_1, o.hi))),
                      o.tensors, prog, op.name()));
}

} // namespace popart
