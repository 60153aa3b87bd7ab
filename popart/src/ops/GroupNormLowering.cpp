// GroupNormOp and its gradient on popnn::gn, with the original's
// contiguous channel groups (groupNormStridedChannelGrouping false) and
// the statistics algorithm of the session's enableStableNorm.
#include "lowering/Lowering.hpp"
#include "ops/GroupNormOp.hpp"

#include "ir/Graph.hpp"
#include "ir/Ir.hpp"

#include <popnn/GroupNorm.hpp>

namespace popart {
namespace {

const poplar::OptionFlags contiguousGroups{
    {"groupNormStridedChannelGrouping", "false"}};

} // namespace

void growGroupNorm(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  const auto &gn = static_cast<const GroupNormOp &>(op);
  const poplar::Tensor x = ctx.get(op.inTensor(0));
  const bool stable = op.getGraph().getIr().getSessionOptions().enableStableNorm;
  const auto [mean, invStdDev] = popnn::gn::groupNormStatistics(
      ctx.graph, x, gn.epsilon, prog, unsigned(gn.numGroups), false, stable,
      poplar::FLOAT, op.name() + "/statistics", contiguousGroups);
  const poplar::Tensor scale = ctx.get(op.inTensor(1));
  const poplar::Tensor bias = ctx.get(op.inTensor(2));
  const auto y = popnn::gn::groupNormalise(ctx.graph, x, scale, bias, mean,
                                           invStdDev, prog, op.name(),
                                           contiguousGroups);
  ctx.set(*op.outputs[0], y.first);
  if (op.hasOutput(1))
    ctx.set(*op.outputs[1], mean);
  if (op.hasOutput(2))
    ctx.set(*op.outputs[2], invStdDev);
}

void growGroupNormGrad(const Op &op, LoweringContext &ctx,
                       poplar::program::Sequence &prog) {
  const poplar::Tensor yGrad = ctx.get(op.inTensor(0));
  const poplar::Tensor x = ctx.get(op.inTensor(1));
  const poplar::Tensor scale = ctx.get(op.inTensor(2));
  const poplar::Tensor mean = ctx.get(op.inTensor(3));
  const poplar::Tensor invStdDev = ctx.get(op.inTensor(4));
  const poplar::Tensor whitened = popnn::gn::groupNormWhiten(
      ctx.graph, x, mean, invStdDev, prog, op.name() + "/whitened",
      contiguousGroups);
  if (op.hasOutput(0))
    ctx.set(*op.outputs[0],
            popnn::gn::groupNormGradients(ctx.graph, whitened, yGrad, invStdDev,
                                          scale, prog, poplar::FLOAT,
                                          op.name() + "/dx", contiguousGroups));
  const auto [scaleGrad, biasGrad] = popnn::gn::groupNormParamGradients(
      ctx.graph, whitened, yGrad, prog, poplar::FLOAT, op.name() + "/params",
      contiguousGroups);
  if (op.hasOutput(1))
    ctx.set(*op.outputs[1], scaleGrad);
  if (op.hasOutput(2))
    ctx.set(*op.outputs[2], biasGrad);
}

} // namespace popart
