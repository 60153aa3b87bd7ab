#ifndef POPART_SRC_OPS_BINARYOP_HPP
#define POPART_SRC_OPS_BINARYOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"
#include "ops/InplaceVariant.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Add, Sub, Mul, Div, Pow, Equal, Less, Greater, LessOrEqual,
/// GreaterOrEqual, And, Or, Xor, Mod: two inputs
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
  std::vector<std::unique_ptr<Op>> getGradOps() override;

  /// In place (<type>LhsInplace, <type>RhsInplace): the result written
  /// into the argument of the output's shape and type.
  static const std::vector<InplaceForm> &inplaceForms();
  bool canRunInPlace() const;
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
};

} // namespace popart

#endif
