// SplineBasis and SplineWeighting on popops::splineBasis and
// popops::splineWeighting.
#include "lowering/Lowering.hpp"
#include "ops/SplineOps.hpp"

#include <popops/SplineBasis.hpp>
#include <popops/SplineWeighting.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {

void growSplineBasis(const Op &op, LoweringContext &ctx,
                     poplar::program::Sequence &prog) {
  const auto &sb = static_cast<const SplineBasisOp &>(op);
  const poplar::Tensor pseudo = ctx.get(op.inTensor(0));
  const std::vector<std::size_t> shape{
      static_cast<std::size_t>(op.outInfo(0).dim(0)),
      static_cast<std::size_t>(op.outInfo(0).dim(1))};
  const poplar::Tensor basis =
      ctx.addLinearVariable(pseudo.elementType(), shape, op.name() + "/basis");
  const poplar::Tensor weightIndex =
      ctx.addLinearVariable(poplar::INT, shape, op.name() + "/weightIndex");
  popops::splineBasis(ctx.graph, pseudo, ctx.get(op.inTensor(1)),
                      ctx.get(op.inTensor(2)), basis, weightIndex, sb.degree,
                      prog, op.name());
  ctx.set(op.outputs[0], basis);
  if (op.hasOutput(1))
    ctx.set(op.outputs[1], weightIndex);
}

void growSplineWeighting(const Op &op, LoweringContext &ctx,
                         poplar::program::Sequence &prog) {
  ctx.set(op.outputs[0],
          popops::splineWeighting(ctx.graph, ctx.get(op.inTensor(0)),
                                  ctx.get(op.inTensor(1)),
                                  ctx.get(op.inTensor(2)),
                                  ctx.get(op.inTensor(3)), prog, op.name()));
}

} // namespace popart
