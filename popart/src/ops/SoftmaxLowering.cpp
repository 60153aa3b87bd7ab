// SoftmaxOp (Softmax, LogSoftmax): the softmax dimensions moved last and
// flattened to [outer, inner], then the stable form exp(x - max) / sum
// with popops::reduce and popops::map.
#include "lowering/Lowering.hpp"
#include "ops/SoftmaxOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>

namespace popart {
namespace pe = popops::expr;

void growSoftmax(const Op &op, LoweringContext &ctx,
                 poplar::program::Sequence &prog) {
  const bool log = op.opid.type == "LogSoftmax";
  const auto &s = static_cast<const SoftmaxOp &>(op);
  poplar::Tensor x = ctx.get(op.inTensor(0));
  const auto shape = x.shape();
  // Move the softmax dimension(s) last and flatten to [outer, inner].
  std::size_t outer = 1, inner = 1;
  poplar::Tensor x2;
  std::vector<unsigned> perm;
  if (s.coerceTo2D()) {
    for (std::size_t d = 0; d < shape.size(); ++d)
      (static_cast<int64_t>(d) < s.axis ? outer : inner) *= shape[d];
    x2 = x.reshape({outer, inner});
  } else {
    for (unsigned d = 0; d < shape.size(); ++d)
      if (d != s.axis)
        perm.push_back(d);
    perm.push_back(static_cast<unsigned>(s.axis));
    poplar::Tensor moved = x.dimShuffle(perm);
    inner = shape[s.axis];
    outer = x.numElements() / std::max<std::size_t>(inner, 1);
    x2 = moved.reshape({outer, inner});
  }
  // Stable form: exp(x - max) / sum.
  poplar::Tensor mx = popops::reduce(ctx.graph, x2, {1},
                                     popops::Operation::MAX, prog, op.name())
                          .expand({1});
  poplar::Tensor shifted =
      popops::map(ctx.graph, pe::_1 - pe::_2, {x2, mx.broadcast(inner, 1)},
                  prog, op.name());
  poplar::Tensor e = popops::map(ctx.graph, pe::Exp(pe::_1), {shifted}, prog, op.name());
  poplar::Tensor sum = popops::reduce(ctx.graph, e, {1},
                                      popops::Operation::ADD, prog, op.name())
                           .expand({1})
                           .broadcast(inner, 1);
  poplar::Tensor y =
      log ? popops::map(ctx.graph, pe::_1 - pe::Log(pe::_2), {shifted, sum}, prog, op.name())
          : popops::map(ctx.graph, pe::_1 / pe::_2, {e, sum}, prog, op.name());
  if (s.coerceTo2D()) {
    y = y.reshape(shape);
  } else {
    std::vector<std::size_t> movedShape;
    for (auto p : perm)
      movedShape.push_back(shape[p]);
    std::vector<unsigned> inverse(perm.size());
    for (unsigned i = 0; i < perm.size(); ++i)
      inverse[perm[i]] = i;
    y = y.reshape(movedShape).dimShuffle(inverse);
  }
  ctx.set(*op.outputs[0], y);
}

} // namespace popart
