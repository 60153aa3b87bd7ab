// MeanVarianceNormOp: the means of x and x^2 over the axes with
// popops::reduce, broadcast back, and one map for the normalisation.
#include "lowering/Lowering.hpp"
#include "ops/MeanVarianceNormOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>

namespace popart {
namespace pe = popops::expr;

void growMeanVarianceNorm(const Op &op, LoweringContext &ctx,
                          poplar::program::Sequence &prog) {
  const auto &mvn = static_cast<const MeanVarianceNormOp &>(op);
  const poplar::Tensor x = ctx.get(op.inTensor(0));
  std::vector<std::size_t> reduced, kept = x.shape();
  std::size_t count = 1;
  for (int64_t a : mvn.axes) {
    reduced.push_back(static_cast<std::size_t>(a));
    count *= x.dim(static_cast<unsigned>(a));
    kept[static_cast<std::size_t>(a)] = 1;
  }
  const poplar::Tensor squares =
      popops::map(ctx.graph, pe::_1 * pe::_1, {x}, prog, op.name());
  // The sum over the axes, broadcast back to x's shape.
  auto sumOf = [&](const poplar::Tensor &t) {
    poplar::Tensor m = popops::reduce(ctx.graph, t, reduced,
                                      popops::Operation::ADD, prog, op.name())
                           .reshape(kept);
    for (std::size_t d : reduced)
      m = m.broadcast(static_cast<unsigned>(x.dim(static_cast<unsigned>(d))),
                      static_cast<unsigned>(d));
    return m;
  };
  const float inverse = 1.0f / static_cast<float>(count);
  const auto m = pe::_2 * pe::Const(inverse);
  const auto m2 = pe::_3 * pe::Const(inverse);
  ctx.set(op.outputs[0],
          popops::map(ctx.graph,
                      (pe::_1 - m) / (pe::Sqrt(m2 - m * m) + pe::Const(1e-9f)),
                      {x, sumOf(x), sumOf(squares)}, prog, op.name()));
}

} // namespace popart
