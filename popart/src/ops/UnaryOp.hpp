#ifndef POPART_SRC_OPS_UNARYOP_HPP
#define POPART_SRC_OPS_UNARYOP_HPP

#include "ops/GradOp.hpp"
#include "ops/InplaceVariant.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// One-input element-wise ops: Abs, Neg, Exp, Log, Sqrt, Relu, Sigmoid,
/// Tanh, Erf, Reciprocal, Floor, Ceil, Round, Not, Sign, Sin, Cos, Tan, the
/// inverse and hyperbolic trigonometric functions, LeakyRelu, Elu, Selu,
/// HardSigmoid, ThresholdedRelu, Softplus, Softsign, Celu, HardSwish,
/// Shrink (alpha its lambd, beta its bias), IsNaN, IsInf, and
/// ai.graphcore Gelu, GeluErf, Square, Swish, Log1p, Expm1.
class UnaryOp : public InplaceCapableOp<UnaryOp> {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<UnaryOp>(*this);
  }
  UnaryOp(const OperatorIdentifier &id, const Op::Settings &settings,
          const Attributes &a);
  void setup() override;
  bool canFold() const override;
  std::vector<char> fold() const override;
  // Attributes of the parameterised ones, with ONNX's defaults.
  float alpha = 0.0f, beta = 0.0f, gamma = 0.0f;
  bool detectNegative = true, detectPositive = true; // IsInf
  std::vector<std::unique_ptr<Op>> getGradOps() override;

  /// In place (<type>Inplace): the result written into the input.
  static const std::vector<InplaceForm> &inplaceForms();
};

/// The gradient of a UnaryOp: inputs the output's gradient, the input and
/// the output (each formula uses what it needs).
class UnaryGradOp : public GradOp {
public:
  explicit UnaryGradOp(const UnaryOp &fwd);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<UnaryGradOp>(*this);
  }
  std::string fwdType;
  float alpha, beta, gamma;
};

} // namespace popart

#endif
