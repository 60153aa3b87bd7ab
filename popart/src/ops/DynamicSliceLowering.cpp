// DynamicSliceOp and its gradients: popops::dynamicSlice and
// dynamicUpdate at the offset read at run time, on a copy of the tensor.
#include "lowering/Lowering.hpp"
#include "ops/DynamicSliceOp.hpp"

#include <popart/error.hpp>

#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {

namespace {

struct Slicing {
  poplar::Tensor offset; // UNSIGNED_INT, one per axis
  std::vector<std::size_t> dims, sizes;
};

Slicing slicing(const Op &op, const std::vector<int64_t> &axes,
                const std::vector<int64_t> &sizes, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  Slicing s;
  s.offset = castTo(ctx, ctx.get(op.inTensor(1)), poplar::UNSIGNED_INT, prog,
                    op.name())
                 .flatten();
  for (std::size_t i = 0; i < axes.size(); ++i) {
    s.dims.push_back(static_cast<std::size_t>(axes[i]));
    s.sizes.push_back(static_cast<std::size_t>(sizes[i]));
  }
  return s;
}

poplar::Tensor zeros(LoweringContext &ctx, const poplar::Type &type,
                     const Shape &shape, poplar::program::Sequence &prog,
                     const std::string &name) {
  poplar::Tensor z = ctx.graph.addVariable(type, dims(shape), name);
  poputil::mapTensorLinearly(ctx.graph, z);
  popops::zero(ctx.graph, z, prog, name);
  return z;
}

// out (a tensor of its own) with its slice at the offset zeroed.
void zeroSlice(LoweringContext &ctx, const poplar::Tensor &out,
               const Slicing &s, const Shape &sliceShape,
               poplar::program::Sequence &prog, const std::string &name) {
  const poplar::Tensor z = zeros(ctx, out.elementType(), sliceShape, prog, name);
  popops::dynamicUpdate(ctx.graph, out, z, s.offset, s.dims, s.sizes, prog,
                        name);
}

Shape sliceShapeOf(const Shape &in, const std::vector<int64_t> &axes,
                   const std::vector<int64_t> &sizes) {
  Shape out = in;
  for (std::size_t i = 0; i < axes.size(); ++i)
    out[axes[i]] = sizes[i];
  return out;
}

} // namespace

void growDynamicSlice(const Op &op, LoweringContext &ctx,
                      poplar::program::Sequence &prog) {
  const auto &d = static_cast<const DynamicSliceOp &>(op);
  const Slicing s = slicing(op, d.axes, d.sizes, ctx, prog);
  const poplar::Tensor t = ctx.get(op.inTensor(0));
  const std::string &type = op.opid.type;
  if (type == "DynamicSlice") {
    ctx.set(op.outputs[0], popops::dynamicSlice(ctx.graph, t, s.offset, s.dims,
                                                s.sizes, prog, op.name()));
    return;
  }
  const poplar::Tensor out = copyOf(ctx, t, prog, op.name());
  if (type == "DynamicZero") {
    zeroSlice(ctx, out, s, d.sliceShape(op.inShape(0)), prog, op.name());
  } else if (type == "DynamicUpdate") {
    popops::dynamicUpdate(ctx.graph, out, ctx.get(op.inTensor(2)), s.offset,
                          s.dims, s.sizes, prog, op.name());
  } else if (type == "DynamicAdd") {
    const poplar::Tensor part = popops::dynamicSlice(
        ctx.graph, out, s.offset, s.dims, s.sizes, prog, op.name());
    popops::addInPlace(ctx.graph, part, ctx.get(op.inTensor(2)), prog,
                       op.name());
    popops::dynamicUpdate(ctx.graph, out, part, s.offset, s.dims, s.sizes, prog,
                          op.name());
  } else {
    throw internal_error("No lowering for {}", op.str());
  }
  ctx.set(op.outputs[0], out);
}

void growDynamicSliceGrad(const Op &op, LoweringContext &ctx,
                          poplar::program::Sequence &prog) {
  const auto &d = static_cast<const DynamicSliceGradOp &>(op);
  const Slicing s = slicing(op, d.axes, d.sizes, ctx, prog);
  const poplar::Tensor g = ctx.get(op.inTensor(0));
  poplar::Tensor out;
  if (d.kind == "Pad") {
    out = zeros(ctx, g.elementType(), op.outputs[0]->info.shape(), prog,
                op.name());
    popops::dynamicUpdate(ctx.graph, out, g, s.offset, s.dims, s.sizes, prog,
                          op.name());
  } else if (d.kind == "Slice") {
    out = popops::dynamicSlice(ctx.graph, g, s.offset, s.dims, s.sizes, prog,
                               op.name());
  } else {
    out = copyOf(ctx, g, prog, op.name());
    if (d.kind == "Zero")
      zeroSlice(ctx, out, s, sliceShapeOf(op.inShape(0), d.axes, d.sizes), prog,
                op.name());
  }
  ctx.set(op.outputs[0], out);
}

} // namespace popart
