// InstanceNormOp: popnn::in::instanceNormStatistics (biased variance, the
// stable algorithm) and instanceNormalise.
#include "lowering/Lowering.hpp"
#include "ops/InstanceNormOp.hpp"

#include <popnn/InstanceNorm.hpp>

namespace popart {

void growInstanceNorm(const Op &op, LoweringContext &ctx,
                      poplar::program::Sequence &prog) {
  const auto &norm = static_cast<const InstanceNormOp &>(op);
  const poplar::Tensor x = ctx.get(op.inTensor(0));
  auto [mean, invStdDev] = popnn::in::instanceNormStatistics(
      ctx.graph, x, norm.epsilon, prog, /*unbiasedVarEstimate=*/false,
      /*stableAlgo=*/true, poplar::FLOAT, op.name());
  poplar::Tensor y =
      popnn::in::instanceNormalise(ctx.graph, x, ctx.get(op.inTensor(1)),
                                   ctx.get(op.inTensor(2)), mean, invStdDev,
                                   prog, op.name())
          .first;
  ctx.set(*op.outputs[0], y);
}

} // namespace popart
