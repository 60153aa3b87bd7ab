// CumSumOp: a prefix sum in log2(n) steps (Hillis and Steele): each step
// adds the running sums shifted along the axis by a power of two, with
// zeros shifted in.
#include "lowering/Lowering.hpp"
#include "ops/CumSumOp.hpp"

#include <popops/ElementWise.hpp>

namespace popart {

namespace {

poplar::Tensor cumulativeSum(LoweringContext &ctx, poplar::Tensor x,
                             unsigned axis, bool exclusive, bool reverse,
                             poplar::program::Sequence &prog,
                             const std::string &name) {
  const poplar::Type type = x.elementType();
  x = castTo(ctx, x, arithmeticType(type), prog, name);
  const poplar::Tensor zero =
      scalarConstant(ctx, x.elementType(), 0.0, name + "/zero");
  const std::size_t n = x.dim(axis);
  // x moved `s` along the axis, zeros before it.
  auto shifted = [&](const poplar::Tensor &t, std::size_t s) {
    std::vector<std::size_t> shape = t.shape();
    shape[axis] = s;
    return poplar::concat(broadcastScalar(zero, shape),
                          t.slice(0, n - s, axis), axis);
  };
  if (reverse)
    x = x.reverse(axis);
  poplar::Tensor y = exclusive && n > 0 ? shifted(x, 1) : x;
  for (std::size_t s = 1; s < n; s *= 2)
    y = popops::add(ctx.graph, y, shifted(y, s), prog, name);
  if (reverse)
    y = y.reverse(axis);
  return castTo(ctx, copyOf(ctx, y, prog, name), type, prog, name);
}

// The running sums an op (CumSumOp or CumSumGradOp) asks of its input 0.
template <typename CumSum>
void growRunningSums(const Op &op, LoweringContext &ctx,
                     poplar::program::Sequence &prog) {
  const auto &c = static_cast<const CumSum &>(op);
  ctx.set(op.outputs[0],
          cumulativeSum(ctx, ctx.get(op.inTensor(0)),
                        static_cast<unsigned>(c.axis), c.exclusive, c.reverse,
                        prog, op.name()));
}

} // namespace

void growCumSum(const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  growRunningSums<CumSumOp>(op, ctx, prog);
}

void growCumSumGrad(const Op &op, LoweringContext &ctx,
                    poplar::program::Sequence &prog) {
  growRunningSums<CumSumGradOp>(op, ctx, prog);
}

} // namespace popart
