// The weight-update ops, each as one popops::mapInPlace (or a few) over
// the weight and its state, with the scalars broadcast.
#include "lowering/Lowering.hpp"
#include "ops/OptimizerOps.hpp"

#include <popart/error.hpp>

#include <gcl/Collectives.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {

poplar::Tensor scalarConst(LoweringContext &ctx, const poplar::Type &type,
                           double value, const std::string &name) {
  poplar::Tensor c = ctx.graph.addConstant(type, {}, value, name);
  ctx.graph.setTileMapping(c, 0);
  return c;
}

// The scalar input i as `type` (1 if absent).
poplar::Tensor scalarIn(const Op &op, LoweringContext &ctx, InIndex i,
                        const poplar::Type &type,
                        poplar::program::Sequence &prog) {
  if (!op.hasInput(i))
    return scalarConst(ctx, type, 1.0, op.name() + "/one");
  return castTo(ctx, ctx.get(op.inTensor(i)).reshape({}), type, prog,
                op.name());
}

} // namespace

void growScaledUpdate(const Op &op, LoweringContext &ctx,
                      poplar::program::Sequence &prog) {
  poplar::Tensor t = ctx.get(op.inTensor(0));
  poplar::Tensor u = castTo(ctx, ctx.get(op.inTensor(1)), t.elementType(), prog,
                            op.name());
  const bool hasA = op.hasInput(2);
  const auto type = t.elementType();
  std::vector<poplar::Tensor> args{t, u};
  if (hasA) {
    args.push_back(scalarIn(op, ctx, 2, type, prog));
    args.push_back(scalarIn(op, ctx, 3, type, prog));
    popops::mapInPlace(ctx.graph, pe::_3 * pe::_1 + pe::_4 * pe::_2, args, prog,
                       op.name());
  } else {
    args.push_back(scalarIn(op, ctx, 3, type, prog));
    popops::mapInPlace(ctx.graph, pe::_1 + pe::_3 * pe::_2, args, prog,
                       op.name());
  }
  ctx.set(op.outputs[0], t);
}

void growAccumulatorZero(const Op &op, LoweringContext &ctx,
                         poplar::program::Sequence &prog) {
  poplar::Tensor t = ctx.get(op.inTensor(0));
  popops::zero(ctx.graph, t, prog, op.name());
  ctx.set(op.outputs[0], t);
}

void growHostReduce(const Op &op, LoweringContext &ctx,
                    poplar::program::Sequence &prog) {
  const Tensor &grad = *op.inTensor(0);
  const poplar::Tensor g = ctx.get(grad);
  const auto n = static_cast<std::size_t>(grad.info.nelms());
  prog.add(poplar::program::Copy(
      g, ctx.graph.addDeviceToHostFIFO(
             HostReduceOp::gradientStoreStreamId(grad.id), g.elementType(), n)));
  poplar::Tensor reduced = ctx.graph.clone(g, op.name() + "/reduced");
  prog.add(poplar::program::Copy(
      ctx.graph.addHostToDeviceFIFO(HostReduceOp::gradientLoadStreamId(grad.id),
                                    g.elementType(), n),
      reduced));
  ctx.hostReduceGradients[grad.id] = grad.info.nelms();
  ctx.set(op.outputs[0], reduced);
}

