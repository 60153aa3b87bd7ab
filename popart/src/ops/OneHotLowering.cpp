// OneHotOp: the indices (made integers, negative ones counted from the
// depth) compared with a constant of the positions along the new axis,
// selecting `on` or `off`.
#include "lowering/Lowering.hpp"
#include "ops/OneHotOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

#include <numeric>

namespace popart {
namespace pe = popops::expr;

void growOneHot(const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  const auto &o = static_cast<const OneHotOp &>(op);
  const auto axis = static_cast<unsigned>(o.axis);
  const auto depth = static_cast<std::size_t>(o.depth);
  const std::vector<std::size_t> outShape = dims(op.outShape(0));
  // The indices as integers (ONNX truncates other types), [..., 1, ...]
  // broadcast along the new axis.
  poplar::Tensor idx = castTo(ctx, ctx.get(op.inTensor(0)), poplar::INT, prog,
                              op.name());
  idx = idx.expand({axis}).broadcast(static_cast<unsigned>(depth), axis);
  std::vector<int> numbers(depth);
  std::iota(numbers.begin(), numbers.end(), 0);
  std::vector<std::size_t> positionShape(outShape.size(), 1);
  positionShape[axis] = depth;
  poplar::Tensor positions =
      hostConstant(ctx, poplar::INT, {depth}, numbers, op.name() + "/positions")
          .reshape(positionShape);
  for (std::size_t d = 0; d < outShape.size(); ++d)
    if (d != axis)
      positions = positions.broadcast(static_cast<unsigned>(outShape[d]),
                                      static_cast<unsigned>(d));
  const poplar::Tensor values = ctx.get(op.inTensor(2)).flatten();
  const poplar::Tensor off = broadcastScalar(values[0], outShape);
  const poplar::Tensor on = broadcastScalar(values[1], outShape);
  const int n = static_cast<int>(depth);
  ctx.set(op.outputs[0],
          popops::map(ctx.graph,
                      pe::Select(pe::_3, pe::_4,
                                 pe::Equal(pe::Select(pe::_1 + pe::Const(n), pe::_1,
                                                      pe::Lt(pe::_1, pe::Const(0))),
                                           pe::_2)),
                      {idx, positions, on, off}, prog, op.name()));
}

} // namespace popart
