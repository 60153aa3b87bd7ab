#ifndef POPART_SRC_OPS_BINARYOP_HPP
#define POPART_SRC_OPS_BINARYOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"
#include "ops/InplaceVariant.hpp"

#include <popart/op.hpp>

#include <memory>
#include <popart/vendored/optional.hpp>

namespace popart {

/// Add, Sub, Mul, Div, Pow, Equal, Less, Greater, LessOrEqual,
/// GreaterOrEqual, And, Or, Xor, Mod, BitShift, PRelu: two inputs
/// broadcast as numpy does (comparisons give BOOL).
class BinaryOp : public InplaceCapableOp<BinaryOp> {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<BinaryOp>(*this);
  }
  BinaryOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &a);
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  bool isComparison() const;
  /// Mod: the sign of the dividend (C fmod) when true, else of the divisor.
  bool fmod = false;
  /// BitShift: towards the most significant bit when true.
  bool shiftLeft = true;
  /// The shape the second input is seen as before numpy broadcasting
  /// (empty: its own): before opset 7, its dimensions from `axis` of the
  /// first input's (broadcast=1 with an axis), or PRelu's 1-D slope of C
  /// values along dimension 1.
  Shape rhsView;
  std::vector<std::unique_ptr<Op>> getGradOps() override;

  /// In place (<type>LhsInplace, <type>RhsInplace): the result written
  /// into the argument of the output's shape and type.
  static const std::vector<InplaceForm> &inplaceForms();
  bool canRunInPlace() const;

private:
  /// Before opset 7: broadcast=1 with this axis (see rhsView).
  nonstd::optional<int64_t> legacyAxis;
};

/// The gradient of argument `arg` of Add, Sub, Mul, Div or Pow: inputs
/// the output's gradient, both arguments and the output; summed back to
/// the argument's shape where it was broadcast.
class BinaryGradOp : public GradOp {
public:
  BinaryGradOp(const BinaryOp &fwd, int arg);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<BinaryGradOp>(*this);
  }
  std::string fwdType;
  int arg;
  bool fmod; // Mod's
  Shape rhsView;
};

} // namespace popart

#endif
