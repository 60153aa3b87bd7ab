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
  if (t == "Celu")
    return make(pe::Max(x, c(0.0f)) +
                pe::Min(c(0.0f), c(op.alpha) * (pe::Exp(x / c(op.alpha)) - c(1.0f))));
  if (t == "HardSwish")
    return make(x * pe::Clamp(x * c(1.0f / 6.0f) + c(0.5f), c(0.0f), c(1.0f)));
  if (t == "Shrink")
    return make(pe::Select(x + c(op.beta),
                           pe::Select(x - c(op.beta), c(0.0f), pe::Gt(x, c(op.alpha))),
                           pe::Lt(x, c(-op.alpha))));
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
  const auto &unary = static_cast<const UnaryOp &>(op);
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  // The in-place variant (ReluInplace, ...) writes the result into the input.
  const bool inplace = unary.inplaceInput == 0;
  auto apply = [&](const pe::Expr &e) {
    if (!inplace)
      return popops::map(ctx.graph, e, {in}, prog, op.name());
    popops::mapInPlace(ctx.graph, e, {in}, prog, op.name());
    return in;
  };
  poplar::Tensor out;
  const auto &type = op.opid.type;
  auto it = operations.find(type);
  if (it != operations.end()) {
    if (inplace) {
      popops::mapInPlace(ctx.graph, it->second, in, prog, op.name());
      out = in;
    } else {
      out = popops::map(ctx.graph, it->second, in, prog, op.name());
    }
  } else if (type == "LeakyRelu") {
    out = apply(pe::Select(pe::_1, pe::_1 * pe::Const(unary.alpha),
                           pe::Gt(pe::_1, pe::Const(0.0f))));
  } else if (type == "Gelu") {
    // The tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
    out = apply(pe::Const(0.5f) * pe::_1 *
                (pe::Const(1.0f) +
                 pe::Tanh(pe::Const(0.7978845608f) *
                          (pe::_1 + pe::Const(0.044715f) * pe::_1 * pe::_1 *
                                        pe::_1))));
  } else if (auto e = expressionOf(unary)) {
    out = apply(*e);
  } else {
    throw internal_error("No unary lowering for {}", op.str());
  }
  ctx.set(*op.outputs[0], out);
}

namespace {

// The gradient of each unary op as an expression of the output's gradient
// g (_1), the input x (_2) and the output y (_3).
pe::Any gradientOf(const UnaryGradOp &op) {
  const auto &t = op.fwdType;
  const auto g = pe::_1, x = pe::_2, y = pe::_3;
  auto c = [](float v) { return pe::Const(v); };
  const float sqrtTwoOverPi = 0.7978845608028654f;
  if (t == "Abs")
    return g * pe::Signum(x);
  if (t == "Neg")
    return -g;
  if (t == "Exp")
    return g * y;
  if (t == "Log")
    return g / x;
  if (t == "Sqrt")
    return g * c(0.5f) / y;
  if (t == "Relu")
    return pe::Select(g, c(0.0f), pe::Gt(y, c(0.0f)));
  if (t == "Sigmoid")
    return g * y * (c(1.0f) - y);
  if (t == "Tanh")
    return g * (c(1.0f) - y * y);
  if (t == "Erf")
    return g * c(1.1283791670955126f) * pe::Exp(-(x * x));
  if (t == "Reciprocal")
    return -(g * y * y);
  if (t == "Floor" || t == "Ceil" || t == "Round" || t == "Sign")
    return g * c(0.0f);
  if (t == "Sin")
    return g * pe::Cos(x);
  if (t == "Cos")
    return -(g * pe::Sin(x));
  if (t == "Tan")
    return g * (c(1.0f) + y * y);
  if (t == "Asin")
    return g / pe::Sqrt(c(1.0f) - x * x);
  if (t == "Acos")
    return -(g / pe::Sqrt(c(1.0f) - x * x));
  if (t == "Atan")
    return g / (c(1.0f) + x * x);
  if (t == "Sinh")
    return g * (pe::Exp(x) + pe::Exp(-x)) * c(0.5f);
  if (t == "Cosh")
    return g * (pe::Exp(x) - pe::Exp(-x)) * c(0.5f);
  if (t == "Asinh")
    return g / pe::Sqrt(x * x + c(1.0f));
  if (t == "Acosh")
    return g / pe::Sqrt(x * x - c(1.0f));
  if (t == "Atanh")
    return g / (c(1.0f) - x * x);
  if (t == "LeakyRelu")
    return pe::Select(g, g * c(op.alpha), pe::Gt(x, c(0.0f)));
  if (t == "Elu")
    return pe::Select(g, g * (y + c(op.alpha)), pe::Gt(x, c(0.0f)));
  if (t == "Selu")
    return pe::Select(g * c(op.gamma), g * (y + c(op.gamma * op.alpha)),
                      pe::Gt(x, c(0.0f)));
  if (t == "HardSigmoid") {
    const auto z = c(op.alpha) * x + c(op.beta);
    return pe::Select(g * c(op.alpha), c(0.0f),
                      pe::And(pe::Gt(z, c(0.0f)), pe::Lt(z, c(1.0f))));
  }
  if (t == "ThresholdedRelu")
    return pe::Select(g, c(0.0f), pe::Gt(x, c(op.alpha)));
  if (t == "Softplus")
    return g * pe::Sigmoid(x);
  if (t == "Celu")
    return pe::Select(g, g * pe::Exp(x / c(op.alpha)), pe::Gt(x, c(0.0f)));
  if (t == "HardSwish")
    return pe::Select(
        c(0.0f),
        pe::Select(g, g * (x * c(1.0f / 3.0f) + c(0.5f)), pe::Gt(x, c(3.0f))),
        pe::Lt(x, c(-3.0f)));
  if (t == "Shrink")
    return pe::Select(g, c(0.0f),
                      pe::Or(pe::Lt(x, c(-op.alpha)), pe::Gt(x, c(op.alpha))));
  if (t == "Softsign")
    return g / pe::Square(c(1.0f) + pe::Abs(x));
  if (t == "Gelu") {
    const auto th = pe::Tanh(c(sqrtTwoOverPi) * (x + c(0.044715f) * x * x * x));
    return g * (c(0.5f) * (c(1.0f) + th) +
                c(0.5f) * x * (c(1.0f) - th * th) * c(sqrtTwoOverPi) *
                    (c(1.0f) + c(3.0f * 0.044715f) * x * x));
  }
  if (t == "GeluErf")
    return g * (c(0.5f) * (c(1.0f) + pe::Erf(x * c(0.7071067811865476f))) +
                x * pe::Exp(c(-0.5f) * x * x) * c(0.3989422804014327f));
  if (t == "Square")
    return g * c(2.0f) * x;
  if (t == "Swish") {
    const auto s = pe::Sigmoid(x);
    return g * s * (c(1.0f) + x * (c(1.0f) - s));
  }
  if (t == "Log1p")
    return g / (c(1.0f) + x);
  if (t == "Expm1")
    return g * (y + c(1.0f));
  throw error("{} has no gradient", op.str());
}

} // namespace

void growUnaryGrad(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const UnaryGradOp &>(op);
  const poplar::Tensor g = ctx.get(op.inTensor(0));
  const poplar::Tensor x = ctx.get(op.inTensor(1));
  const poplar::Tensor y = ctx.get(op.inTensor(2));
  ctx.set(op.outputs[0],
          popops::map(ctx.graph, gradientOf(grad), {g, x, y}, prog, op.name()));
}

} // namespace popart
