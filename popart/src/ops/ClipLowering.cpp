// ClipOp: a Clamp expression with the (constant) bounds.
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
} // namespace

void growClip(const Op &op, LoweringContext &ctx,
              poplar::program::Sequence &prog) {
  const auto &clip = static_cast<const ClipOp &>(op);
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  const poplar::Type compute = arithmeticType(in.elementType());
  poplar::Tensor x = castTo(ctx, in, compute, prog, op.name());
  poplar::Tensor out;
  if (compute == poplar::FLOAT || compute == poplar::HALF) {
    out = popops::map(ctx.graph,
                      pe::Clamp(pe::_1, pe::Const(clip.min), pe::Const(clip.max)),
                      {x}, prog, op.name());
  } else if (compute == poplar::UNSIGNED_INT) {
    out = popops::map(ctx.graph,
                      pe::Clamp(pe::_1, pe::Const(bound<unsigned>(clip.min)),
                                pe::Const(bound<unsigned>(clip.max))),
                      {x}, prog, op.name());
  } else {
    out = popops::map(ctx.graph,
                      pe::Clamp(pe::_1, pe::Const(bound<int>(clip.min)),
                                pe::Const(bound<int>(clip.max))),
                      {x}, prog, op.name());
  }
  ctx.set(*op.outputs[0], castTo(ctx, out, in.elementType(), prog, op.name()));
}


void growClipGrad(const Op &op, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const ClipGradOp &>(op);
  ctx.set(op.outputs[0],
          popops::map(ctx.graph,
                      pe::Select(pe::_1, pe::Const(0.0f),
                                 pe::And(pe::Gte(pe::_2, pe::Const(grad.min)),
                                         pe::Lte(pe::_2, pe::Const(grad.max)))),
                      {ctx.get(op.inTensor(0)), ctx.get(op.inTensor(1))}, prog,
                      op.name()));
}

} // namespace popart
