// OnnxLossOp: the input seen as rows of C values ([N D, C], D the product
// of the trailing dimensions); each element's target class picks its
// value and its weight by popops::gather (a target equal to ignore_index
// taking class 0 and then weight 0), then the reduction.
// SoftmaxCrossEntropyLoss first takes the stable log-softmax of the rows.
#include "lowering/Lowering.hpp"
#include "ops/OnnxLossOps.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Gather.hpp>
#include <popops/Reduce.hpp>

namespace popart {
namespace pe = popops::expr;

void growOnnxLoss(const Op &op, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  const auto &loss = static_cast<const OnnxLossOp &>(op);
  const std::string &name = op.name();
  const Shape &inShape = op.inShape(0);
  const std::size_t n = static_cast<std::size_t>(inShape[0]),
                    c = static_cast<std::size_t>(inShape[1]),
                    d = static_cast<std::size_t>(op.inInfo(0).nelms()) /
                        std::max<std::size_t>(n * c, 1);
  // The input as rows of C values, [N D, C].
  poplar::Tensor x = ctx.get(op.inTensor(0)).reshape({n, c, d});
  const poplar::Type type = x.elementType();
  x = x.dimShuffle({0, 2, 1}).reshape({n * d, c});
  if (loss.softmax()) {
    x = softmaxOfRows(ctx, copyOf(ctx, x, prog, name), true, true, prog, name);
    if (op.hasOutput(1))
      ctx.set(op.outputs[1],
              x.reshape({n, d, c}).dimShuffle({0, 2, 1}).reshape(dims(inShape)));
  }
  // The targets, a target to ignore made class 0, and whether each counts.
  const poplar::Tensor target =
      castTo(ctx, ctx.get(op.inTensor(1)), poplar::INT, prog, name).flatten();
  const int ignore = static_cast<int>(loss.ignoreIndex);
  const poplar::Tensor counts =
      loss.hasIgnoreIndex
          ? popops::map(ctx.graph, pe::NotEqual(pe::_1, pe::Const(ignore)),
                        {target}, prog, name)
          : broadcastScalar(scalarConstant(ctx, poplar::BOOL, 1.0, name + "/all"),
                            target.shape());
  const poplar::Tensor cls = popops::map(
      ctx.graph, pe::Select(pe::_1, pe::Const(0), pe::_2), {target, counts}, prog,
      name);
  // Each element's offset in the rows: its row's times C, plus t.
  std::vector<int> base(n * d);
  for (std::size_t i = 0; i < n * d; ++i)
    base[i] = static_cast<int>(i * c);
  const poplar::Tensor offsets = popops::cast(
      ctx.graph,
      popops::map(ctx.graph, pe::_1 + pe::_2,
                  {cls, hostConstant(ctx, poplar::INT, {n * d}, base,
                                     name + "/base")},
                  prog, name),
      poplar::UNSIGNED_INT, prog, name);
  const poplar::Tensor picked =
      popops::gather(ctx.graph, x.flatten(), offsets, 0, prog, {}, name);
  poplar::Tensor weight;
  if (op.hasInput(2))
    weight = popops::gather(
        ctx.graph, ctx.get(op.inTensor(2)),
        popops::cast(ctx.graph, cls, poplar::UNSIGNED_INT, prog, name), 0, prog,
        {}, name);
  else
    weight = broadcastScalar(scalarConstant(ctx, type, 1.0, name + "/one"),
                             {n * d});
  // The weight each element takes (0 if ignored), and its loss.
  const poplar::Tensor taken = popops::map(
      ctx.graph, pe::Select(pe::_1, pe::Const(0.0f), pe::_2), {weight, counts},
      prog, name);
  const poplar::Tensor elementLoss = popops::map(
      ctx.graph, -(pe::_1 * pe::_2), {picked, taken}, prog, name);
  if (loss.reduction == "none") {
    ctx.set(op.outputs[0], elementLoss.reshape(dims(op.outShape(0))));
    return;
  }
  auto all = [&](const poplar::Tensor &t) {
    return popops::reduce(ctx.graph, t, {0}, popops::Operation::ADD, prog, name);
  };
  poplar::Tensor total = all(elementLoss);
  if (loss.reduction == "mean")
    total = popops::map(ctx.graph, pe::_1 / pe::_2, {total, all(taken)}, prog,
                        name);
  ctx.set(op.outputs[0], total);
}

} // namespace popart
