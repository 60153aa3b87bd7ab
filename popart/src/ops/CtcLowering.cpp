// The CTC loss and its gradient on popnn::ctc, and the beam search decoder
// on popnn::ctc_infer. The loss's second output is popnn's gradient of
// each sample's loss with respect to the logits the log probabilities
// came from (exp(log_probs) - the alignments' posterior), as the original
// and PyTorch's ctc_loss give it; the gradient op scales it by the
// gradient of the reduced loss.
#include "lowering/Lowering.hpp"
#include "ops/CtcOp.hpp"

#include <popnn/CTCInference.hpp>
#include <popnn/CTCLoss.hpp>
#include <popnn/CTCPlan.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>

namespace pe = popops::expr;

namespace popart {
namespace {

// The integer inputs as popnn takes them (INT32 values are non-negative).
poplar::Tensor asUnsigned(const poplar::Tensor &t) {
  return t.elementType() == poplar::UNSIGNED_INT
             ? t
             : t.reinterpret(poplar::UNSIGNED_INT);
}

// max(target_lengths, 1) as `type`: Mean divides each loss by it.
poplar::Tensor lengthDivisors(LoweringContext &ctx,
                              const poplar::Tensor &targetLengths,
                              const poplar::Type &type,
                              poplar::program::Sequence &prog,
                              const std::string &name) {
  const poplar::Tensor lengths =
      popops::cast(ctx.graph, asUnsigned(targetLengths), poplar::FLOAT, prog,
                   name + "/lengths");
  poplar::Tensor divisors =
      popops::map(ctx.graph, pe::Max(pe::_1, pe::Const(1.0f)), {lengths}, prog,
                  name + "/divisors");
  if (type != poplar::FLOAT)
    divisors = popops::cast(ctx.graph, divisors, type, prog, name + "/cast");
  return divisors;
}

} // namespace

void growCtc(const Op &op, LoweringContext &ctx,
             poplar::program::Sequence &prog) {
  const auto &ctc = static_cast<const CtcOp &>(op);
  const poplar::Tensor logProbs = ctx.get(op.inTensor(0));
  const poplar::Tensor targets = asUnsigned(ctx.get(op.inTensor(1)));
  const poplar::Tensor inputLengths = asUnsigned(ctx.get(op.inTensor(2)));
  const poplar::Tensor targetLengths = ctx.get(op.inTensor(3));
  const poplar::Type outType = deviceType(op.outInfo(0).dataType());
  const popnn::ctc::Plan plan = popnn::ctc::plan(
      ctx.graph, logProbs.elementType(), outType, logProbs.dim(1),
      logProbs.dim(0), targets.dim(1), logProbs.dim(2));
  const poplar::OptionFlags options{
      {"zeroInfinity", ctc.zeroInfinity ? "true" : "false"}};
  poplar::Tensor loss;
  if (op.hasOutput(1)) {
    auto lossAndGradient = popnn::ctc::calcLossAndGradientLogProbabilities(
        ctx.graph, outType, logProbs, targets, inputLengths,
        asUnsigned(targetLengths), prog, ctc.blank, plan,
        op.name() + "/lossAndGrad", options);
    loss = lossAndGradient.first;
    ctx.set(op.outputs[1], lossAndGradient.second);
  } else {
    loss = popnn::ctc::calcCTCLossLogProbabilities(
        ctx.graph, outType, logProbs, targets, inputLengths,
        asUnsigned(targetLengths), prog, ctc.blank, plan, op.name() + "/loss",
        options);
  }
  if (ctc.reduction == ReductionType::NoReduction) {
    ctx.set(op.outputs[0], loss);
    return;
  }
  float scale = 1.0f;
  if (ctc.reduction == ReductionType::Mean) {
    loss = popops::div(ctx.graph, loss,
                       lengthDivisors(ctx, targetLengths, outType, prog,
                                      op.name()),
                       prog, op.name() + "/divByTargetLength");
    scale = 1.0f / static_cast<float>(loss.dim(0));
  }
  poplar::Tensor scaleTensor =
      ctx.graph.addConstant(poplar::FLOAT, {}, scale, op.name() + "/scale");
  ctx.graph.setTileMapping(scaleTensor, 0);
  ctx.set(op.outputs[0],
          popops::reduce(ctx.graph, loss, {0},
                         {popops::Operation::ADD, false, scaleTensor}, prog,
                         op.name() + "/reduce"));
}

void growCtcGrad(const Op &op, LoweringContext &ctx,
                 poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const CtcGradOp &>(op);
  const poplar::Tensor perSample = ctx.get(op.inTensor(0));
  const poplar::Tensor targetLengths = ctx.get(op.inTensor(1));
  poplar::Tensor lossGrad = ctx.get(op.inTensor(2));
  const std::size_t T = perSample.dim(0), N = perSample.dim(1),
                    C = perSample.dim(2);
  const poplar::Type type = perSample.elementType();
  if (lossGrad.elementType() != type)
    lossGrad = popops::cast(ctx.graph, lossGrad, type, prog, op.name());
  // The gradient of each sample's loss: the reduced loss's gradient,
  // through the reduction.
  if (grad.reduction != ReductionType::NoReduction)
    lossGrad = lossGrad.reshape({1}).broadcast(N, 0);
  if (grad.reduction == ReductionType::Mean)
    lossGrad = popops::map(
        ctx.graph, pe::Divide(pe::_1, pe::_2 * pe::Const(float(N))),
        {lossGrad, lengthDivisors(ctx, targetLengths, type, prog, op.name())},
        prog, op.name() + "/mean");
  const poplar::Tensor scaled = popops::mul(
      ctx.graph, perSample,
      lossGrad.reshape({1, N, 1}).broadcast(T, 0).broadcast(C, 2), prog,
      op.name() + "/chainRule");
  const poplar::Type gradType = deviceType(op.outInfo(0).dataType());
  ctx.set(op.outputs[0],
          scaled.elementType() == gradType
              ? scaled
              : popops::cast(ctx.graph, scaled, gradType, prog,
                             op.name() + "/cast"));
}

void growCtcBeamSearchDecoder(const Op &op, LoweringContext &ctx,
                              poplar::program::Sequence &prog) {
  const auto &dec = static_cast<const CtcBeamSearchDecoderOp &>(op);
  const poplar::Tensor logProbs = ctx.get(op.inTensor(0));
  const poplar::Tensor dataLengths = ctx.get(op.inTensor(1));
  const popnn::ctc::Plan plan = popnn::ctc_infer::plan(
      ctx.graph, logProbs.elementType(), logProbs.dim(1), logProbs.dim(0),
      logProbs.dim(2), dec.beamWidth);
  const auto [probs, lengths, labels] =
      popnn::ctc_infer::beamSearchDecoderLogProbabilities(
          ctx.graph, logProbs, dataLengths, prog, dec.blank, dec.beamWidth,
          dec.topPaths, plan, op.name() + "/ctcBeamSearchDecoder");
  ctx.set(op.outputs[0], probs);
  ctx.set(op.outputs[1], lengths);
  ctx.set(op.outputs[2], labels);
}

} // namespace popart
