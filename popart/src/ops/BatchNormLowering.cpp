// BatchNormOp. In inference: the per-channel multiplicand
// scale / sqrt(var + epsilon) and addend B - mean * multiplicand (two small
// popops maps), then popnn::bn::batchNormalise's inference form. In
// training: the batch's statistics (popnn::bn::batchNormStatistics), the
// normalisation with them, and the running mean and variance moved
// towards them in place: running = momentum * running + (1 - momentum) *
// batch (outside training, new tensors: the inputs keep their values).
#include "lowering/Lowering.hpp"
#include "ops/BatchNormOp.hpp"

#include <popnn/BatchNorm.hpp>
#include <tuple>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {

// popnn sees [N, C, field...]; a [N, C] input gets a field of one.
poplar::Tensor withField(const poplar::Tensor &x) {
  return x.rank() == 2 ? x.expand({2}) : x;
}

void growTrainingBatchNorm(const BatchNormOp &bn, LoweringContext &ctx,
                           poplar::program::Sequence &prog) {
  const Op &op = bn;
  const poplar::Tensor x = ctx.get(op.inTensor(0));
  const poplar::Tensor scale = ctx.get(op.inTensor(1)),
                       bias = ctx.get(op.inTensor(2)),
                       mean = ctx.get(op.inTensor(3)),
                       var = ctx.get(op.inTensor(4));
  const poplar::Tensor x3 = withField(x);
  poplar::Tensor batchMean, invStd;
  std::tie(batchMean, invStd) = popnn::bn::batchNormStatistics(
      ctx.graph, x3, bn.epsilon, prog, /*unbiasedVarEstimate=*/false,
      /*stableAlgo=*/true, poplar::FLOAT, op.name());
  poplar::Tensor y = popnn::bn::batchNormalise(ctx.graph, x3, scale, bias,
                                               batchMean, invStd, prog,
                                               op.name())
                         .first;
  // The batch's variance from its inverse standard deviation; the unbiased
  // form scales var + epsilon by N / (N - 1) (N the elements per channel),
  // as the original does.
  const float n = static_cast<float>(x.numElements() / x.dim(1));
  const float unbias = bn.unbiasedVariance ? n / (n - 1) : 1.0f;
  const poplar::Tensor batchVar = popops::map(
      ctx.graph,
      pe::Cast(pe::Const(unbias) /
                       pe::Square(pe::Cast(pe::_1, poplar::FLOAT)) -
                   pe::Const(bn.epsilon),
               var.elementType()),
      {invStd}, prog, op.name() + "/batchVar");
  const auto moving = pe::Const(bn.momentum) * pe::_1 +
                      pe::Const(1.0f - bn.momentum) * pe::_2;
  // In training the running statistics move in place; in an inference
  // session the moved values are outputs and the inputs keep theirs.
  const bool inPlace = bn.isTraining() && bn.updatesRunningStatistics;
  poplar::Tensor runningMean = mean, runningVar = var;
  if (inPlace) {
    popops::mapInPlace(ctx.graph, moving, {mean, batchMean}, prog,
                       op.name() + "/runningMean");
    popops::mapInPlace(ctx.graph, moving, {var, batchVar}, prog,
                       op.name() + "/runningVar");
  } else if (!bn.isTraining()) {
    runningMean = popops::map(ctx.graph, moving, {mean, batchMean}, prog,
                              op.name() + "/runningMean");
    runningVar = popops::map(ctx.graph, moving, {var, batchVar}, prog,
                             op.name() + "/runningVar");
  }
  ctx.set(op.outputs[0], x.rank() == 2 ? y.squeeze({2}) : y);
  // Running mean and variance (moved), then the batch's (opset 9).
  const std::vector<poplar::Tensor> extra{runningMean, runningVar, batchMean,
                                          batchVar};
  for (std::size_t i = 1; i < op.outputs.size() && i <= extra.size(); ++i)
    if (op.outputs[i])
      ctx.set(op.outputs[i], i <= 2 && inPlace
                                 ? extra[i - 1]
                                 : copyOf(ctx, extra[i - 1], prog, op.name()));
}

} // namespace

void growBatchNorm(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  const auto &bn = static_cast<const BatchNormOp &>(op);
  if (bn.normalisesWithBatchStatistics()) {
    growTrainingBatchNorm(bn, ctx, prog);
    return;
  }
  poplar::Tensor x = ctx.get(op.inTensor(0));
  const poplar::Tensor scale = ctx.get(op.inTensor(1)), bias = ctx.get(op.inTensor(2)),
                       mean = ctx.get(op.inTensor(3)), var = ctx.get(op.inTensor(4));
  const poplar::Tensor multiplicand = popops::map(
      ctx.graph, pe::_1 / pe::Sqrt(pe::_2 + pe::Const(bn.epsilon)),
      {scale, var}, prog, op.name() + "/multiplicand");
  const poplar::Tensor addend =
      popops::map(ctx.graph, pe::_1 - pe::_2 * pe::_3,
                  {bias, mean, multiplicand}, prog, op.name() + "/addend");
  // popnn sees [N, C, field...]; a [N, C] input gets a field of one.
  const bool flat = x.rank() == 2;
  if (flat)
    x = x.expand({2});
  poplar::Tensor y =
      popnn::bn::batchNormalise(ctx.graph, x, multiplicand, addend, prog, op.name());
  if (flat)
    y = y.squeeze({2});
  ctx.set(*op.outputs[0], y);
}


void growBatchNormGrad(const Op &op, LoweringContext &ctx,
                       poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const BatchNormGradOp &>(op);
  const poplar::Tensor g = withField(ctx.get(op.inTensor(0)));
  const poplar::Tensor x = ctx.get(op.inTensor(1));
  const poplar::Tensor x3 = withField(x);
  const poplar::Tensor scale = ctx.get(op.inTensor(2));
  poplar::Tensor mean, invStd;
  std::tie(mean, invStd) = popnn::bn::batchNormStatistics(
      ctx.graph, x3, grad.epsilon, prog, false, true, poplar::FLOAT, op.name());
  const poplar::Tensor whitened =
      popnn::bn::batchNormWhiten(ctx.graph, x3, mean, invStd, prog, op.name());
  poplar::Tensor scaleGrad, biasGrad;
  std::tie(scaleGrad, biasGrad) = popnn::bn::batchNormParamGradients(
      ctx.graph, whitened, g, prog, poplar::FLOAT, op.name());
  poplar::Tensor dx = popnn::bn::batchNormGradients(
      ctx.graph, whitened, g, invStd, scale, prog, poplar::FLOAT, op.name());
  if (x.rank() == 2)
    dx = dx.squeeze({2});
  const std::vector<poplar::Tensor> grads{dx, scaleGrad, biasGrad};
  for (int i = 0; i < 3; ++i)
    if (op.hasOutput(i))
      ctx.set(op.outputs[i],
              castTo(ctx, grads[i], deviceType(op.outputs[i]->info.dataType()),
                     prog, op.name()));
}

} // namespace popart
