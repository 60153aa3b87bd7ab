// The losses and their gradients: Nll picks the probability of each
// label through a one-hot encoding of the labels (rows whose label is the
// ignore index count for nothing, and a mean is over the other rows), L1
// and IdentityLoss are element-wise before the reduction.
#include "lowering/Lowering.hpp"
#include "ops/LossOps.hpp"

#include <popart/error.hpp>

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Encoding.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {

struct NllOperands {
  poplar::Tensor probs;  // [rows, classes]
  poplar::Tensor labels; // [rows] INT
  poplar::Tensor oneHot; // [rows, classes] of probs' type
  poplar::Tensor keep;   // [rows] of probs' type: 0 for ignored rows
};

NllOperands nllOperands(LoweringContext &ctx, const Op &op, bool hasIgnoreIndex,
                        int64_t ignoreIndex, poplar::program::Sequence &prog) {
  NllOperands r;
  const poplar::Tensor probs = ctx.get(op.inTensor(0));
  const std::size_t classes = probs.dim(probs.rank() - 1);
  r.probs = probs.reshape({probs.numElements() / classes, classes});
  r.labels = castTo(ctx, ctx.get(op.inTensor(1)).flatten(), poplar::INT, prog,
                    op.name() + "/labels");
  r.oneHot = ctx.graph.addVariable(probs.elementType(), r.probs.shape(),
                                   op.name() + "/oneHot");
  ctx.graph.setTileMapping(r.oneHot, ctx.graph.getTileMapping(r.probs));
  popops::encodeOneHot(ctx.graph, r.labels, r.oneHot, prog, op.name());
  if (hasIgnoreIndex)
    r.keep = popops::map(
        ctx.graph,
        pe::Cast(pe::NotEqual(pe::_1, pe::Const(static_cast<int>(ignoreIndex))),
                 probs.elementType()),
        {r.labels}, prog, op.name() + "/keep");
  return r;
}

// The divisor of a mean over rows: the rows not ignored (at least one).
poplar::Tensor meanDivisor(LoweringContext &ctx, const NllOperands &r,
                           poplar::program::Sequence &prog,
                           const std::string &name) {
  poplar::Tensor kept = popops::reduce(ctx.graph, r.keep, r.keep.elementType(),
                                       {0}, popops::Operation::ADD, prog, name);
  return popops::map(ctx.graph, pe::Max(pe::_1, pe::Const(1.0f)), {kept}, prog,
                     name);
}

// Sum or mean of `perElement` (a loss per element), or the elements as they
// are, in the output's shape.
poplar::Tensor reduceLoss(LoweringContext &ctx, const poplar::Tensor &perElement,
                          ReductionType reduction, const Shape &outShape,
                          poplar::program::Sequence &prog,
                          const std::string &name) {
  if (reduction == ReductionType::NoReduction)
    return perElement.reshape(std::vector<std::size_t>(outShape.begin(),
                                                       outShape.end()));
  poplar::Tensor flat = perElement.flatten();
  poplar::Tensor sum = popops::reduce(ctx.graph, flat, flat.elementType(), {0},
                                      popops::Operation::ADD, prog, name);
  if (reduction == ReductionType::Mean)
    sum = popops::map(ctx.graph,
                      pe::_1 / pe::Const(static_cast<float>(flat.numElements())),
                      {sum}, prog, name);
  return sum;
}

} // namespace

