// UnaryOp: popops::map of one operation, or of an expression for the ops
// PopLibs has no single operation for (LeakyRelu, Gelu, Swish).
#include "lowering/Lowering.hpp"
#include "ops/UnaryOp.hpp"

#include <popart/error.hpp>

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

#include <map>

namespace popart {
namespace pe = popops::expr;

void growUnary(const Op &op, LoweringContext &ctx,
               poplar::program::Sequence &prog) {
  static const std::map<std::string, pe::UnaryOpType> operations = {
      {"Abs", pe::UnaryOpType::ABSOLUTE},   {"Neg", pe::UnaryOpType::NEGATE},
      {"Exp", pe::UnaryOpType::EXPONENT},   {"Log", pe::UnaryOpType::LOGARITHM},
      {"Sqrt", pe::UnaryOpType::SQRT},      {"Relu", pe::UnaryOpType::RELU},
      {"Sigmoid", pe::UnaryOpType::SIGMOID}, {"Tanh", pe::UnaryOpType::TANH},
      {"Erf", pe::UnaryOpType::ERF},        {"Reciprocal", pe::UnaryOpType::INVERSE},
      {"Floor", pe::UnaryOpType::FLOOR},    {"Ceil", pe::UnaryOpType::CEIL},
      {"Not", pe::UnaryOpType::LOGICAL_NOT}, {"Sign", pe::UnaryOpType::SIGNUM},
      {"Sin", pe::UnaryOpType::SIN},        {"Cos", pe::UnaryOpType::COS},
      {"GeluErf", pe::UnaryOpType::GELU_ERF}, {"Square", pe::UnaryOpType::SQUARE},
      {"Log1p", pe::UnaryOpType::LOGARITHM_ONE_PLUS},
      {"Expm1", pe::UnaryOpType::EXPONENT_MINUS_ONE}};
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  poplar::Tensor out;
  const auto &type = op.opid.type;
  auto it = operations.find(type);
  if (it != operations.end()) {
    out = popops::map(ctx.graph, it->second, in, prog, op.name);
  } else if (type == "LeakyRelu") {
    const float alpha = static_cast<const UnaryOp &>(op).alpha;
    out = popops::map(ctx.graph,
                      pe::Select(pe::_1, pe::_1 * pe::Const(alpha),
                                 pe::Gt(pe::_1, pe::Const(0.0f))),
                      {in}, prog, op.name);
  } else if (type == "Gelu") {
    // The tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
    out = popops::map(
        ctx.graph,
        pe::Const(0.5f) * pe::_1 *
            (pe::Const(1.0f) +
             pe::Tanh(pe::Const(0.7978845608f) *
                      (pe::_1 + pe::Const(0.044715f) * pe::_1 * pe::_1 * pe::_1))),
        {in}, prog, op.name);
  } else if (type == "Swish") {
    out = popops::map(ctx.graph, pe::_1 * pe::Sigmoid(pe::_1), {in}, prog, op.name);
  } else {
    throw internal_error("No unary lowering for {}", op.str());
  }
  ctx.set(*op.outputs[0], out);
}

} // namespace popart
