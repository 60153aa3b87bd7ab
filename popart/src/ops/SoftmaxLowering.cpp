// SoftmaxOp (Softmax, LogSoftmax, Hardmax): the softmax dimensions moved last and
// flattened to [outer, inner], then the stable form exp(x - max) / sum
// (or exp(x) / sum with enableNonStableSoftmax) with popops::reduce and
// popops::map.
#include "ir/Graph.hpp"
#include "ir/Ir.hpp"
#include "lowering/Lowering.hpp"
#include "ops/SoftmaxOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {

// A tensor seen as [outer, inner] with the softmax's dimensions inner: the
// dimensions from axis on (before opset 13), or axis moved last.
struct SoftmaxLayout {
  SoftmaxLayout(const std::vector<std::size_t> &shape, int64_t axis,
                bool coerce)
      : shape(shape), coerce(coerce) {
    if (coerce) {
      for (std::size_t d = 0; d < shape.size(); ++d)
        (static_cast<int64_t>(d) < axis ? outer : inner) *= shape[d];
      return;
    }
    for (unsigned d = 0; d < shape.size(); ++d)
      if (d != axis)
        perm.push_back(d);
    perm.push_back(static_cast<unsigned>(axis));
    inner = shape[static_cast<std::size_t>(axis)];
    std::size_t n = 1;
    for (auto d : shape)
      n *= d;
    outer = n / std::max<std::size_t>(inner, 1);
  }
  poplar::Tensor to2D(const poplar::Tensor &t) const {
    return coerce ? t.reshape({outer, inner})
                  : t.dimShuffle(perm).reshape({outer, inner});
  }
  poplar::Tensor from2D(const poplar::Tensor &t) const {
    if (coerce)
      return t.reshape(shape);
    std::vector<std::size_t> movedShape;
    for (auto p : perm)
      movedShape.push_back(shape[p]);
    std::vector<unsigned> inverse(perm.size());
    for (unsigned i = 0; i < perm.size(); ++i)
      inverse[perm[i]] = i;
    return t.reshape(movedShape).dimShuffle(inverse);
  }
  std::vector<std::size_t> shape;
  bool coerce;
  std::vector<unsigned> perm;
  std::size_t outer = 1, inner = 1;
};

// The sum of each row of [outer, inner], broadcast back along the row.
poplar::Tensor rowSums(LoweringContext &ctx, const poplar::Tensor &t,
                       poplar::program::Sequence &prog, const std::string &name) {
  return popops::reduce(ctx.graph, t, {1}, popops::Operation::ADD, prog, name)
      .expand({1})
      .broadcast(static_cast<unsigned>(t.dim(1)), 1);
}

} // namespace

poplar::Tensor firstMaxOfRows(LoweringContext &ctx, const poplar::Tensor &x2,
                       poplar::program::Sequence &prog,
                       const std::string &name) {
  const std::size_t outer = x2.dim(0), inner = x2.dim(1);
  auto alongRows = [&](const poplar::Tensor &t) {
    return t.expand({1}).broadcast(static_cast<unsigned>(inner), 1);
  };
  std::vector<int> numbers(inner);
  for (std::size_t i = 0; i < inner; ++i)
    numbers[i] = static_cast<int>(i);
  const poplar::Tensor columns =
      hostConstant(ctx, poplar::INT, {1, inner}, numbers, name + "/columns")
          .broadcast(static_cast<unsigned>(outer), 0);
  const poplar::Tensor max = alongRows(
      popops::reduce(ctx.graph, x2, {1}, popops::Operation::MAX, prog, name));
  const poplar::Tensor atMax = popops::map(
      ctx.graph,
      pe::Select(pe::_1, pe::Const(static_cast<int>(inner)), pe::Equal(pe::_2, pe::_3)),
      {columns, x2, max}, prog, name);
  const poplar::Tensor first = alongRows(
      popops::reduce(ctx.graph, atMax, {1}, popops::Operation::MIN, prog, name));
  return popops::map(ctx.graph, pe::Equal(pe::_1, pe::_2), {columns, first},
                     prog, name);
}

poplar::Tensor softmaxOfRows(LoweringContext &ctx, const poplar::Tensor &x2,
                             bool log, bool stable,
                             poplar::program::Sequence &prog,
                             const std::string &name) {
  // Stable form: exp(x - max) / sum; without it (enableNonStableSoftmax)
  // faster, but exp overflows for inputs above ~88.
  poplar::Tensor shifted = x2;
  if (stable) {
    poplar::Tensor mx =
        popops::reduce(ctx.graph, x2, {1}, popops::Operation::MAX, prog, name)
            .expand({1});
    shifted = popops::map(ctx.graph, pe::_1 - pe::_2,
                          {x2, mx.broadcast(static_cast<unsigned>(x2.dim(1)), 1)},
                          prog, name);
  }
  poplar::Tensor e = popops::map(ctx.graph, pe::Exp(pe::_1), {shifted}, prog, name);
  poplar::Tensor sum = rowSums(ctx, e, prog, name);
  return log ? popops::map(ctx.graph, pe::_1 - pe::Log(pe::_2), {shifted, sum},
                           prog, name)
             : popops::map(ctx.graph, pe::_1 / pe::_2, {e, sum}, prog, name);
}

void growSoftmax(const Op &op, LoweringContext &ctx,
                 poplar::program::Sequence &prog) {
  const auto &s = static_cast<const SoftmaxOp &>(op);
  const poplar::Tensor x = ctx.get(op.inTensor(0));
  const SoftmaxLayout layout(x.shape(), s.axis, s.coerceTo2D());
  const poplar::Tensor x2 = layout.to2D(x);
  poplar::Tensor y;
  if (op.opid.type == "Hardmax")
    y = castTo(ctx, firstMaxOfRows(ctx, x2, prog, op.name()), x2.elementType(),
               prog, op.name());
  else
    y = softmaxOfRows(
        ctx, x2, op.opid.type == "LogSoftmax",
        !op.getGraph().getIr().getSessionOptions().enableNonStableSoftmax, prog,
        op.name());
  ctx.set(*op.outputs[0], layout.from2D(y));
}

void growSoftmaxGrad(const Op &op, LoweringContext &ctx,
                     poplar::program::Sequence &prog) {
  const auto &s = static_cast<const SoftmaxGradOp &>(op);
  const poplar::Tensor g = ctx.get(op.inTensor(0));
  const SoftmaxLayout layout(g.shape(), s.axis, s.coerce);
  const poplar::Tensor g2 = layout.to2D(g);
  const poplar::Tensor y2 = layout.to2D(ctx.get(op.inTensor(1)));
  poplar::Tensor dx;
  if (s.log) {
    dx = popops::map(ctx.graph, pe::_1 - pe::Exp(pe::_2) * pe::_3,
                     {g2, y2, rowSums(ctx, g2, prog, op.name())}, prog,
                     op.name());
  } else {
    poplar::Tensor gy = popops::mul(ctx.graph, g2, y2, prog, op.name());
    dx = popops::map(ctx.graph, pe::_2 * (pe::_1 - pe::_3),
                     {g2, y2, rowSums(ctx, gy, prog, op.name())}, prog,
                     op.name());
  }
  ctx.set(op.outputs[0], layout.from2D(dx));
}

} // namespace popart
