// LRNOp: the squares summed over the channel window by in-place additions
// of channel-shifted slices, then one popops::map.
#include "lowering/Lowering.hpp"
#include "ops/LRNOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Zero.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {

// out[c] = sum of t[c + shift] for shift in [-before, after], over the
// channels (dimension 1) that exist.
poplar::Tensor channelWindowSums(LoweringContext &ctx, const poplar::Tensor &t,
                                 int64_t before, int64_t after,
                                 poplar::program::Sequence &prog,
                                 const std::string &name) {
  const poplar::Tensor sums = ctx.graph.clone(t, name + "/sums");
  popops::zero(ctx.graph, sums, prog, name);
  const int64_t channels = int64_t(t.dim(1));
  for (int64_t shift = -before; shift <= after; ++shift) {
    const int64_t lo = std::max<int64_t>(0, -shift);
    const int64_t hi = std::min(channels, channels - shift);
    if (lo >= hi)
      continue;
    popops::addInPlace(ctx.graph, sums.slice(std::size_t(lo), std::size_t(hi), 1),
                       t.slice(std::size_t(lo + shift), std::size_t(hi + shift), 1),
                       prog, name);
  }
  return sums;
}

int64_t windowBefore(int64_t size) { return (size - 1) / 2; }
int64_t windowAfter(int64_t size) { return size - 1 - windowBefore(size); }

} // namespace

void growLRN(const Op &op, LoweringContext &ctx,
             poplar::program::Sequence &prog) {
  const auto &lrn = static_cast<const LRNOp &>(op);
  const poplar::Tensor x = ctx.get(op.inTensor(0));
  const poplar::Tensor squares =
      popops::map(ctx.graph, pe::Square(pe::_1), {x}, prog, op.name() + "/square");
  const poplar::Tensor sums =
      channelWindowSums(ctx, squares, windowBefore(lrn.size),
                        windowAfter(lrn.size), prog, op.name());
  const float alphaOverSize = lrn.alpha / float(lrn.size);
  poplar::Tensor y = popops::map(
      ctx.graph,
      pe::_1 / pe::Pow(pe::Const(lrn.bias) + pe::Const(alphaOverSize) * pe::_2,
                       pe::Const(lrn.beta)),
      {x, sums}, prog, op.name());
  ctx.set(*op.outputs[0], y);
}


// y = x d^-beta with d = bias + alpha / size * (window sum of x^2), so
// dx[c] = g[c] d[c]^-beta - 2 alpha beta / size x[c] sum over the windows
// holding c of g x d^(-beta - 1).
void growLRNGrad(const Op &op, LoweringContext &ctx,
                 poplar::program::Sequence &prog) {
  const auto &lrn = static_cast<const LRNGradOp &>(op);
  const poplar::Tensor g = ctx.get(op.inTensor(0));
  const poplar::Tensor x = ctx.get(op.inTensor(1));
  const int64_t before = windowBefore(lrn.size), after = windowAfter(lrn.size);
  const float alphaOverSize = lrn.alpha / float(lrn.size);
  const poplar::Tensor squares =
      popops::map(ctx.graph, pe::Square(pe::_1), {x}, prog, op.name());
  const poplar::Tensor d = popops::map(
      ctx.graph,
      pe::Const(lrn.bias) + pe::Const(alphaOverSize) * pe::_1,
      {channelWindowSums(ctx, squares, before, after, prog, op.name())}, prog,
      op.name());
  const poplar::Tensor t = popops::map(
      ctx.graph, pe::_1 * pe::_2 * pe::Pow(pe::_3, pe::Const(-lrn.beta - 1.0f)),
      {g, x, d}, prog, op.name());
  // The windows holding c start from c - after to c + before.
  const poplar::Tensor back = channelWindowSums(ctx, t, after, before, prog, op.name());
  ctx.set(op.outputs[0],
          popops::map(ctx.graph,
                      pe::_1 * pe::Pow(pe::_3, pe::Const(-lrn.beta)) -
                          pe::Const(2.0f * lrn.alpha * lrn.beta / float(lrn.size)) *
                              pe::_2 * pe::_4,
                      {g, x, d, back}, prog, op.name()));
}

} // namespace popart
