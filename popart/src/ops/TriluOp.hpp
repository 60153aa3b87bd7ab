#ifndef POPART_SRC_OPS_TRILUOP_HPP
#define POPART_SRC_OPS_TRILUOP_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// The triangle Trilu keeps: on and above (upper) or on and below the
/// diagonal k.
struct Triangle {
  bool upper = true;
  int64_t k = 0;
  /// Whether element (row, column) of a matrix is kept.
  bool keeps(int64_t row, int64_t column) const {
    return upper ? column - row >= k : column - row <= k;
  }
};

/// Trilu: the upper (upper = 1) or lower triangle of the last two
/// dimensions, from the diagonal k (a constant input, 0 if absent); the
/// other elements are zeros.
class TriluOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<TriluOp>(*this);
  }
  TriluOp(const OperatorIdentifier &id, const Op::Settings &settings,
          const Attributes &a)
      : Op(id, settings) {
    triangle.upper = a.getInt("upper", 1) != 0;
  }
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  Triangle triangle;
};

/// The gradient of Trilu: the output's gradient on the kept triangle.
class TriluGradOp : public GradOp {
public:
  explicit TriluGradOp(const TriluOp &fwd)
      : GradOp(fwd, "TriluGrad", {{0, 0, GradOpInType::GradOut}}, {{0, 0}}),
        triangle(fwd.triangle) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<TriluGradOp>(*this);
  }
  Triangle triangle;
};

} // namespace popart

#endif
