// UnaryOp: popops::map of one operation, or of an expression for the ops
// PopLibs has no single operation for (LeakyRelu, Gelu, Elu, Sinh, ...).
#include "lowering/Lowering.hpp"
#include "ops/UnaryOp.hpp"

#include <popart/error.hpp>

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

#include <map>
#include <memory>

namespace popart {
namespace pe = popops::expr;

namespace {

// The ops PopLibs has no single operation for, as expressions of x (_1).
std::unique_ptr<pe::Expr> expressionOf(const UnaryOp &op) {
  const auto &t = op.opid.type;
  const auto x = pe::_1;
  auto c = [](float v) { return pe::Const(v); };
  auto make = [](const pe::Expr &e) { return e.clone(); };
  if (t == "Swish")
    return make(x * pe::Sigmoid(x));
  if (t == "Elu")
    return make(pe::Select(x, c(op.alpha) * (pe::Exp(x) - c(1.0f)), pe::Gt(x, c(0.0f))));
  if (t == "Selu")
    return make(c(op.gamma) * pe::Select(x, c(op.alpha) * (pe::Exp(x) - c(1.0f)),
                                        pe::Gt(x, c(0.0f))));
  if (t == "HardSigmoid")
    return make(pe::Clamp(c(op.alpha) * x + c(op.beta), c(0.0f), c(1.0f)));
  if (t == "ThresholdedRelu")
    return make(pe::Select(x, c(0.0f), pe::Gt(x, c(op.alpha))));
  if (t == "Softplus")
    return make(pe::Log(pe::Exp(x) + c(1.0f)));
  if (t == "Softsign")
    return make(x / (pe::Abs(x) + c(1.0f)));
  if (t == "Sinh")
    return make((pe::Exp(x) - pe::Exp(-x)) * c(0.5f));
  if (t == "Cosh")
    return make((pe::Exp(x) + pe::Exp(-x)) * c(0.5f));
  if (t == "Acos")
    return make(c(1.57079632679f) - pe::Asin(x));
  if (t == "Atan")
    return make(pe::Asin(x / pe::Sqrt(x * x + c(1.0f))));
  if (t == "Asinh")
    return make(pe::Log(x + pe::Sqrt(x * x + c(1.0f))));
  if (t == "Acosh")
    return make(pe::Log(x + pe::Sqrt(x * x - c(1.0f))));
  if (t == "Atanh")
    return make(c(0.5f) * pe::Log((c(1.0f) + x) / (c(1.0f) - x)));
  if (t == "IsInf") {
    if (op.detectNegative && op.detectPositive)
      return make(pe::IsInf(x));
    if (op.detectPositive)
      return make(pe::And(pe::IsInf(x), pe::Gt(x, c(0.0f))));
    if (op.detectNegative)
      return make(pe::And(pe::IsInf(x), pe::Lt(x, c(0.0f))));
    return make(pe::And(pe::IsInf(x), pe::Not(pe::IsInf(x))));
  }
  return nullptr;
}

} // namespace

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
      {"Tan", pe::UnaryOpType::TAN},        {"Asin", pe::UnaryOpType::ASIN},
      {"IsNaN", pe::UnaryOpType::IS_NAN},
      // ONNX rounds halves to even, as nearbyint does.
      {"Round", pe::UnaryOpType::NEARBY_INT},
      {"Expm1", pe::UnaryOpType::EXPONENT_MINUS_ONE}};
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  poplar::Tensor out;
  const auto &type = op.opid.type;
  auto it = operations.find(type);
  if (it != operations.end()) {
    out = popops::map(ctx.graph, it->second, in, prog, op.name());
  } else if (type == "LeakyRelu") {
    const float alpha = static_cast<const UnaryOp &>(op).alpha;
    out = popops::map(ctx.graph,
                      pe::Select(pe::_1, pe::_1 * pe::Const(alpha),
                                 pe::Gt(pe::_1, pe::Const(0.0f))),
                      {in}, prog, op.name());
  } else if (type == "Gelu") {
    // The tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
    out = popops::map(
        ctx.graph,
        pe::Const(0.5f) * pe::_1 *
            (pe::Const(1.0f) +
             pe::Tanh(pe::Const(0.7978845608f) *
                      (pe::_1 + pe::Const(0.044715f) * pe::_1 * pe::_1 * pe::_1))),
        {in}, prog, op.name());
  } else if (auto e = expressionOf(static_cast<const UnaryOp &>(op))) {
    out = popops::map(ctx.graph, *e, {in}, prog, op.name());
  } else {
    throw internal_error("No unary lowering for {}", op.str());
  }
  ctx.set(*op.outputs[0], out);
}

} // namespace popart