void growAdamUpdate(const Op &op, LoweringContext &ctx,
                    poplar::program::Sequence &prog) {
  const auto &adam = static_cast<const AdamUpdateOp &>(op);
  poplar::Tensor w = ctx.get(op.inTensor(0));
  const poplar::Type f = poplar::FLOAT;
  poplar::Tensor m = ctx.get(op.inTensor(2));
  poplar::Tensor v = ctx.get(op.inTensor(3));
  poplar::Tensor step = ctx.get(op.inTensor(4));
  auto sc = [&](InIndex i) { return scalarIn(op, ctx, i, f, prog); };
  poplar::Tensor lr = sc(5), wd = sc(6), b1 = sc(7), b2 = sc(8), eps = sc(9),
                 gradScale = sc(10), mwn = sc(11), ls = sc(12);
  const bool l2 = adam.decayMode == WeightDecayMode::L2Regularization;
  const bool ada = adam.mode == AdamMode::AdaMax;
  const bool lamb = adam.mode == AdamMode::Lamb || adam.mode == AdamMode::LambNoBias;
  const bool bias = adam.mode == AdamMode::Adam || adam.mode == AdamMode::Lamb ||
                    ada;

  // s: the unscaled gradient, plus wd * w for L2 regularisation.
  poplar::Tensor g = castTo(ctx, ctx.get(op.inTensor(1)), f, prog, op.name());
  poplar::Tensor wf = castTo(ctx, w, f, prog, op.name());
  poplar::Tensor s =
      l2 ? popops::map(ctx.graph, pe::_1 * pe::_3 + pe::_4 * pe::_2,
                       {g, wf, gradScale, wd}, prog, op.name() + "/s")
         : popops::map(ctx.graph, pe::_1 * pe::_2, {g, gradScale}, prog,
                       op.name() + "/s");
  popops::mapInPlace(ctx.graph, pe::_1 + pe::Const(1.0f), {step}, prog,
                     op.name() + "/step");

  // The moments (m kept loss-scaled times larger for scaled state).
  const poplar::Type mt = m.elementType(), vt = v.elementType();
  poplar::Tensor mScale =
      adam.scaledState ? ls : scalarConst(ctx, f, 1.0, op.name() + "/one");
  popops::mapInPlace(
      ctx.graph,
      pe::Cast(pe::Cast(pe::_1, f) * pe::_3 +
                   (pe::Const(1.0f) - pe::_3) * pe::_2 * pe::_4,
               mt),
      {m, s, b1, mScale}, prog, op.name() + "/accl1");
  if (ada)
    popops::mapInPlace(ctx.graph,
                       pe::Cast(pe::Max(pe::Cast(pe::_1, f) * pe::_3,
                                        pe::Abs(pe::_2)),
                                vt),
                       {v, s, b2}, prog, op.name() + "/accl2");
  else
    popops::mapInPlace(ctx.graph,
                       pe::Cast(pe::Cast(pe::_1, f) * pe::_3 +
                                    (pe::Const(1.0f) - pe::_3) * pe::_2 * pe::_2,
                                vt),
                       {v, s, b2}, prog, op.name() + "/accl2");

  // The updater x.
  // _1 m, _2 v, _3 b1, _4 b2, _5 step, _6 eps, _7 mScale, _8 w, _9 wd
  pe::Any mc = pe::Cast(pe::_1, f) / pe::_7;
  if (bias)
    mc = pe::Divide(mc, pe::Const(1.0f) - pe::Pow(pe::_3, pe::_5));
  pe::Any vc = pe::Cast(pe::_2, f);
  if (!ada && bias)
    vc = pe::Divide(vc, pe::Const(1.0f) - pe::Pow(pe::_4, pe::_5));
  if (!ada)
    vc = pe::Sqrt(vc);
  pe::Any x = pe::Divide(mc, pe::Add(vc, pe::_6));
  if (!l2)
    x = pe::Add(x, pe::_9 * pe::_8);
  poplar::Tensor xT = popops::map(ctx.graph, x,
                                  {m, v, b1, b2, step, eps, mScale, wf, wd},
                                  prog, op.name() + "/updater");
  if (lamb) {
    // The trust ratio min(|w|, mwn) / |x|, 1 when either norm is 0.
    auto norm = [&](const poplar::Tensor &t, const std::string &n) {
      poplar::Tensor sq = popops::map(ctx.graph, pe::Square(pe::_1), {t}, prog,
                                      op.name() + n);
      return popops::reduce(ctx.graph, sq.flatten(), f, {0},
                            popops::Operation::ADD, prog, op.name() + n);
    };
    poplar::Tensor r1 = norm(wf, "/r1"), r2 = norm(xT, "/r2");
    if (adam.sharded) {
      // Each replica holds a part: the whole tensor's sums of squares are
      // the parts' together (the zero padding adds nothing).
      r1 = gcl::allReduceCrossReplica(ctx.graph, r1, gcl::CollectiveOperator::ADD,
                                      prog, op.name() + "/r1", ctx.gclOptions);
      r2 = gcl::allReduceCrossReplica(ctx.graph, r2, gcl::CollectiveOperator::ADD,
                                      prog, op.name() + "/r2", ctx.gclOptions);
    }
    poplar::Tensor ratio = popops::map(
        ctx.graph,
        pe::Select(pe::Min(pe::Sqrt(pe::_1), pe::_3) / pe::Sqrt(pe::_2),
                   pe::Const(1.0f),
                   pe::And(pe::Gt(pe::_1, pe::Const(0.0f)),
                           pe::Gt(pe::_2, pe::Const(0.0f)))),
        {r1, r2, mwn}, prog, op.name() + "/trustRatio");
    popops::mapInPlace(ctx.graph,
                       pe::Cast(pe::Cast(pe::_1, f) - pe::_3 * pe::_4 * pe::_2, w.elementType()),
                       {w, xT, lr, ratio}, prog, op.name());
  } else {
    popops::mapInPlace(ctx.graph,
                       pe::Cast(pe::Cast(pe::_1, f) - pe::_3 * pe::_2, w.elementType()),
                       {w, xT, lr}, prog, op.name());
  }
  ctx.set(op.outputs[0], w);
}

