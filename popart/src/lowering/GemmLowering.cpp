// GemmOp: alpha * op(A) op(B) + beta * C, a matrix multiplication and a
// popops::map.
#include "lowering/Lowering.hpp"
#include "ops/GemmOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

namespace popart {
namespace pe = popops::expr;

void growGemm(const Op &op, LoweringContext &ctx,
              poplar::program::Sequence &prog) {
  const auto &g = static_cast<const GemmOp &>(op);
  poplar::Tensor a = ctx.get(op.inTensor(0)), b = ctx.get(op.inTensor(1));
  if (g.transA)
    a = a.transpose();
  if (g.transB)
    b = b.transpose();
  poplar::Tensor y =
      lowerMatMul(ctx, a, b, op.outputs[0]->info.shape(), prog, op.name,
                  &op.inTensor(1));
  if (g.alpha != 1.0f)
    y = popops::map(ctx.graph, pe::_1 * pe::Const(g.alpha), {y}, prog, op.name);
  if (op.hasInput(2) && g.beta != 0.0f)
    y = popops::map(ctx.graph, pe::_1 + pe::_2 * pe::Const(g.beta),
                    {y, ctx.get(op.inTensor(2))}, prog, op.name);
  ctx.set(*op.outputs[0], y);
}

} // namespace popart
