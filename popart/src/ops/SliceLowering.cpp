// SliceOp: slices and sub-samples of the input (reversed first along the
// dimensions sliced backwards).
#include "lowering/Lowering.hpp"
#include "ops/SliceOp.hpp"

#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
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

// A slice whose starts are read at run time: popops' dynamicSlice of the
// lengths found when the op was set up, at each start (a negative one
// counted from the end) clamped so that the slice lies in its axis.
void growRuntimeSlice(const SliceOp &op, LoweringContext &ctx,
                      poplar::program::Sequence &prog) {
  namespace pe = popops::expr;
  const poplar::Tensor starts = ctx.get(op.inTensor(1)).flatten();
  const Shape in = op.inShape(0);
  std::vector<poplar::Tensor> offsets;
  std::vector<std::size_t> axes, lengths;
  for (std::size_t i = 0; i < op.runtimeAxes.size(); ++i) {
    const auto dim = static_cast<int>(in[op.runtimeAxes[i]]);
    const auto length = static_cast<int>(op.runtimeLengths[i]);
    const auto fromEnd = pe::Select(pe::_1 + pe::Const(dim), pe::_1,
                                    pe::Lt(pe::_1, pe::Const(0)));
    offsets.push_back(popops::map(
        ctx.graph,
        pe::Cast(pe::Clamp(fromEnd, pe::Const(0), pe::Const(dim - length)),
                 poplar::UNSIGNED_INT),
        {castTo(ctx, starts.slice(i, i + 1), poplar::INT, prog, op.name())},
        prog, op.name() + "/offset"));
    axes.push_back(static_cast<std::size_t>(op.runtimeAxes[i]));
    lengths.push_back(static_cast<std::size_t>(length));
  }
  ctx.set(op.outputs[0],
          popops::dynamicSlice(ctx.graph, ctx.get(op.inTensor(0)),
                               poplar::concat(offsets), axes, lengths, prog,
                               op.name()));
}

} // namespace

void growSlice(const Op &op, LoweringContext &ctx,
               poplar::program::Sequence &prog) {
  const auto &s = static_cast<const SliceOp &>(op);
  if (s.opid.type == "Slice" && s.hasRuntimeStarts()) {
    growRuntimeSlice(s, ctx, prog);
    return;
  }
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
