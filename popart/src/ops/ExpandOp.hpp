#ifndef POPART_SRC_OPS_EXPANDOP_HPP
#define POPART_SRC_OPS_EXPANDOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Expand: the input broadcast (numpy rule) with a constant shape.
class ExpandOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ExpandOp>(*this);
  }
  ExpandOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &)
      : Op(id, settings) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of an expansion: the output's gradient summed back to the
/// input's shape.
class ExpandGradOp : public GradOp {
public:
  explicit ExpandGradOp(const Op &fwd)
      : GradOp(fwd, "ExpandGrad", {{0, 0, GradOpInType::GradOut}}, {{0, 0}}) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ExpandGradOp>(*this);
  }
};

} // namespace popart

#endif
