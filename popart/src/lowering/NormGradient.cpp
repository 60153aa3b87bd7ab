#include "lowering/NormGradient.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {
// Each row's mean, broadcast along the row.
poplar::Tensor rowMeans(LoweringContext &ctx, const poplar::Tensor &t,
                        poplar::program::Sequence &prog,
                        const std::string &name) {
  const std::size_t cols = t.dim(1);
  poplar::Tensor m = popops::reduce(ctx.graph, t, poplar::FLOAT, {1},
                                    popops::Operation::ADD, prog, name);
  popops::mapInPlace(ctx.graph, pe::_1 * pe::Const(1.0f / float(cols)), {m},
                     prog, name);
  return m.expand({1}).broadcast(static_cast<unsigned>(cols), 1);
}
} // namespace

RowNormGradients rowNormGradients(LoweringContext &ctx, const poplar::Tensor &g,
                                  const poplar::Tensor &x,
                                  const poplar::Tensor &scale, float epsilon,
                                  poplar::program::Sequence &prog,
                                  const std::string &name) {
  const poplar::Tensor mean = rowMeans(ctx, x, prog, name);
  const poplar::Tensor centred =
      popops::map(ctx.graph, pe::_1 - pe::_2, {x, mean}, prog, name);
  const poplar::Tensor variance = rowMeans(
      ctx, popops::map(ctx.graph, pe::Square(pe::_1), {centred}, prog, name),
      prog, name);
  const poplar::Tensor invStd =
      popops::map(ctx.graph,
                  pe::Const(1.0f) / pe::Sqrt(pe::_1 + pe::Const(epsilon)),
                  {variance}, prog, name);
  const poplar::Tensor xhat =
      popops::map(ctx.graph, pe::_1 * pe::_2, {centred, invStd}, prog, name);
  // dxhat = g scale; dx = invStd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)).
  const poplar::Tensor dxhat =
      popops::map(ctx.graph, pe::_1 * pe::_2, {g, scale}, prog, name);
  const poplar::Tensor m1 = rowMeans(ctx, dxhat, prog, name);
  const poplar::Tensor m2 = rowMeans(
      ctx, popops::map(ctx.graph, pe::_1 * pe::_2, {dxhat, xhat}, prog, name),
      prog, name);
  RowNormGradients r;
  r.dx = popops::map(ctx.graph, pe::_5 * (pe::_1 - pe::_2 - pe::_3 * pe::_4),
                     {dxhat, m1, xhat, m2, invStd}, prog, name);
  r.gxhat = popops::map(ctx.graph, pe::_1 * pe::_2, {g, xhat}, prog, name);
  return r;
}

} // namespace popart
