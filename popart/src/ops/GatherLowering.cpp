// GatherOp: popops::gather, negative indices first made positive.
#include "lowering/Lowering.hpp"
#include "ops/GatherOp.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Gather.hpp>

namespace popart {
namespace pe = popops::expr;

void growGather(const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  const auto &g = static_cast<const GatherOp &>(op);
  const int size = static_cast<int>(op.inShape(0).at(g.axis));
  poplar::Tensor idx = popops::map(
      ctx.graph,
      pe::Select(pe::_1 + pe::Const(size), pe::_1, pe::Lt(pe::_1, pe::Const(0))),
      {ctx.get(op.inTensor(1))}, prog, op.name());
  idx = popops::cast(ctx.graph, idx, poplar::UNSIGNED_INT, prog, op.name());
  ctx.set(*op.outputs[0],
          popops::gather(ctx.graph, ctx.get(op.inTensor(0)), idx,
                         static_cast<unsigned>(g.axis), prog, {}, op.name()));
}

} // namespace popart
