// VariadicOp (Max, Min, Sum, Mean of any number of inputs): pairwise maps.
#include "lowering/Lowering.hpp"

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
  poplar::Tensor acc = ctx.get(op.inTensor(0));
  for (std::size_t i = 1; i < op.inputs.size(); ++i)
    acc = popops::map(ctx.graph, operation, acc,
                      ctx.get(op.inTensor(static_cast<int>(i))), prog, op.name);
  if (op.inputs.size() == 1)
    acc = copyOf(ctx, acc, prog, op.name);
  if (type == "Mean")
    acc = popops::map(ctx.graph,
                      pe::_1 / pe::Const(static_cast<float>(op.inputs.size())),
                      {acc}, prog, op.name);
  ctx.set(*op.outputs[0], acc);
}

} // namespace popart
