// WhereOp: popops::select.
#include "lowering/Lowering.hpp"
#include "ops/WhereOp.hpp"
#include <popops/Expr.hpp>

#include <popops/ElementWise.hpp>

namespace popart {

void growWhere(const Op &op, LoweringContext &ctx,
               poplar::program::Sequence &prog) {
  ctx.set(*op.outputs[0],
          popops::select(ctx.graph, ctx.get(op.inTensor(1)),
                         ctx.get(op.inTensor(2)), ctx.get(op.inTensor(0)), prog,
                         op.name()));
}


void growWhereGrad(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  namespace pe = popops::expr;
  const auto &grad = static_cast<const WhereGradOp &>(op);
  const poplar::Tensor g = ctx.get(op.inTensor(0));
  const poplar::Tensor cond = ctx.get(op.inTensor(1));
  const auto zero = pe::Const(0.0f);
  poplar::Tensor full =
      grad.arg == 1
          ? popops::map(ctx.graph, pe::Select(pe::_1, zero, pe::_2), {g, cond},
                        prog, op.name())
          : popops::map(ctx.graph, pe::Select(zero, pe::_1, pe::_2), {g, cond},
                        prog, op.name());
  ctx.set(op.outputs[0],
          reduceToShape(ctx, full, op.outputs[0]->info.shape(), prog, op.name()));
}

} // namespace popart
