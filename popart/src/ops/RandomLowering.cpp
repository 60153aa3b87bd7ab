// The random ops on poprand. RandomUniform and RandomNormal are poprand's
// uniform and normal; Bernoulli compares a poprand uniform draw in [0, 1)
// with each probability (1 where the draw is below it); Multinomial samples
// by the inverse of each row's cumulative distribution: a uniform draw
// scaled by the row's total, its class the number of running sums at or
// below it.
#include "lowering/Lowering.hpp"
#include "ops/RandomOps.hpp"
#include "ops/RandomSeedLowering.hpp"

#include <popart/error.hpp>

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poprand/RandomGen.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {

// Uniform FLOAT numbers in [0, 1) of `shape`.
poplar::Tensor uniformDraw(LoweringContext &ctx, const DrawSeed &seed,
                           const std::vector<std::size_t> &shape,
                           poplar::program::Sequence &prog,
                           const std::string &name) {
  const poplar::Tensor reference =
      ctx.addLinearVariable(poplar::FLOAT, shape, name + "/reference");
  return poprand::uniform(ctx.graph, &seed.seed, seed.modifier, reference,
                          poplar::FLOAT, 0.0, 1.0, prog, name + "/uniform");
}

std::size_t elements(const std::vector<std::size_t> &shape) {
  std::size_t n = 1;
  for (std::size_t d : shape)
    n *= d;
  return n;
}

// Running sums along the rows of [rows, n] (Hillis and Steele's log2(n)
// steps of adding the sums shifted by a power of two).
poplar::Tensor rowRunningSums(LoweringContext &ctx, poplar::Tensor x,
                              poplar::program::Sequence &prog,
                              const std::string &name) {
  const std::size_t n = x.dim(1);
  const poplar::Tensor zero =
      scalarConstant(ctx, x.elementType(), 0.0, name + "/zero");
  for (std::size_t s = 1; s < n; s *= 2) {
    const poplar::Tensor shifted =
        poplar::concat(broadcastScalar(zero, {x.dim(0), s}),
                       x.slice(0, n - s, 1), 1);
    x = popops::add(ctx.graph, x, shifted, prog, name + "/runningSum");
  }
  return x;
}

} // namespace

void growRandom(const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  const auto &r = static_cast<const RandomOp &>(op);
  const poplar::Type type = deviceType(op.outInfo(0).dataType());
  const std::vector<std::size_t> shape = dims(op.outShape(0));
  poplar::Tensor reference =
      ctx.addLinearVariable(type, shape, op.name() + "/reference");
  if (elements(shape) == 0) {
    ctx.set(op.outputs[0], reference);
    return;
  }
  const DrawSeed seed = drawSeed(ctx, r.seed, op);
  poplar::Tensor out =
      r.distribution == RandomOp::Distribution::Uniform
          ? poprand::uniform(ctx.graph, &seed.seed, seed.modifier, reference,
                             type, r.first, r.second, prog, op.name())
          : poprand::normal(ctx.graph, &seed.seed, seed.modifier, reference,
                            type, r.first, r.second, prog, op.name());
  ctx.set(op.outputs[0], out);
}

void growBernoulli(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  const auto &b = static_cast<const BernoulliOp &>(op);
  const poplar::Tensor p = ctx.get(op.inTensor(0));
  const poplar::Type type = deviceType(op.outInfo(0).dataType());
  if (p.numElements() == 0) {
    ctx.set(op.outputs[0],
            ctx.addLinearVariable(type, p.shape(), op.name() + "/empty"));
    return;
  }
  const poplar::Tensor u =
      uniformDraw(ctx, drawSeed(ctx, b.seed, op), p.shape(), prog, op.name());
  ctx.set(op.outputs[0],
          popops::map(ctx.graph,
                      pe::Cast(pe::Lt(pe::_1, pe::Cast(pe::_2, poplar::FLOAT)),
                               type),
                      {u, p}, prog, op.name()));
}

void growMultinomial(const Op &op, LoweringContext &ctx,
                     poplar::program::Sequence &prog) {
  const auto &m = static_cast<const MultinomialOp &>(op);
  const std::string name = op.name();
  const poplar::Tensor logits =
      castTo(ctx, ctx.get(op.inTensor(0)), poplar::FLOAT, prog, name);
  const std::size_t batch = logits.dim(0), classes = logits.dim(1);
  const std::size_t samples = static_cast<std::size_t>(m.sampleSize);
  const poplar::Type type = deviceType(op.outInfo(0).dataType());
  if (batch == 0 || classes == 1) {
    // One class: every sample is class 0.
    poplar::Tensor zeros =
        ctx.addLinearVariable(type, {batch, samples}, name + "/zeros");
    if (batch != 0)
      popops::zero(ctx.graph, zeros, prog, name + "/zeros");
    ctx.set(op.outputs[0], zeros);
    return;
  }
  const poplar::Tensor cdf = rowRunningSums(
      ctx, softmaxOfRows(ctx, logits, false, true, prog, name), prog, name);
  const poplar::Tensor total = cdf.slice(classes - 1, classes, 1); // [B, 1]
  const poplar::Tensor u =
      uniformDraw(ctx, drawSeed(ctx, m.seed, op), {batch, samples}, prog, name);
  // [B, S, 1] draws against [B, 1, C - 1] running sums: the class is the
  // number of sums at or below the draw (scaled by the row's total, so
  // that the last class ends where the sums do).
  const poplar::Tensor point =
      popops::mul(ctx.graph, u, total, prog, name + "/point")
          .reshape({batch, samples, 1});
  const poplar::Tensor below = popops::map(
      ctx.graph, pe::Cast(pe::Lte(pe::_1, pe::_2), poplar::INT),
      {cdf.slice(0, classes - 1, 1).reshape({batch, 1, classes - 1}), point},
      prog, name + "/below");
  const poplar::Tensor index = popops::reduce(
      ctx.graph, below, poplar::INT, {2}, popops::Operation::ADD, prog,
      name + "/class");
  ctx.set(op.outputs[0], castTo(ctx, index, type, prog, name));
}

} // namespace popart
