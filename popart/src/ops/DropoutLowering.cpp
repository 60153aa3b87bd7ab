// Dropout and its gradient: the mask is drawn with poprand::bernoulli from
// the session's seed and the op's seed modifier, so that the grad op draws
// the same mask as the forward op in the same micro-batch.
#include "lowering/Lowering.hpp"
#include "ops/DropoutOp.hpp"

#include <popart/error.hpp>

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <poprand/RandomGen.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {

poplar::Tensor keepMask(LoweringContext &ctx, const poplar::Tensor &reference,
                        float ratio, uint32_t seedModifier,
                        poplar::program::Sequence &prog,
                        const std::string &name) {
  if (!ctx.hasSeed())
    throw internal_error("{}: the session has no random seed", name);
  return poprand::bernoulli(ctx.graph, &ctx.seed, seedModifier, reference,
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
  const poplar::Tensor mask =
      keepMask(ctx, x, d.ratio, d.seedModifier, prog, op.name());
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
      keepMask(ctx, g, d.ratio, d.seedModifier, prog, op.name());
  ctx.set(op.outputs[0], applyMask(ctx, g, mask, d.ratio, prog, op.name()));
}

} // namespace popart
