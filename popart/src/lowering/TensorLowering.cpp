// Lowerings of the data-movement ops: views (reshape, transpose, slice,
// concat) copied into tensors of their own, popops::gather and popops::cast.
#include "lowering/Lowering.hpp"
#include "ops/TensorOps.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Gather.hpp>

namespace popart {
namespace {

std::vector<std::size_t> dims(const Shape &s) {
  return std::vector<std::size_t>(s.begin(), s.end());
}

void setCopy(const Op &op, LoweringContext &ctx, poplar::program::Sequence &prog,
             const poplar::Tensor &view) {
  poplar::Tensor out = ctx.graph.clone(view, op.name);
  prog.add(poplar::program::Copy(view, out));
  ctx.set(*op.outputs[0], out);
}

} // namespace

void registerTensorLowerings(LoweringRegistry &r) {
  const std::string onnx = Domain::ai_onnx;
  auto reshape = [](const Op &op, LoweringContext &ctx,
                    poplar::program::Sequence &prog) {
    setCopy(op, ctx, prog,
            ctx.get(op.inTensor(0)).reshape(dims(op.outputs[0]->info.shape())));
  };
  for (const char *t : {"Reshape", "Flatten", "Squeeze", "Unsqueeze"})
    r.add(onnx, t, reshape);
  r.add(Domain::ai_graphcore, "Reshape", reshape);
  r.add(onnx, "Transpose", [](const Op &op, LoweringContext &ctx,
                              poplar::program::Sequence &prog) {
    const auto &perm = static_cast<const TransposeOp &>(op).perm;
    std::vector<unsigned> p(perm.begin(), perm.end());
    setCopy(op, ctx, prog, ctx.get(op.inTensor(0)).dimShuffle(p));
  });
  r.add(onnx, "Concat", [](const Op &op, LoweringContext &ctx,
                           poplar::program::Sequence &prog) {
    std::vector<poplar::Tensor> parts;
    for (const Tensor *t : op.inputs)
      parts.push_back(ctx.get(*t));
    setCopy(op, ctx, prog,
            poplar::concat(parts, static_cast<unsigned>(
                                      static_cast<const ConcatOp &>(op).axis)));
  });
  r.add(onnx, "Slice", [](const Op &op, LoweringContext &ctx,
                          poplar::program::Sequence &prog) {
    const auto &s = static_cast<const SliceOp &>(op);
    poplar::Tensor t = ctx.get(op.inTensor(0));
    for (std::size_t d = 0; d < s.begins.size(); ++d) {
      t = t.slice(static_cast<std::size_t>(s.begins[d]),
                  static_cast<std::size_t>(s.ends[d]), static_cast<unsigned>(d));
      if (s.steps[d] > 1)
        t = t.subSample(static_cast<unsigned>(s.steps[d]), static_cast<unsigned>(d));
    }
    setCopy(op, ctx, prog, t);
  });
  r.add(onnx, "Split", [](const Op &op, LoweringContext &ctx,
                          poplar::program::Sequence &prog) {
    const auto &s = static_cast<const SplitOp &>(op);
    poplar::Tensor in = ctx.get(op.inTensor(0));
    std::size_t begin = 0;
    for (std::size_t i = 0; i < s.sizes.size(); ++i) {
      const std::size_t end = begin + static_cast<std::size_t>(s.sizes[i]);
      poplar::Tensor part = in.slice(begin, end, static_cast<unsigned>(s.axis));
      poplar::Tensor out = ctx.graph.clone(part, op.name);
      prog.add(poplar::program::Copy(part, out));
      if (op.outputs[i])
        ctx.set(*op.outputs[i], out);
      begin = end;
    }
  });
  r.add(onnx, "Gather", [](const Op &op, LoweringContext &ctx,
                           poplar::program::Sequence &prog) {
    namespace pe = popops::expr;
    const auto &g = static_cast<const GatherOp &>(op);
    const int64_t size = op.inShape(0).at(g.axis);
    poplar::Tensor idx = ctx.get(op.inTensor(1));
    // Negative indices count from the end.
    idx = popops::map(ctx.graph,
                      pe::Select(pe::_1 + pe::Const(static_cast<int>(size)), pe::_1,
                                 pe::Lt(pe::_1, pe::Const(0))),
                      {idx}, prog, op.name);
    idx = popops::cast(ctx.graph, idx, poplar::UNSIGNED_INT, prog, op.name);
    ctx.set(*op.outputs[0],
            popops::gather(ctx.graph, ctx.get(op.inTensor(0)), idx,
                           static_cast<unsigned>(g.axis), prog, {}, op.name));
  });
  r.add(onnx, "Cast", [](const Op &op, LoweringContext &ctx,
                         poplar::program::Sequence &prog) {
    ctx.set(*op.outputs[0],
            popops::cast(ctx.graph, ctx.get(op.inTensor(0)),
                         deviceType(op.outputs[0]->info.dataType()), prog, op.name));
  });
}

} // namespace popart
