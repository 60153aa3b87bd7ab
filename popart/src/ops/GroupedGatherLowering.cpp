// GroupedGatherOp and its gradient: popops::gather in each group, and
// popops::multiUpdateAdd of each group's gradient rows. group_size 1 is
// seen as one group of its own.
#include "lowering/Lowering.hpp"
#include "ops/GroupedGatherOp.hpp"

#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Gather.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {
namespace pe = popops::expr;
namespace {

// UNSIGNED_INT indices [groups, ...], negative ones counted from the end of
// the gathered dimension.
poplar::Tensor groupIndices(LoweringContext &ctx, const Op &op, int size,
                            bool grouped, poplar::program::Sequence &prog) {
  poplar::Tensor idx = popops::map(
      ctx.graph,
      pe::Select(pe::_1 + pe::Const(size), pe::_1, pe::Lt(pe::_1, pe::Const(0))),
      {ctx.get(op.inTensor(1))}, prog, op.name());
  idx = popops::cast(ctx.graph, idx, poplar::UNSIGNED_INT, prog, op.name());
  return grouped ? idx : idx.expand({0});
}

} // namespace

void growGroupedGather(const Op &op, LoweringContext &ctx,
                       poplar::program::Sequence &prog) {
  const auto &gg = static_cast<const GroupedGatherOp &>(op);
  const bool grouped = gg.groupSize > 1;
  const poplar::Tensor data =
      grouped ? ctx.get(op.inTensor(0)) : ctx.get(op.inTensor(0)).expand({0});
  const unsigned axis = unsigned(gg.axis) + (grouped ? 0 : 1);
  const poplar::Tensor idx =
      groupIndices(ctx, op, int(data.dim(axis)), grouped, prog);
  std::vector<poplar::Tensor> groups;
  for (std::size_t g = 0; g < data.dim(0); ++g)
    groups.push_back(popops::gather(ctx.graph, data[g], idx[g], axis - 1, prog,
                                    {}, op.name())
                         .expand({0}));
  ctx.set(*op.outputs[0], poplar::concat(groups, 0).reshape(
                              dims(op.outputs[0]->info.shape())));
}

void growGroupedGatherGrad(const Op &op, LoweringContext &ctx,
                           poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const GroupedGatherGradOp &>(op);
  const bool grouped = grad.groupSize > 1;
  const Shape &dataShape = op.outputs[0]->info.shape();
  const poplar::Tensor gradOut = ctx.get(op.inTensor(0));
  poplar::Tensor out =
      ctx.graph.addVariable(gradOut.elementType(), dims(dataShape), op.name());
  poputil::mapTensorLinearly(ctx.graph, out);
  popops::zero(ctx.graph, out, prog, op.name());
  const poplar::Tensor data = grouped ? out : out.expand({0});
  const unsigned axis = unsigned(grad.axis) + (grouped ? 0 : 1);
  const poplar::Tensor idx =
      groupIndices(ctx, op, int(data.dim(axis)), grouped, prog);
  const std::size_t k = idx[0].numElements();
  // Each group's gradient as [K, 1, the other dimensions], added at rows
  // (the gathered dimension first) of the group's data.
  std::vector<std::size_t> gShape;
  for (unsigned d = 1; d < axis; ++d)
    gShape.push_back(data.dim(d));
  gShape.push_back(k);
  for (unsigned d = axis + 1; d < data.rank(); ++d)
    gShape.push_back(data.dim(d));
  const poplar::Tensor gradGroups =
      gradOut.reshape([&] {
        std::vector<std::size_t> s = gShape;
        s.insert(s.begin(), data.dim(0));
        return s;
      }());
  poplar::Tensor one = scalarConstant(ctx, gradOut.elementType(), 1.0,
                                      op.name() + "/one");
  for (std::size_t g = 0; g < data.dim(0); ++g) {
    const poplar::Tensor rows = data[g].dimRoll(axis - 1, 0);
    const poplar::Tensor slices = gradGroups[g].dimRoll(axis - 1, 0).expand({1});
    popops::multiUpdateAdd(ctx.graph, rows, slices, idx[g].flatten().reshape({k, 1}),
                           one, {0}, {1}, prog, popops::SlicePlan(), {},
                           op.name());
  }
  ctx.set(op.outputs[0], out);
}

} // namespace popart