void growAdaptiveUpdate(const Op &op, LoweringContext &ctx,
                        poplar::program::Sequence &prog) {
  const auto &ad = static_cast<const AdaptiveUpdateOp &>(op);
  const poplar::Type f = poplar::FLOAT;
  poplar::Tensor w = ctx.get(op.inTensor(0));
  auto sc = [&](InIndex i) { return scalarIn(op, ctx, i, f, prog); };
  poplar::Tensor lr = sc(5), wd = sc(6), a = sc(7), mm = sc(8), eps = sc(9),
                 gradScale = sc(10);
  const bool l2 = ad.decayMode == WeightDecayMode::L2Regularization;
  poplar::Tensor g = castTo(ctx, ctx.get(op.inTensor(1)), f, prog, op.name());
  poplar::Tensor wf = castTo(ctx, w, f, prog, op.name());
  poplar::Tensor s =
      l2 ? popops::map(ctx.graph, pe::_1 * pe::_3 + pe::_4 * pe::_2,
                       {g, wf, gradScale, wd}, prog, op.name() + "/s")
         : popops::map(ctx.graph, pe::_1 * pe::_2, {g, gradScale}, prog,
                       op.name() + "/s");

  poplar::Tensor v1 = ctx.get(op.inTensor(2));
  const auto t1 = v1.elementType();
  if (ad.mode == AdaptiveMode::AdaGrad)
    popops::mapInPlace(ctx.graph,
                       pe::Cast(pe::Cast(pe::_1, f) + pe::_2 * pe::_2, t1),
                       {v1, s}, prog, op.name() + "/accl1");
  else
    popops::mapInPlace(ctx.graph,
                       pe::Cast(pe::Cast(pe::_1, f) * pe::_3 +
                                    (pe::Const(1.0f) - pe::_3) * pe::_2 * pe::_2,
                                t1),
                       {v1, s, a}, prog, op.name() + "/accl1");

  poplar::Tensor x;
  const bool tf = ad.tfVariant;
  switch (ad.mode) {
  case AdaptiveMode::AdaGrad:
  case AdaptiveMode::RMSProp:
    x = tf ? popops::map(ctx.graph,
                         pe::_2 / pe::Sqrt(pe::Cast(pe::_1, f) + pe::_3),
                         {v1, s, eps}, prog, op.name() + "/updater")
           : popops::map(ctx.graph,
                         pe::_2 / (pe::Sqrt(pe::Cast(pe::_1, f)) + pe::_3),
                         {v1, s, eps}, prog, op.name() + "/updater");
    break;
  case AdaptiveMode::CenteredRMSProp: {
    poplar::Tensor v2 = ctx.get(op.inTensor(3));
    popops::mapInPlace(
        ctx.graph,
        pe::Cast(pe::Cast(pe::_1, f) * pe::_3 + (pe::Const(1.0f) - pe::_3) * pe::_2,
                 v2.elementType()),
        {v2, s, a}, prog, op.name() + "/accl2");
    const auto var = pe::Cast(pe::_1, f) - pe::Square(pe::Cast(pe::_4, f));
    x = tf ? popops::map(ctx.graph, pe::_2 / pe::Sqrt(var + pe::_3),
                         {v1, s, eps, v2}, prog, op.name() + "/updater")
           : popops::map(ctx.graph, pe::_2 / (pe::Sqrt(var) + pe::_3),
                         {v1, s, eps, v2}, prog, op.name() + "/updater");
    break;
  }
  case AdaptiveMode::AdaDelta: {
    poplar::Tensor v2 = ctx.get(op.inTensor(3));
    x = popops::map(ctx.graph,
                    pe::_2 * pe::Sqrt(pe::Cast(pe::_4, f) + pe::_3) /
                        pe::Sqrt(pe::Cast(pe::_1, f) + pe::_3),
                    {v1, s, eps, v2}, prog, op.name() + "/updater");
    popops::mapInPlace(
        ctx.graph,
        pe::Cast(pe::Cast(pe::_1, f) * pe::_3 +
                     (pe::Const(1.0f) - pe::_3) * pe::_2 * pe::_2,
                 v2.elementType()),
        {v2, x, a}, prog, op.name() + "/accl2");
    break;
  }
  }

  // The momentum (with the learning rate in it for the TF variant).
  poplar::Tensor step = x;
  bool lrInStep = false;
  if (op.hasInput(4)) {
    poplar::Tensor v3 = ctx.get(op.inTensor(4));
    if (tf) {
      popops::mapInPlace(ctx.graph,
                         pe::Cast(pe::Cast(pe::_1, f) * pe::_3 + pe::_4 * pe::_2,
                                  v3.elementType()),
                         {v3, x, mm, lr}, prog, op.name() + "/accl3");
      lrInStep = true;
    } else {
      popops::mapInPlace(ctx.graph,
                         pe::Cast(pe::Cast(pe::_1, f) * pe::_3 + pe::_2,
                                  v3.elementType()),
                         {v3, x, mm}, prog, op.name() + "/accl3");
    }
    step = castTo(ctx, v3, f, prog, op.name());
  }
  // w -= lr (step + wd w) (decoupled decay), or w -= lr step; with the
  // learning rate already in the step, w -= step + lr wd w.
  pe::Any decay = pe::Const(0.0f);
  if (!l2)
    decay = pe::_4 * pe::_5;
  if (lrInStep)
    popops::mapInPlace(ctx.graph,
                       pe::Cast(pe::Cast(pe::_1, f) - pe::_2 -
                                    pe::_3 * decay,
                                w.elementType()),
                       {w, step, lr, wd, wf}, prog, op.name());
  else
    popops::mapInPlace(ctx.graph,
                       pe::Cast(pe::Cast(pe::_1, f) - pe::_3 * (pe::_2 + decay),
                                w.elementType()),
                       {w, step, lr, wd, wf}, prog, op.name());
  ctx.set(op.outputs[0], w);
}

} // namespace popart
