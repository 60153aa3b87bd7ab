// ArgExtremaOp: the axis rolled last and the rest flattened into rows for
// popnn::argMax / argMin (first of equal extremes); select_last_index
// reverses the rows and maps an index i back to n - 1 - i.
#include "lowering/Lowering.hpp"
#include "ops/ArgExtremaOp.hpp"

#include <popnn/Loss.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

namespace popart {
namespace pe = popops::expr;

void growArgExtrema(const Op &op, LoweringContext &ctx,
                    poplar::program::Sequence &prog) {
  const auto &arg = static_cast<const ArgExtremaOp &>(op);
  poplar::Tensor x = ctx.get(op.inTensor(0));
  const std::size_t rank = x.rank();
  const std::size_t n = x.dim(unsigned(arg.axis));
  x = x.dimRoll(unsigned(arg.axis), unsigned(rank - 1));
  x = x.reshape({x.numElements() / n, n});
  if (arg.selectLastIndex)
    x = x.reverse(1);
  const bool isMax = op.opid.type == "ArgMax";
  poplar::Tensor idx = isMax ? popnn::argMax(ctx.graph, x, prog, op.name)
                             : popnn::argMin(ctx.graph, x, prog, op.name);
  idx = castTo(ctx, idx, poplar::INT, prog, op.name);
  if (arg.selectLastIndex)
    idx = popops::map(ctx.graph, pe::Const(int(n - 1)) - pe::_1, {idx}, prog,
                      op.name);
  const auto &outShape = op.outputs[0]->info.shape();
  ctx.set(*op.outputs[0],
          idx.reshape(std::vector<std::size_t>(outShape.begin(), outShape.end())));
}

} // namespace popart
