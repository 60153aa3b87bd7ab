// GatherOp: popops::gather, negative indices first made positive.
#include "lowering/Lowering.hpp"
#include <popops/DynamicSlice.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>
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


void growGatherGrad(const Op &op, LoweringContext &ctx,
                    poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const GatherGradOp &>(op);
  const Shape &dataShape = op.outputs[0]->info.shape();
  const auto axis = static_cast<std::size_t>(grad.axis);
  const poplar::Tensor g = ctx.get(op.inTensor(0));
  // Indices made positive, one per gathered slice.
  const int size = static_cast<int>(dataShape.at(axis));
  poplar::Tensor idx = popops::map(
      ctx.graph,
      pe::Select(pe::_1 + pe::Const(size), pe::_1, pe::Lt(pe::_1, pe::Const(0))),
      {ctx.get(op.inTensor(1))}, prog, op.name());
  idx = popops::cast(ctx.graph, idx, poplar::UNSIGNED_INT, prog, op.name())
            .flatten();
  const std::size_t k = idx.numElements();
  // The data with the gathered axis first, and the gradient as [K, 1,
  // the other dimensions] to add at those rows.
  poplar::Tensor out = ctx.graph.addVariable(g.elementType(), dims(dataShape),
                                             op.name());
  poputil::mapTensorLinearly(ctx.graph, out);
  popops::zero(ctx.graph, out, prog, op.name());
  const poplar::Tensor rows = out.dimRoll(static_cast<unsigned>(axis), 0);
  std::vector<std::size_t> gShape;
  for (std::size_t d = 0; d < axis; ++d)
    gShape.push_back(dataShape[d]);
  gShape.push_back(k);
  for (std::size_t d = axis + 1; d < dataShape.size(); ++d)
    gShape.push_back(dataShape[d]);
  poplar::Tensor slices =
      g.reshape(gShape).dimRoll(static_cast<unsigned>(axis), 0).expand({1});
  poplar::Tensor one = ctx.graph.addConstant(g.elementType(), {}, 1.0,
                                             op.name() + "/one");
  ctx.graph.setTileMapping(one, 0);
  popops::multiUpdateAdd(ctx.graph, rows, slices, idx.reshape({k, 1}), one, {0},
                         {1}, prog, popops::SlicePlan(), {}, op.name());
  ctx.set(op.outputs[0], out);
}

} // namespace popart
