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
  const Shape &outShape = op.outputs[0]->info.shape();
  poplar::Tensor y;
  if (g.transB) {
    // A B' as (B A')': B (a Linear layer's weights [out, in]) is then an
    // operand in its own element order, which can be laid out as the
    // product plans it; as B' its planned layout would map element by
    // element.
    y = lowerMatMul(ctx, b, a.transpose(), {outShape[1], outShape[0]}, prog,
                    op.name(), nullptr, op.inTensor(1))
            .transpose();
  } else {
    y = lowerMatMul(ctx, a, b, outShape, prog, op.name(), op.inTensor(1));
  }
  if (g.alpha != 1.0f)
    y = popops::map(ctx.graph, pe::_1 * pe::Const(g.alpha), {y}, prog, op.name());
  if (op.hasInput(2) && g.beta != 0.0f)
    y = popops::map(ctx.graph, pe::_1 + pe::_2 * pe::Const(g.beta),
                    {y, ctx.get(op.inTensor(2))}, prog, op.name());
  ctx.set(*op.outputs[0], y);
}


void growGemmGrad(const Op &op, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  const auto &g = static_cast<const GemmGradOp &>(op);
  const poplar::Tensor grad = ctx.get(op.inTensor(0));
  const Shape &shape = op.outputs[0]->info.shape();
  poplar::Tensor r;
  float factor = g.alpha;
  if (g.arg == 2) {
    r = reduceToShape(ctx, grad, shape, prog, op.name());
    factor = g.beta;
  } else {
    poplar::Tensor a = ctx.get(op.inTensor(1)), b = ctx.get(op.inTensor(2));
    if (g.transA)
      a = a.transpose();
    if (g.transB)
      b = b.transpose();
    if (g.arg == 0) {
      // dA' = G B'^T, transposed back when A was.
      r = lowerMatMul(ctx, grad, b.transpose(), {int64_t(a.dim(0)), int64_t(a.dim(1))}, prog,
                      op.name());
      if (g.transA)
        r = r.transpose();
    } else {
      r = lowerMatMul(ctx, a.transpose(), grad, {int64_t(b.dim(0)), int64_t(b.dim(1))},
                      prog, op.name());
      if (g.transB)
        r = r.transpose();
    }
  }
  if (factor != 1.0f)
    r = popops::map(ctx.graph, pe::_1 * pe::Const(factor), {r}, prog, op.name());
  else if (g.arg == 2)
    r = copyOf(ctx, r, prog, op.name());
  ctx.set(op.outputs[0], r.reshape(dims(shape)));
}

} // namespace popart
