#ifndef POPART_SRC_OPS_CONCATOP_HPP
#define POPART_SRC_OPS_CONCATOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Concat: the inputs joined along an axis.
class ConcatOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ConcatOp>(*this);
  }
  ConcatOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &a)
      : Op(id, settings), axis(a.getInt("axis", 1)) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  int64_t axis;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of input `arg`: its slice of the output's gradient.
class ConcatGradOp : public GradOp {
public:
  ConcatGradOp(const ConcatOp &fwd, int arg, int64_t begin)
      : GradOp(fwd, "ConcatGrad", {{0, 0, GradOpInType::GradOut}}, {{0, arg}}),
        axis(fwd.axis), begin(begin),
        end(begin + fwd.inShape(arg).at(static_cast<std::size_t>(fwd.axis))) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ConcatGradOp>(*this);
  }
  int64_t axis, begin, end;
};

} // namespace popart

#endif
