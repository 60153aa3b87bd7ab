// VariadicOp (Max, Min, Sum, Mean of any number of inputs): pairwise maps.
#include "lowering/Lowering.hpp"
#include "ops/VariadicOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

namespace popart {
namespace pe = popops::expr;

void growVariadic(const Op &op, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  const auto &type = op.opid.type;
  const auto operation = type == "Max"   ? pe::BinaryOpType::MAXIMUM
                         : type == "Min" ? pe::BinaryOpType::MINIMUM
                                         : pe::BinaryOpType::ADD;
  const poplar::Type outType = deviceType(op.outputs[0]->info.dataType());
  const poplar::Type compute = arithmeticType(outType);
  poplar::Tensor acc = castTo(ctx, ctx.get(op.inTensor(0)), compute, prog, op.name());
  for (std::size_t i = 1; i < op.inputs.size(); ++i)
    acc = popops::map(
        ctx.graph, operation, acc,
        castTo(ctx, ctx.get(op.inTensor(static_cast<int>(i))), compute, prog, op.name()),
        prog, op.name());
  if (op.inputs.size() == 1)
    acc = copyOf(ctx, acc, prog, op.name());
  if (type == "Mean")
    acc = popops::map(ctx.graph,
                      pe::_1 / pe::Const(static_cast<float>(op.inputs.size())),
                      {acc}, prog, op.name());
  ctx.set(*op.outputs[0], castTo(ctx, acc, outType, prog, op.name()));
}


void growVariadicGrad(const Op &op, LoweringContext &ctx,
                      poplar::program::Sequence &prog) {
  namespace pe = popops::expr;
  const auto &grad = static_cast<const VariadicGradOp &>(op);
  const poplar::Tensor g = ctx.get(op.inTensor(0));
  const poplar::Tensor x = ctx.get(op.inTensor(1));
  const poplar::Tensor y = ctx.get(op.inTensor(2));
  pe::Any e = pe::_1;
  if (grad.fwdType == "Mean")
    e = pe::_1 / pe::Const(static_cast<float>(grad.numInputs));
  else if (grad.fwdType == "Max" || grad.fwdType == "Min")
    e = pe::Select(pe::_1, pe::Const(0.0f), pe::Equal(pe::_2, pe::_3));
  poplar::Tensor full = popops::map(ctx.graph, e, {g, x, y}, prog, op.name());
  ctx.set(op.outputs[0],
          reduceToShape(ctx, full, op.outputs[0]->info.shape(), prog, op.name()));
}

} // namespace popart
