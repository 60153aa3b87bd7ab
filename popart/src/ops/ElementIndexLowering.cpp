// GatherElements and ScatterElements: each index becomes the offset of
// its element in the flattened data (the index times the axis' stride,
// plus the offset its own coordinates give along the other axes, a
// constant), then popops gathers or updates single elements there.
#include "lowering/Lowering.hpp"
#include "ops/ElementIndexOps.hpp"

#include <popart/error.hpp>

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Gather.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {

// The offsets (UNSIGNED_INT, flattened) in data of `dataShape` of the
// elements `indices` name along `axis` (negative ones from the end).
poplar::Tensor elementOffsets(LoweringContext &ctx, const poplar::Tensor &indices,
                              const Shape &dataShape, int64_t axis,
                              poplar::program::Sequence &prog,
                              const std::string &name) {
  const std::size_t rank = dataShape.size();
  std::vector<int64_t> stride(rank, 1);
  for (std::size_t d = rank - 1; d-- > 0;)
    stride[d] = stride[d + 1] * dataShape[d + 1];
  const std::vector<std::size_t> ishape = indices.shape();
  std::vector<int> base(indices.numElements());
  std::vector<std::size_t> coord(rank, 0);
  for (std::size_t i = 0; i < base.size(); ++i) {
    int64_t offset = 0;
    for (std::size_t d = 0; d < rank; ++d)
      if (static_cast<int64_t>(d) != axis)
        offset += static_cast<int64_t>(coord[d]) * stride[d];
    base[i] = static_cast<int>(offset);
    for (std::size_t d = rank; d-- > 0;)
      if (++coord[d] < ishape[d])
        break;
      else
        coord[d] = 0;
  }
  const poplar::Tensor baseT =
      hostConstant(ctx, poplar::INT, ishape, base, name + "/base");
  const poplar::Tensor idx = castTo(ctx, indices, poplar::INT, prog, name);
  const int size = static_cast<int>(dataShape[axis]);
  const poplar::Tensor flat = popops::map(
      ctx.graph,
      pe::Select(pe::_1 + pe::Const(size), pe::_1, pe::Lt(pe::_1, pe::Const(0))) *
              pe::Const(static_cast<int>(stride[axis])) +
          pe::_2,
      {idx, baseT}, prog, name);
  return popops::cast(ctx.graph, flat, poplar::UNSIGNED_INT, prog, name)
      .flatten();
}

} // namespace

void growGatherElements(const Op &op, LoweringContext &ctx,
                        poplar::program::Sequence &prog) {
  const auto &g = static_cast<const GatherElementsOp &>(op);
  const poplar::Tensor data = ctx.get(op.inTensor(0));
  const poplar::Tensor offsets = elementOffsets(
      ctx, ctx.get(op.inTensor(1)), op.inShape(0), g.axis, prog, op.name());
  const poplar::Tensor out =
      popops::gather(ctx.graph, data.flatten(), offsets, 0, prog, {}, op.name());
  ctx.set(op.outputs[0], out.reshape(dims(op.outShape(0))));
}


void growGatherElementsGrad(const Op &op, LoweringContext &ctx,
                            poplar::program::Sequence &prog) {
  const auto &g = static_cast<const GatherElementsGradOp &>(op);
  const Shape &dataShape = op.outputs[0]->info.shape();
  const poplar::Tensor grad = ctx.get(op.inTensor(0));
  poplar::Tensor out =
      ctx.graph.addVariable(grad.elementType(), dims(dataShape), op.name());
  poputil::mapTensorLinearly(ctx.graph, out);
  popops::zero(ctx.graph, out, prog, op.name());
  updateRows(ctx, out.flatten(), grad.flatten(),
             elementOffsets(ctx, ctx.get(op.inTensor(1)), dataShape, g.axis,
                            prog, op.name()),
             "add", prog, op.name());
  ctx.set(op.outputs[0], out);
}

void growScatterElements(const Op &op, LoweringContext &ctx,
                         poplar::program::Sequence &prog) {
  const auto &s = static_cast<const ScatterElementsOp &>(op);
  const poplar::Tensor out =
      copyOf(ctx, ctx.get(op.inTensor(0)), prog, op.name());
  updateRows(ctx, out.flatten(), ctx.get(op.inTensor(2)).flatten(),
             elementOffsets(ctx, ctx.get(op.inTensor(1)), op.inShape(0), s.axis,
                            prog, op.name()),
             s.reduction, prog, op.name());
  ctx.set(op.outputs[0], out);
}

} // namespace popart
