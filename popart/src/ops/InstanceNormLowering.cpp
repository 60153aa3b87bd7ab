// InstanceNormOp: popnn::in::instanceNormStatistics (biased variance, the
// stable algorithm) and instanceNormalise.
#include "lowering/Lowering.hpp"
#include "lowering/NormGradient.hpp"
#include <popops/Reduce.hpp>
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


void growInstanceNormGrad(const Op &op, LoweringContext &ctx,
                          poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const InstanceNormGradOp &>(op);
  const Shape &xShape = op.outputs[0]->info.shape();
  const std::size_t n = std::size_t(xShape[0]), c = std::size_t(xShape[1]);
  const std::size_t rows = n * c, cols = std::size_t(op.outputs[0]->info.nelms()) / rows;
  auto asRows = [&](InIndex i) {
    return castTo(ctx, ctx.get(op.inTensor(i)), poplar::FLOAT, prog, op.name())
        .reshape({rows, cols});
  };
  const poplar::Tensor g = asRows(0), x = asRows(1);
  // The scale of channel k for row (batch, k).
  const poplar::Tensor scale =
      castTo(ctx, ctx.get(op.inTensor(2)), poplar::FLOAT, prog, op.name())
          .reshape({1, c, 1})
          .broadcast(unsigned(n), 0)
          .broadcast(unsigned(cols), 2)
          .reshape({rows, cols});
  const auto r = rowNormGradients(ctx, g, x, scale, grad.epsilon, prog, op.name());
  auto out = [&](OutIndex o, const poplar::Tensor &t) {
    if (op.hasOutput(o))
      ctx.set(op.outputs[o],
              castTo(ctx, t, deviceType(op.outputs[o]->info.dataType()), prog,
                     op.name())
                  .reshape(dims(op.outputs[o]->info.shape())));
  };
  out(0, r.dx);
  // Per channel: summed over the batch and each row.
  out(1, popops::reduce(ctx.graph, r.gxhat.reshape({n, c, cols}), poplar::FLOAT,
                        {0, 2}, popops::Operation::ADD, prog, op.name()));
  out(2, popops::reduce(ctx.graph, g.reshape({n, c, cols}), poplar::FLOAT,
                        {0, 2}, popops::Operation::ADD, prog, op.name()));
}

} // namespace popart