namespace {

// Probabilities are taken as at least a small epsilon, so that one that
// underflowed to 0 gives a large loss and gradient rather than inf and
// NaN weights (in HALF, the smallest normal number), as the original does.
float nllEpsilon(const poplar::Type &type, float floatEpsilon) {
  return type == poplar::HALF ? 6.104e-5f : floatEpsilon;
}

struct NllSettings {
  ReductionType reduction;
  bool hasIgnoreIndex;
  int64_t ignoreIndex;
  bool inputIsLogProbability;
};

// The loss in the output's shape: -log of each row's picked probability (or
// minus the picked log probability), reduced.
poplar::Tensor nllLoss(LoweringContext &ctx, const NllOperands &r,
                       const NllSettings &nll, const Shape &outShape,
                       poplar::program::Sequence &prog, const std::string &name) {
  poplar::Tensor picked = popops::reduce(
      ctx.graph, popops::mul(ctx.graph, r.probs, r.oneHot, prog, name),
      r.probs.elementType(), {1}, popops::Operation::ADD, prog, name);
  poplar::Tensor loss =
      nll.inputIsLogProbability
          ? popops::map(ctx.graph, -pe::_1, {picked}, prog, name)
          : popops::map(ctx.graph,
                        -pe::Log(pe::Max(pe::_1,
                                         pe::Const(nllEpsilon(
                                             picked.elementType(), 1e-7f)))),
                        {picked}, prog, name);
  if (nll.hasIgnoreIndex) {
    // An ignored row may pick nothing (log 0): select rather than multiply.
    loss = popops::map(ctx.graph,
                       pe::Select(pe::_1, pe::Const(0.0f),
                                  pe::NotEqual(pe::_2, pe::Const(0.0f))),
                       {loss, r.keep}, prog, name);
    if (nll.reduction == ReductionType::Mean) {
      poplar::Tensor sum = popops::reduce(ctx.graph, loss, loss.elementType(),
                                          {0}, popops::Operation::ADD, prog,
                                          name);
      return popops::div(ctx.graph, sum, meanDivisor(ctx, r, prog, name), prog,
                         name);
    }
  }
  return reduceLoss(ctx, loss, nll.reduction, outShape, prog, name);
}

// The gradient of the loss with respect to each row's picked value, from
// the loss's gradient `g`, broadcast over the classes: [rows, classes].
poplar::Tensor nllRowGradients(LoweringContext &ctx, const NllOperands &r,
                               const NllSettings &nll, const poplar::Tensor &g,
                               poplar::program::Sequence &prog,
                               const std::string &name) {
  const std::size_t rows = r.probs.dim(0);
  poplar::Tensor rowGrad; // [rows]
  if (nll.reduction == ReductionType::NoReduction) {
    rowGrad = g.flatten();
  } else {
    poplar::Tensor scale = g.reshape({});
    if (nll.reduction == ReductionType::Mean)
      scale = nll.hasIgnoreIndex
                  ? popops::div(ctx.graph, scale,
                                meanDivisor(ctx, r, prog, name).reshape({}),
                                prog, name)
                  : popops::map(ctx.graph,
                                pe::_1 / pe::Const(static_cast<float>(rows)),
                                {scale}, prog, name);
    rowGrad = scale.reshape({1}).broadcast(static_cast<unsigned>(rows), 0);
  }
  if (nll.hasIgnoreIndex)
    rowGrad = popops::mul(ctx.graph, rowGrad, r.keep, prog, name);
  return rowGrad.reshape({rows, 1}).broadcast(
      static_cast<unsigned>(r.probs.dim(1)), 1);
}

// (p - onehot) times the row gradients: the gradient of the input of the
// Softmax that made p.
poplar::Tensor softmaxDirectGradient(LoweringContext &ctx, const NllOperands &r,
                                     const NllSettings &nll,
                                     const poplar::Tensor &g, const Shape &shape,
                                     poplar::program::Sequence &prog,
                                     const std::string &name) {
  poplar::Tensor out = popops::map(
      ctx.graph, (pe::_1 - pe::_2) * pe::_3,
      {r.probs, r.oneHot, nllRowGradients(ctx, r, nll, g, prog, name)}, prog,
      name);
  return out.reshape(std::vector<std::size_t>(shape.begin(), shape.end()));
}

} // namespace

void growNll(const Op &op, LoweringContext &ctx, poplar::program::Sequence &prog) {
  const auto &nll = static_cast<const NllOp &>(op);
  const NllSettings settings{nll.reduction, nll.hasIgnoreIndex, nll.ignoreIndex,
                             nll.inputIsLogProbability};
  NllOperands r = nllOperands(ctx, op, nll.hasIgnoreIndex, nll.ignoreIndex, prog);
  ctx.set(op.outputs[0], nllLoss(ctx, r, settings, op.outputs[0]->info.shape(),
                                 prog, op.name()));
}

void growNllGrad(const Op &op, LoweringContext &ctx,
                 poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const NllGradOp &>(op);
  const NllSettings settings{grad.reduction, grad.hasIgnoreIndex,
                             grad.ignoreIndex, grad.inputIsLogProbability};
  NllOperands r =
      nllOperands(ctx, op, grad.hasIgnoreIndex, grad.ignoreIndex, prog);
  // d loss_row / d probs[row][label] = -1 / p (or -1 for log probabilities).
  poplar::Tensor rowGrad2 =
      nllRowGradients(ctx, r, settings, ctx.get(op.inTensor(2)), prog, op.name());
  poplar::Tensor out =
      grad.inputIsLogProbability
          ? popops::map(ctx.graph, -(pe::_1 * pe::_2), {rowGrad2, r.oneHot}, prog,
                        op.name())
          : popops::map(ctx.graph,
                        pe::Select(-(pe::_1 / pe::Max(pe::_3, pe::Const(nllEpsilon(
                                                             r.probs.elementType(),
                                                             1e-10f)))),
                                   pe::Const(0.0f),
                                   pe::NotEqual(pe::_2, pe::Const(0.0f))),
                        {rowGrad2, r.oneHot, r.probs}, prog, op.name());
  const auto &shape = op.outputs[0]->info.shape();
  ctx.set(op.outputs[0],
          out.reshape(std::vector<std::size_t>(shape.begin(), shape.end())));
}

