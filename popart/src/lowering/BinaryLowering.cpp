// BinaryOp: popops::map of the operation, with numpy broadcasting.
#include "lowering/Lowering.hpp"

#include <popart/error.hpp>

#include <popops/ElementWise.hpp>

#include <map>

namespace popart {

void growBinary(const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  using B = popops::expr::BinaryOpType;
  static const std::map<std::string, B> operations = {
      {"Add", B::ADD},           {"Sub", B::SUBTRACT},
      {"Mul", B::MULTIPLY},      {"Div", B::DIVIDE},
      {"Pow", B::POWER},         {"Equal", B::EQUAL},
      {"Less", B::LESS_THAN},    {"Greater", B::GREATER_THAN},
      {"And", B::LOGICAL_AND},   {"Or", B::LOGICAL_OR}};
  auto it = operations.find(op.opid.type);
  if (it == operations.end())
    throw internal_error("No binary lowering for {}", op.str());
  ctx.set(*op.outputs[0],
          popops::map(ctx.graph, it->second, ctx.get(op.inTensor(0)),
                      ctx.get(op.inTensor(1)), prog, op.name));
}

} // namespace popart
