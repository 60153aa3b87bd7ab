// ai.graphcore Scale and ScaledAdd: popops::map expressions.
#include "lowering/Lowering.hpp"
#include "ops/ScaleOp.hpp"
#include "ops/ScaledAddOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

namespace popart {
namespace pe = popops::expr;

void growScale(const Op &op, LoweringContext &ctx,
               poplar::program::Sequence &prog) {
  const auto &s = static_cast<const ScaleOp &>(op);
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  if (s.inplaceInput == 0) { // ScaleInplace
    popops::mapInPlace(ctx.graph, pe::_1 * pe::Const(s.scale), {in}, prog,
                       op.name());
    ctx.set(*op.outputs[0], in);
    return;
  }
  ctx.set(*op.outputs[0], popops::map(ctx.graph, pe::_1 * pe::Const(s.scale),
                                      {in}, prog, op.name()));
}

void growScaledAdd(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  const auto &s = static_cast<const ScaledAddOp &>(op);
  ctx.set(*op.outputs[0],
          popops::map(ctx.graph,
                      pe::_1 * pe::Const(s.scale0) + pe::_2 * pe::Const(s.scale1),
                      {ctx.get(op.inTensor(0)), ctx.get(op.inTensor(1))}, prog,
                      op.name()));
}


void growScaleGrad(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  const float scale = static_cast<const ScaleGradOp &>(op).scale;
  poplar::Tensor full =
      popops::map(ctx.graph, pe::_1 * pe::Const(scale),
                  {ctx.get(op.inTensor(0))}, prog, op.name());
  ctx.set(op.outputs[0],
          reduceToShape(ctx, full, op.outputs[0]->info.shape(), prog, op.name()));
}

} // namespace popart
