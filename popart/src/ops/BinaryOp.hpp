#ifndef POPART_SRC_OPS_BINARYOP_HPP
#define POPART_SRC_OPS_BINARYOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Add, Sub, Mul, Div, Pow, Equal, Less, Greater, LessOrEqual,
/// GreaterOrEqual, And, Or, Xor, Mod: two inputs
/// broadcast as numpy does (comparisons give BOOL).
class BinaryOp : public Op {
public:
  BinaryOp(const OperatorIdentifier &id, const std::string &name,
           const Attributes &a);
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  bool isComparison() const;
  /// Mod: the sign of the dividend (C fmod) when true, else of the divisor.
  bool fmod = false;
};

} // namespace popart

#endif
