// PreviewOptimizerOp: the update of each tensor as popops expressions of
// it, its gradient and states, and the scalar rate (R and T, broadcast).
#include "lowering/Lowering.hpp"
#include "ops/PreviewTrainingOps.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {

// The gradient with the norm term: norm_coefficient * X + G.
pe::Any regularised(float normCoefficient, const pe::Any &x, const pe::Any &g) {
  return pe::Add(pe::Mul(pe::Const(normCoefficient), x), g);
}

} // namespace

void growPreviewOptimizer(const Op &op, LoweringContext &ctx,
                          poplar::program::Sequence &prog) {
  const auto &o = static_cast<const PreviewOptimizerOp &>(op);
  const std::string &name = op.name();
  const poplar::Tensor r = ctx.get(op.inTensor(0)).reshape({});
  const poplar::Tensor t =
      castTo(ctx, ctx.get(op.inTensor(1)), poplar::FLOAT, prog, name)
          .reshape({});
  const pe::Any firstStep = pe::Equal(pe::_2, pe::Const(0.0f));
  // The rate every tensor is updated with.
  poplar::Tensor rate;
  if (o.opid.type == "Adagrad")
    rate = popops::map(ctx.graph,
                       pe::Divide(pe::_1, pe::Add(pe::Const(1.0f),
                                                  pe::Mul(pe::_2,
                                                          pe::Const(o.decayFactor)))),
                       {r, t}, prog, name + "/rate");
  else if (o.opid.type == "Adam")
    // Bias-corrected after the first step.
    rate = popops::map(
        ctx.graph,
        pe::Select(pe::_1,
                   pe::Mul(pe::_1,
                           pe::Divide(pe::Sqrt(pe::Sub(
                                          pe::Const(1.0f),
                                          pe::Pow(pe::Const(o.beta), pe::_2))),
                                      pe::Sub(pe::Const(1.0f),
                                              pe::Pow(pe::Const(o.alpha),
                                                      pe::_2)))),
                   firstStep),
        {r, t}, prog, name + "/rate");
  else
    rate = r;
  // Momentum's gradient scale: 1 at the first step, then beta.
  const poplar::Tensor betaNow =
      popops::map(ctx.graph,
                  pe::Select(pe::Const(1.0f), pe::Const(o.beta),
                             pe::Equal(pe::_1, pe::Const(0.0f))),
                  {t}, prog, name + "/beta");
  const int n = o.tensors();
  for (int i = 0; i < n; ++i) {
    const poplar::Tensor x = ctx.get(op.inTensor(2 + i));
    const poplar::Tensor g = ctx.get(op.inTensor(2 + n + i));
    const poplar::Tensor s1 = ctx.get(op.inTensor(2 + 2 * n + i));
    const auto shape = x.shape();
    const poplar::Tensor rateB = broadcastScalar(rate, shape);
    const pe::Any greg = regularised(o.normCoefficient, pe::_1, pe::_2);
    if (o.opid.type == "Adagrad") {
      // H_new = H + G'^2; X_new = X - rate * G' / (sqrt(H_new) + epsilon).
      const poplar::Tensor h = popops::map(
          ctx.graph, pe::Add(pe::_3, pe::Mul(greg, greg)), {x, g, s1}, prog,
          name + "/H");
      ctx.set(op.outputs[i],
              popops::map(ctx.graph,
                          pe::Sub(pe::_1,
                                  pe::Divide(pe::Mul(pe::_4, greg),
                                             pe::Add(pe::Sqrt(pe::_3),
                                                     pe::Const(o.epsilon)))),
                          {x, g, h, rateB}, prog, name + "/X"));
      ctx.set(op.outputs[n + i], h);
    } else if (o.opid.type == "Momentum") {
      // V_new = alpha V + beta' G'; X_new = X - R V_new, or with Nesterov
      // X - R (G' + alpha V_new).
      const poplar::Tensor v = popops::map(
          ctx.graph,
          pe::Add(pe::Mul(pe::Const(o.alpha), pe::_3), pe::Mul(pe::_4, greg)),
          {x, g, s1, broadcastScalar(betaNow, shape)}, prog, name + "/V");
      const pe::Any step =
          o.mode == "nesterov"
              ? pe::Any(pe::Add(greg, pe::Mul(pe::Const(o.alpha), pe::_3)))
              : pe::Any(pe::_3);
      ctx.set(op.outputs[i],
              popops::map(ctx.graph, pe::Sub(pe::_1, pe::Mul(pe::_4, step)),
                          {x, g, v, rateB}, prog, name + "/X"));
      ctx.set(op.outputs[n + i], v);
    } else {
      // V_new = alpha V + (1 - alpha) G'; H_new = beta H + (1 - beta) G'^2;
      // X_new = (1 - post) (X - rate V_new / (sqrt(H_new) + epsilon)).
      const poplar::Tensor s2 = ctx.get(op.inTensor(2 + 3 * n + i));
      const poplar::Tensor v = popops::map(
          ctx.graph,
          pe::Add(pe::Mul(pe::Const(o.alpha), pe::_3),
                  pe::Mul(pe::Const(1.0f - o.alpha), greg)),
          {x, g, s1}, prog, name + "/V");
      const poplar::Tensor h = popops::map(
          ctx.graph,
          pe::Add(pe::Mul(pe::Const(o.beta), pe::_3),
                  pe::Mul(pe::Const(1.0f - o.beta), pe::Mul(greg, greg))),
          {x, g, s2}, prog, name + "/H");
      ctx.set(op.outputs[i],
              popops::map(
                  ctx.graph,
                  pe::Mul(pe::Const(1.0f - o.normCoefficientPost),
                          pe::Sub(pe::_1,
                                  pe::Divide(pe::Mul(pe::_4, pe::_2),
                                             pe::Add(pe::Sqrt(pe::_3),
                                                     pe::Const(o.epsilon))))),
                  {x, v, h, rateB}, prog, name + "/X"));
      ctx.set(op.outputs[n + i], v);
      ctx.set(op.outputs[2 * n + i], h);
    }
  }
}

} // namespace popart