void growSoftmaxGradDirect(const Op &op, LoweringContext &ctx,
                           poplar::program::Sequence &prog) {
  const auto &d = static_cast<const SoftmaxGradDirectOp &>(op);
  const NllSettings settings{d.reduction, d.hasIgnoreIndex, d.ignoreIndex,
                             false};
  NllOperands r = nllOperands(ctx, op, d.hasIgnoreIndex, d.ignoreIndex, prog);
  ctx.set(op.outputs[0],
          softmaxDirectGradient(ctx, r, settings, ctx.get(op.inTensor(2)),
                                op.outputs[0]->info.shape(), prog, op.name()));
}

void growNlllWithSoftmaxGradDirect(const Op &op, LoweringContext &ctx,
                                   poplar::program::Sequence &prog) {
  const auto &d = static_cast<const NlllWithSoftmaxGradDirectOp &>(op);
  const NllSettings settings{d.reduction, d.hasIgnoreIndex, d.ignoreIndex,
                             false};
  NllOperands r = nllOperands(ctx, op, d.hasIgnoreIndex, d.ignoreIndex, prog);
  ctx.set(op.outputs[0], nllLoss(ctx, r, settings, op.outputs[0]->info.shape(),
                                 prog, op.name()));
  ctx.set(op.outputs[1],
          softmaxDirectGradient(ctx, r, settings, ctx.get(op.inTensor(2)),
                                op.outputs[1]->info.shape(), prog, op.name()));
}

void growL1(const Op &op, LoweringContext &ctx, poplar::program::Sequence &prog) {
  const auto &l1 = static_cast<const L1Op &>(op);
  poplar::Tensor x = ctx.get(op.inTensor(0));
  poplar::Tensor scaled = popops::map(
      ctx.graph, pe::Const(l1.lambda) * pe::Abs(pe::_1), {x}, prog, op.name());
  ctx.set(op.outputs[0], reduceLoss(ctx, scaled, l1.reduction,
                                    op.outputs[0]->info.shape(), prog,
                                    op.name()));
}

void growL1Grad(const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const L1GradOp &>(op);
  poplar::Tensor x = ctx.get(op.inTensor(0));
  poplar::Tensor g = ctx.get(op.inTensor(1));
  if (grad.reduction != ReductionType::NoReduction) {
    if (grad.reduction == ReductionType::Mean)
      g = popops::map(ctx.graph,
                      pe::_1 / pe::Const(static_cast<float>(x.numElements())),
                      {g}, prog, op.name());
    g = broadcastScalar(g, x.shape());
  }
  ctx.set(op.outputs[0],
          popops::map(ctx.graph, pe::Const(grad.lambda) * pe::Signum(pe::_1) * pe::_2,
                      {x, g}, prog, op.name()));
}

void growIdentityLoss(const Op &op, LoweringContext &ctx,
                      poplar::program::Sequence &prog) {
  const auto &loss = static_cast<const IdentityLossOp &>(op);
  poplar::Tensor x = ctx.get(op.inTensor(0));
  if (loss.reduction == ReductionType::NoReduction) {
    ctx.set(op.outputs[0], copyOf(ctx, x, prog, op.name()));
    return;
  }
  ctx.set(op.outputs[0], reduceLoss(ctx, x, loss.reduction,
                                    op.outputs[0]->info.shape(), prog,
                                    op.name()));
}

void growIdentityLossGrad(const Op &op, LoweringContext &ctx,
                          poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const IdentityLossGradOp &>(op);
  poplar::Tensor g = ctx.get(op.inTensor(0));
  const auto &shape = op.outputs[0]->info.shape();
  const std::vector<std::size_t> dims(shape.begin(), shape.end());
  if (grad.reduction == ReductionType::NoReduction) {
    ctx.set(op.outputs[0], copyOf(ctx, g, prog, op.name()));
    return;
  }
  std::size_t count = 1;
  for (auto d : dims)
    count *= d;
  if (grad.reduction == ReductionType::Mean)
    g = popops::map(ctx.graph, pe::_1 / pe::Const(static_cast<float>(count)),
                    {g}, prog, op.name());
  ctx.set(op.outputs[0], copyOf(ctx, broadcastScalar(g, dims), prog, op.name()));
}

} // namespace popart
