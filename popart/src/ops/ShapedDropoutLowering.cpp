// ShapedDropoutOp and its gradient: poprand::shapedDropout with a mask of
// the op's shape, from the session's seed and the op's seed modifier (so
// the grad op draws the forward op's mask).
#include "lowering/Lowering.hpp"
#include "ops/ShapedDropoutOp.hpp"

#include <popart/error.hpp>

#include <poprand/RandomGen.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {
namespace {

poplar::Tensor shapedDropout(LoweringContext &ctx, const poplar::Tensor &x,
                             const Shape &shape, float ratio,
                             uint32_t seedModifier,
                             poplar::program::Sequence &prog,
                             const std::string &name) {
  if (ratio == 0.0f)
    return copyOf(ctx, x, prog, name);
  if (!ctx.hasSeed())
    throw internal_error("{}: the session has no random seed", name);
  // Only the mask's shape matters: a constant gives it.
  poplar::Tensor reference =
      ctx.graph.addConstant(x.elementType(), dims(shape), 0, name + "/shape");
  poputil::mapTensorLinearly(ctx.graph, reference);
  return poprand::shapedDropout(ctx.graph, &ctx.seed, seedModifier, x,
                                reference, 1.0 - ratio, 1.0 / (1.0 - ratio),
                                prog, name);
}

} // namespace

void growShapedDropout(const Op &op, LoweringContext &ctx,
                       poplar::program::Sequence &prog) {
  const auto &d = static_cast<const ShapedDropoutOp &>(op);
  ctx.set(op.outputs[0],
          shapedDropout(ctx, ctx.get(op.inTensor(0)), d.shape,
                        d.isActive() ? d.ratio : 0.0f, d.seedModifier, prog,
                        op.name()));
}

void growShapedDropoutGrad(const Op &op, LoweringContext &ctx,
                           poplar::program::Sequence &prog) {
  const auto &d = static_cast<const ShapedDropoutGradOp &>(op);
  ctx.set(op.outputs[0], shapedDropout(ctx, ctx.get(op.inTensor(0)), d.shape,
                                       d.ratio, d.seedModifier, prog,
                                       op.name()));
}

} // namespace popart
