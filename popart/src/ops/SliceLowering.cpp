// SliceOp: slices and sub-samples of the input (reversed first along the
// dimensions sliced backwards).
#include "lowering/Lowering.hpp"
#include "ops/SliceOp.hpp"

#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {

namespace {

// The view of t a slice takes.
poplar::Tensor sliceView(poplar::Tensor t, const std::vector<int64_t> &begins,
                         const std::vector<int64_t> &ends,
                         const std::vector<int64_t> &steps,
                         const std::vector<bool> &reversed) {
  for (std::size_t d = 0; d < begins.size(); ++d) {
    const auto dim = static_cast<unsigned>(d);
    if (reversed[d])
      t = t.reverse(dim);
    t = t.slice(static_cast<std::size_t>(begins[d]),
                static_cast<std::size_t>(ends[d]), dim);
    if (steps[d] > 1)
      t = t.subSample(static_cast<unsigned>(steps[d]), dim);
  }
  return t;
}

} // namespace

void growSlice(const Op &op, LoweringContext &ctx,
               poplar::program::Sequence &prog) {
  const auto &s = static_cast<const SliceOp &>(op);
  const poplar::Tensor t =
      sliceView(ctx.get(op.inTensor(0)), s.begins, s.ends, s.steps, s.reversed);
  ctx.set(*op.outputs[0], copyOf(ctx, t, prog, op.name()));
}

void growSliceGrad(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  const auto &s = static_cast<const SliceGradOp &>(op);
  const poplar::Tensor g = ctx.get(op.inTensor(0));
  poplar::Tensor out = ctx.graph.addVariable(
      g.elementType(), dims(op.outputs[0]->info.shape()), op.name());
  poputil::mapTensorLinearly(ctx.graph, out);
  popops::zero(ctx.graph, out, prog, op.name());
  prog.add(poplar::program::Copy(
      g, sliceView(out, s.begins, s.ends, s.steps, s.reversed)));
  ctx.set(op.outputs[0], out);
}

} // namespace popart
