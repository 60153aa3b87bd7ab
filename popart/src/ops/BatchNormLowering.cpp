// BatchNormOp in inference: the per-channel multiplicand
// scale / sqrt(var + epsilon) and addend B - mean * multiplicand (two small
// popops maps), then popnn::bn::batchNormalise's inference form.
#include "lowering/Lowering.hpp"
#include "ops/BatchNormOp.hpp"

#include <popnn/BatchNorm.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

namespace popart {
namespace pe = popops::expr;

void growBatchNorm(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  const auto &bn = static_cast<const BatchNormOp &>(op);
  poplar::Tensor x = ctx.get(op.inTensor(0));
  const poplar::Tensor scale = ctx.get(op.inTensor(1)), bias = ctx.get(op.inTensor(2)),
                       mean = ctx.get(op.inTensor(3)), var = ctx.get(op.inTensor(4));
  const poplar::Tensor multiplicand = popops::map(
      ctx.graph, pe::_1 / pe::Sqrt(pe::_2 + pe::Const(bn.epsilon)),
      {scale, var}, prog, op.name() + "/multiplicand");
  const poplar::Tensor addend =
      popops::map(ctx.graph, pe::_1 - pe::_2 * pe::_3,
                  {bias, mean, multiplicand}, prog, op.name() + "/addend");
  // popnn sees [N, C, field...]; a [N, C] input gets a field of one.
  const bool flat = x.rank() == 2;
  if (flat)
    x = x.expand({2});
  poplar::Tensor y =
      popnn::bn::batchNormalise(ctx.graph, x, multiplicand, addend, prog, op.name());
  if (flat)
    y = y.squeeze({2});
  ctx.set(*op.outputs[0], y);
}

} // namespace popart
