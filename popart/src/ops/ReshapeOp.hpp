#ifndef POPART_SRC_OPS_RESHAPEOP_HPP
#define POPART_SRC_OPS_RESHAPEOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Reshape, Flatten, Squeeze, Unsqueeze: the same elements in a new
/// shape (from an attribute, a constant input or the input's shape).
class ReshapeOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ReshapeOp>(*this);
  }
  ReshapeOp(const OperatorIdentifier &id, const Op::Settings &settings,
            const Attributes &a);
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override { return inTensor(0)->data; }
  std::vector<int64_t> attrShape; // Reshape-1, ai.graphcore Reshape
  std::vector<int64_t> axes;      // Squeeze, Unsqueeze before opset 13
  bool axesGiven = false;
  int64_t axis = 1;               // Flatten
  /// Reshape-14 allowzero=1: a 0 in the shape is a dimension of size 0,
  /// not the input's dimension.
  bool allowZero = false;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of a reshape: the output's gradient in the input's shape.
class ReshapeGradOp : public GradOp {
public:
  explicit ReshapeGradOp(const Op &fwd)
      : GradOp(fwd, "ReshapeGrad", {{0, 0, GradOpInType::GradOut}}, {{0, 0}}) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ReshapeGradOp>(*this);
  }
};

} // namespace popart

#endif
