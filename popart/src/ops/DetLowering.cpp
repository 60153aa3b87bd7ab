// DetOp: Gaussian elimination with partial pivoting, column by column, on
// every matrix of the batch at once. Step k picks the first row (from k
// on) of largest |value| in column k as a one-hot mask, swaps it with row
// k by masked arithmetic (flipping the sign unless it is row k), and
// subtracts multiples of it from the rows below; the determinant is the
// sign times the pivots' product (0 once a column has no non-zero pivot).
#include "lowering/Lowering.hpp"
#include "ops/DetOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>


namespace popart {
namespace pe = popops::expr;

namespace {

// [B, r] -> [B, r, n] along a new last dimension.
poplar::Tensor alongRows(const poplar::Tensor &t, std::size_t n) {
  return t.expand({2}).broadcast(static_cast<unsigned>(n), 2);
}

// The one-hot mask [B, r] (of c's type) of the first largest |c| of each row.
poplar::Tensor firstLargest(LoweringContext &ctx, const poplar::Tensor &c,
                            poplar::program::Sequence &prog,
                            const std::string &name) {
  return castTo(
      ctx,
      firstMaxOfRows(ctx, popops::map(ctx.graph, pe::Abs(pe::_1), {c}, prog, name),
                     prog, name),
      c.elementType(), prog, name);
}

} // namespace

void growDet(const Op &op, LoweringContext &ctx,
             poplar::program::Sequence &prog) {
  const std::string &name = op.name();
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  const std::size_t n = in.dim(in.rank() - 1);
  const std::size_t b = in.numElements() / std::max<std::size_t>(n * n, 1);
  const poplar::Type type = in.elementType();
  poplar::Tensor rows = in.reshape({b, n, n});
  poplar::Tensor det = broadcastScalar(scalarConstant(ctx, type, 1.0, name + "/one"),
                                       {b});
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t r = n - k;
    const poplar::Tensor pick = firstLargest(
        ctx, rows.slice(k, k + 1, 2).reshape({b, r}), prog, name);
    // The pivot row, and the rows with it swapped into the first place.
    const poplar::Tensor pickRows = alongRows(pick, n);
    const poplar::Tensor pivot = popops::reduce(
        ctx.graph, popops::map(ctx.graph, pe::_1 * pe::_2, {pickRows, rows}, prog, name),
        {1}, popops::Operation::ADD, prog, name);
    const poplar::Tensor first = rows.slice(0, 1, 1).reshape({b, n});
    auto acrossRows = [&](const poplar::Tensor &t) {
      return t.expand({1}).broadcast(static_cast<unsigned>(r), 1);
    };
    const poplar::Tensor pivotValue = pivot.slice(k, k + 1, 1).reshape({b});
    // The sign flips unless the pivot is the first row.
    det = popops::map(ctx.graph,
                      pe::_1 * pe::_2 *
                          pe::Select(pe::Const(1.0f), pe::Const(-1.0f),
                                     pe::Equal(pe::_3, pe::Const(1.0f))),
                      {det, pivotValue, pick.slice(0, 1, 1).reshape({b})}, prog,
                      name);
    if (r == 1)
      break;
    // The rows after the first, with the pivot row replaced by the first.
    const poplar::Tensor rest = popops::map(
        ctx.graph, pe::_1 + pe::_2 * (pe::_3 - pe::_4),
        {rows.slice(1, r, 1), pickRows.slice(1, r, 1),
         acrossRows(first).slice(1, r, 1), acrossRows(pivot).slice(1, r, 1)},
        prog, name);
    // Their multiples of the pivot row subtracted (none when it is 0).
    const poplar::Tensor factor = popops::map(
        ctx.graph,
        pe::Select(pe::Const(0.0f), pe::_1 / pe::_2, pe::Equal(pe::_2, pe::Const(0.0f))),
        {rest.slice(k, k + 1, 2).reshape({b, r - 1}),
         pivotValue.expand({1}).broadcast(static_cast<unsigned>(r - 1), 1)},
        prog, name);
    rows = popops::map(ctx.graph, pe::_1 - pe::_2 * pe::_3,
                       {rest, alongRows(factor, n),
                        pivot.expand({1}).broadcast(static_cast<unsigned>(r - 1), 1)},
                       prog, name);
  }
  if (n == 0)
    det = copyOf(ctx, det, prog, name);
  ctx.set(op.outputs[0], det.reshape(dims(op.outShape(0))));
}

} // namespace popart
