// LRNOp: the squares summed over the channel window by in-place additions
// of channel-shifted slices, then one popops::map.
#include "lowering/Lowering.hpp"
#include "ops/LRNOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Zero.hpp>

namespace popart {
namespace pe = popops::expr;

void growLRN(const Op &op, LoweringContext &ctx,
             poplar::program::Sequence &prog) {
  const auto &lrn = static_cast<const LRNOp &>(op);
  const poplar::Tensor x = ctx.get(op.inTensor(0));
  const poplar::Tensor squares =
      popops::map(ctx.graph, pe::Square(pe::_1), {x}, prog, op.name() + "/square");
  const poplar::Tensor sums = ctx.graph.clone(squares, op.name() + "/sums");
  popops::zero(ctx.graph, sums, prog, op.name());
  const int64_t channels = int64_t(x.dim(1));
  const int64_t before = (lrn.size - 1) / 2, after = lrn.size - 1 - before;
  // sums[c] += squares[c + shift] wherever both exist.
  for (int64_t shift = -before; shift <= after; ++shift) {
    const int64_t lo = std::max<int64_t>(0, -shift);
    const int64_t hi = std::min(channels, channels - shift);
    if (lo >= hi)
      continue;
    popops::addInPlace(ctx.graph, sums.slice(std::size_t(lo), std::size_t(hi), 1),
                       squares.slice(std::size_t(lo + shift),
                                     std::size_t(hi + shift), 1),
                       prog, op.name());
  }
  const float alphaOverSize = lrn.alpha / float(lrn.size);
  poplar::Tensor y = popops::map(
      ctx.graph,
      pe::_1 / pe::Pow(pe::Const(lrn.bias) + pe::Const(alphaOverSize) * pe::_2,
                       pe::Const(lrn.beta)),
      {x, sums}, prog, op.name());
  ctx.set(*op.outputs[0], y);
}

} // namespace popart
