// Dropout and its gradient: the mask is drawn with poprand::bernoulli from
// the session's seed and the op's seed modifier, so that the grad op draws
// the same mask as the forward op in the same micro-batch. A ratio or
// training_mode read at run time (InferenceSession) is applied on the
// device to a poprand uniform draw instead: an element is kept when its
// draw in [0, 1) is at least the ratio, or when the mode is false.
#include "lowering/Lowering.hpp"
#include "ops/DropoutOp.hpp"
#include "ops/RandomSeedLowering.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <poprand/RandomGen.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {

poplar::Tensor keepMask(LoweringContext &ctx, const poplar::Tensor &reference,
                        float ratio, const DrawSeed &seed,
                        poplar::program::Sequence &prog,
                        const std::string &name) {
  return poprand::bernoulli(ctx.graph, &seed.seed, seed.modifier, reference,
                            reference.elementType(), 1.0 - ratio, prog,
                            name + "/mask");
}

// x * mask / (1 - ratio).
poplar::Tensor applyMask(LoweringContext &ctx, const poplar::Tensor &x,
                         const poplar::Tensor &mask, float ratio,
                         poplar::program::Sequence &prog,
                         const std::string &name) {
  return popops::map(ctx.graph,
                     pe::_1 * pe::_2 *
                         pe::Const(static_cast<float>(1.0 / (1.0 - ratio))),
                     {x, mask}, prog, name);
}

// Dropout whose ratio or mode is a tensor: y = keep ? x * s : 0 with
// keep = !mode || u >= ratio and s = mode ? 1 / (1 - ratio) : 1, the
// scale computed first as ONNX's reference does; the mask is keep.
void growRuntimeDropout(const DropoutOp &d, LoweringContext &ctx,
                        poplar::program::Sequence &prog) {
  const std::string name = d.name();
  const DrawSeed seed = drawSeed(ctx, d.seed, d);
  const poplar::Tensor x = ctx.get(d.inTensor(0));
  const poplar::Tensor ratio =
      d.runtimeRatio
          ? castTo(ctx, ctx.get(d.inTensor(1)), poplar::FLOAT, prog, name)
                .flatten()
          : scalarConstant(ctx, poplar::FLOAT, d.ratio, name + "/ratio")
                .reshape({1});
  poplar::Tensor mode =
      d.mode == DropoutOp::Mode::Runtime
          ? ctx.get(d.inTensor(2)).flatten()
          : scalarConstant(ctx, poplar::BOOL, 1.0, name + "/mode").reshape({1});
  const poplar::Tensor reference =
      ctx.addLinearVariable(poplar::FLOAT, x.shape(), name + "/reference");
  const poplar::Tensor u =
      poprand::uniform(ctx.graph, &seed.seed, seed.modifier, reference,
                       poplar::FLOAT, 0.0, 1.0, prog, name + "/uniform");
  const auto keep = pe::Or(pe::Not(pe::_4), pe::Gte(pe::_2, pe::_3));
  const auto scale =
      pe::Select(pe::Divide(pe::Const(1.0f), pe::Sub(pe::Const(1.0f), pe::_3)),
                 pe::Const(1.0f), pe::_4);
  const auto y = pe::Cast(
      pe::Select(pe::Mul(pe::Cast(pe::_1, poplar::FLOAT), scale),
                 pe::Const(0.0f), keep),
      x.elementType());
  ctx.set(d.outputs[0],
          popops::map(ctx.graph, y, {x, u, ratio, mode}, prog, name));
  if (d.hasOutput(1))
    ctx.set(d.outputs[1], popops::map(ctx.graph, keep, {x, u, ratio, mode},
                                      prog, name + "/mask"));
}

} // namespace

void growDropout(const Op &op, LoweringContext &ctx,
                 poplar::program::Sequence &prog) {
  const auto &d = static_cast<const DropoutOp &>(op);
  const poplar::Tensor x = ctx.get(op.inTensor(0));
  if (!d.isActive()) {
    ctx.set(op.outputs[0], copyOf(ctx, x, prog, op.name()));
    if (op.hasOutput(1)) {
      poplar::Tensor all = ctx.graph.addConstant(
          poplar::BOOL, x.shape(), true, op.name() + "/mask");
      ctx.graph.setTileMapping(all, 0);
      ctx.set(op.outputs[1], all);
    }
    return;
  }
  if (d.readsInputsAtRunTime()) {
    growRuntimeDropout(d, ctx, prog);
    return;
  }
  const poplar::Tensor mask =
      keepMask(ctx, x, d.ratio, drawSeed(ctx, d.seed, op), prog, op.name());
  ctx.set(op.outputs[0], applyMask(ctx, x, mask, d.ratio, prog, op.name()));
  if (op.hasOutput(1))
    ctx.set(op.outputs[1],
            popops::cast(ctx.graph, mask, poplar::BOOL, prog, op.name()));
}

void growDropoutGrad(const Op &op, LoweringContext &ctx,
                     poplar::program::Sequence &prog) {
  const auto &d = static_cast<const DropoutGradOp &>(op);
  const poplar::Tensor g = ctx.get(op.inTensor(0));
  if (d.ratio == 0.0f) {
    ctx.set(op.outputs[0], copyOf(ctx, g, prog, op.name()));
    return;
  }
  const poplar::Tensor mask =
      keepMask(ctx, g, d.ratio, drawSeed(ctx, d.seed, op), prog, op.name());
  ctx.set(op.outputs[0], applyMask(ctx, g, mask, d.ratio, prog, op.name()));
}

} // namespace popart
