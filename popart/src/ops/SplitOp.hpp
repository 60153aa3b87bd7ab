#ifndef POPART_SRC_OPS_SPLITOP_HPP
#define POPART_SRC_OPS_SPLITOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Split along an axis into the sizes given (attribute before opset 13,
/// constant input after), or into equal parts.
class SplitOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<SplitOp>(*this);
  }
  SplitOp(const OperatorIdentifier &id, const Op::Settings &settings,
          const Attributes &a);
  void setup() override;
  int64_t axis;
  std::vector<int64_t> sizes;
  std::vector<std::unique_ptr<Op>> getGradOps() override;

private:
  std::vector<int64_t> attrSplit;
};

/// The gradient of a split: the outputs' gradients concatenated.
class SplitGradOp : public GradOp {
public:
  SplitGradOp(const SplitOp &fwd, std::vector<GradInOutMapper> inInfo)
      : GradOp(fwd, "SplitGrad", std::move(inInfo), {{0, 0}}), axis(fwd.axis) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<SplitGradOp>(*this);
  }
  int64_t axis;
};

} // namespace popart

#endif
