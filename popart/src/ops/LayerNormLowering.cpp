// LayerNormOp: X seen as [rows, normalised elements]; the mean and the
// variance of the centred rows by popops::reduce (in FLOAT), then one map
// for (x - mean) * invStdDev * scale + bias.
#include "lowering/Lowering.hpp"
#include "lowering/NormGradient.hpp"
#include "ops/LayerNormOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>

namespace popart {
namespace pe = popops::expr;

void growLayerNorm(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  const auto &ln = static_cast<const LayerNormOp &>(op);
  const poplar::Tensor x = ctx.get(op.inTensor(0));
  const std::size_t rows = std::size_t(ln.outer), cols = std::size_t(ln.inner);
  const poplar::Tensor rowsX =
      castTo(ctx, x, poplar::FLOAT, prog, op.name()).reshape({rows, cols});
  const float invCols = 1.0f / float(cols);
  poplar::Tensor mean = popops::reduce(ctx.graph, rowsX, {1},
                                       popops::Operation::ADD, prog, op.name());
  popops::mapInPlace(ctx.graph, pe::_1 * pe::Const(invCols), {mean}, prog,
                     op.name());
  const poplar::Tensor centred =
      popops::map(ctx.graph, pe::_1 - pe::_2,
                  {rowsX, mean.expand({1}).broadcast(unsigned(cols), 1)}, prog,
                  op.name() + "/centred");
  poplar::Tensor invStdDev =
      popops::reduce(ctx.graph, centred, {1}, popops::Operation::SQUARE_ADD,
                     prog, op.name());
  popops::mapInPlace(
      ctx.graph,
      pe::Const(1.0f) / pe::Sqrt(pe::_1 * pe::Const(invCols) + pe::Const(ln.epsilon)),
      {invStdDev}, prog, op.name());

  auto perColumn = [&](int input) {
    return castTo(ctx, ctx.get(op.inTensor(input)), poplar::FLOAT, prog, op.name())
        .reshape({1, cols})
        .broadcast(unsigned(rows), 0);
  };
  const poplar::Tensor perRow = invStdDev.expand({1}).broadcast(unsigned(cols), 1);
  poplar::Tensor y =
      op.hasInput(2)
          ? popops::map(ctx.graph, pe::_1 * pe::_2 * pe::_3 + pe::_4,
                        {centred, perRow, perColumn(1), perColumn(2)}, prog, op.name())
          : popops::map(ctx.graph, pe::_1 * pe::_2 * pe::_3,
                        {centred, perRow, perColumn(1)}, prog, op.name());
  y = castTo(ctx, y, x.elementType(), prog, op.name()).reshape(x.shape());
  ctx.set(*op.outputs[0], y);
  const poplar::Tensor stats[2] = {mean, invStdDev};
  for (std::size_t i = 1; i < op.outputs.size() && i < 3; ++i)
    if (op.outputs[i]) {
      const auto &shape = op.outputs[i]->info.shape();
      ctx.set(*op.outputs[i],
              stats[i - 1].reshape(std::vector<std::size_t>(shape.begin(), shape.end())));
    }
}


void growLayerNormGrad(const Op &op, LoweringContext &ctx,
                       poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const LayerNormGradOp &>(op);
  const std::size_t rows = std::size_t(grad.outer), cols = std::size_t(grad.inner);
  auto asRows = [&](InIndex i) {
    return castTo(ctx, ctx.get(op.inTensor(i)), poplar::FLOAT, prog, op.name())
        .reshape({rows, cols});
  };
  const poplar::Tensor g = asRows(0), x = asRows(1);
  const poplar::Tensor scale =
      castTo(ctx, ctx.get(op.inTensor(2)), poplar::FLOAT, prog, op.name())
          .reshape({1, cols})
          .broadcast(unsigned(rows), 0);
  const auto r = rowNormGradients(ctx, g, x, scale, grad.epsilon, prog, op.name());
  auto out = [&](OutIndex o, const poplar::Tensor &t) {
    if (op.hasOutput(o))
      ctx.set(op.outputs[o],
              castTo(ctx, t, deviceType(op.outputs[o]->info.dataType()), prog,
                     op.name())
                  .reshape(dims(op.outputs[o]->info.shape())));
  };
  out(0, r.dx);
  out(1, popops::reduce(ctx.graph, r.gxhat, poplar::FLOAT, {0},
                        popops::Operation::ADD, prog, op.name()));
  out(2, popops::reduce(ctx.graph, g, poplar::FLOAT, {0},
                        popops::Operation::ADD, prog, op.name()));
}

} // namespace popart
