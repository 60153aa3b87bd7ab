// GatherND and ScatterND: the data seen as rows (the slices index vectors
// name, after the batch dimensions), each index vector made the number of
// its row on the device (its values, negative ones from the end, times
// the rows' strides, plus its batch's first row, a constant), then
// popops gathers or updates those rows.
#include "lowering/Lowering.hpp"
#include "ops/NdIndexOps.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Gather.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {

struct RowLayout {
  // The data as [rows, row elements]; per index vector its row.
  std::vector<std::size_t> rowsShape;
  poplar::Tensor rowOfEach; // UNSIGNED_INT [index vectors]
};

RowLayout rowsOf(LoweringContext &ctx, const Shape &data,
                 const poplar::Tensor &indices, int64_t batchDims,
                 poplar::program::Sequence &prog, const std::string &name) {
  const std::size_t b = static_cast<std::size_t>(batchDims);
  const std::size_t m = indices.dim(indices.rank() - 1);
  std::size_t batches = 1, rowsPerBatch = 1, rowSize = 1;
  for (std::size_t d = 0; d < data.size(); ++d)
    (d < b ? batches : d < b + m ? rowsPerBatch : rowSize) *=
        static_cast<std::size_t>(data[d]);
  const std::size_t vectors = indices.numElements() / m;
  // Each value's stride in rows and its dimension's size, [1, m].
  std::vector<int> strides(m), sizes(m);
  int stride = 1;
  for (std::size_t k = m; k-- > 0;) {
    strides[k] = stride;
    sizes[k] = static_cast<int>(data[b + k]);
    stride *= sizes[k];
  }
  // The first row of each vector's batch (the vectors are in batch order).
  std::vector<int> firstRows(vectors);
  for (std::size_t v = 0; v < vectors; ++v)
    firstRows[v] = static_cast<int>(v / (vectors / batches) * rowsPerBatch);
  const poplar::Tensor idx =
      castTo(ctx, indices, poplar::INT, prog, name).reshape({vectors, m});
  auto perValue = [&](const std::vector<int> &values, const char *what) {
    return hostConstant(ctx, poplar::INT, {1, m}, values, name + what)
        .broadcast(static_cast<unsigned>(vectors), 0);
  };
  const poplar::Tensor scaled = popops::map(
      ctx.graph,
      pe::Select(pe::_1 + pe::_3, pe::_1, pe::Lt(pe::_1, pe::Const(0))) * pe::_2,
      {idx, perValue(strides, "/strides"), perValue(sizes, "/sizes")}, prog,
      name);
  poplar::Tensor rows = popops::reduce(ctx.graph, scaled, {1},
                                       popops::Operation::ADD, prog, name);
  rows = popops::map(ctx.graph, pe::_1 + pe::_2,
                     {rows, hostConstant(ctx, poplar::INT, {vectors}, firstRows,
                                         name + "/firstRows")},
                     prog, name);
  return {{batches * rowsPerBatch, rowSize},
          popops::cast(ctx.graph, rows, poplar::UNSIGNED_INT, prog, name)};
}

} // namespace

void growGatherND(const Op &op, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  const auto &g = static_cast<const GatherNDOp &>(op);
  const RowLayout layout = rowsOf(ctx, op.inShape(0), ctx.get(op.inTensor(1)),
                                  g.batchDims, prog, op.name());
  const poplar::Tensor rows = ctx.get(op.inTensor(0)).reshape(layout.rowsShape);
  ctx.set(op.outputs[0],
          popops::gather(ctx.graph, rows, layout.rowOfEach, 0, prog, {},
                         op.name())
              .reshape(dims(op.outShape(0))));
}

void growGatherNDGrad(const Op &op, LoweringContext &ctx,
                      poplar::program::Sequence &prog) {
  const auto &g = static_cast<const GatherNDGradOp &>(op);
  const Shape &dataShape = op.outputs[0]->info.shape();
  const poplar::Tensor grad = ctx.get(op.inTensor(0));
  const RowLayout layout = rowsOf(ctx, dataShape, ctx.get(op.inTensor(1)),
                                  g.batchDims, prog, op.name());
  poplar::Tensor out =
      ctx.graph.addVariable(grad.elementType(), dims(dataShape), op.name());
  poputil::mapTensorLinearly(ctx.graph, out);
  popops::zero(ctx.graph, out, prog, op.name());
  updateRows(ctx, out.reshape(layout.rowsShape),
             grad.reshape({layout.rowOfEach.numElements(), layout.rowsShape[1]}),
             layout.rowOfEach, "add", prog, op.name());
  ctx.set(op.outputs[0], out);
}

void growScatterND(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  const auto &s = static_cast<const ScatterNDOp &>(op);
  const RowLayout layout = rowsOf(ctx, op.inShape(0), ctx.get(op.inTensor(1)),
                                  s.batchDims, prog, op.name());
  const poplar::Tensor out =
      copyOf(ctx, ctx.get(op.inTensor(0)), prog, op.name());
  updateRows(ctx, out.reshape(layout.rowsShape),
             ctx.get(op.inTensor(2))
                 .reshape({layout.rowOfEach.numElements(), layout.rowsShape[1]}),
             layout.rowOfEach, s.reduction, prog, op.name());
  ctx.set(op.outputs[0], out);
}

} // namespace popart
