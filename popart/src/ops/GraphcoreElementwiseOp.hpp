#ifndef POPART_SRC_OPS_GRAPHCOREELEMENTWISEOP_HPP
#define POPART_SRC_OPS_GRAPHCOREELEMENTWISEOP_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// The element-wise ops of ai.graphcore that the ONNX domain lacks:
/// Atan2 (inputs [y, x]: the angle of (x, y)), Fmod (the remainder with
/// the sign of the dividend, as C's fmod), Remainder (with the sign of the
/// divisor, as Python's %), BitwiseAnd, BitwiseOr, BitwiseXor, BitwiseXnor
/// (INT32 or UINT32, numpy broadcasting) and BitwiseNot, NearbyInt (to
/// the nearest integer, ties to even), IncrementMod ((x + increment) fmod
/// modulus) and Bucketize (inputs [x, boundaries]: the INT32 number of
/// boundaries below each x, or at most x when `right`).
class GraphcoreElementwiseOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GraphcoreElementwiseOp>(*this);
  }
  GraphcoreElementwiseOp(const OperatorIdentifier &id,
                         const Op::Settings &settings, const Attributes &a);
  void setup() override;
  bool isUnary() const;
  bool isBitwise() const;
  float increment = 0.0f, modulus = 1.0f; // IncrementMod
  bool right = false;                     // Bucketize
  /// Atan2: of both inputs; Fmod and Remainder: of the dividend (the
  /// divisor has none, as in the original); NearbyInt: zero; the bitwise
  /// ops have none.
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of input `arg` of a GraphcoreElementwiseOp: inputs the
/// output's gradient and the forward inputs, summed back to the input's
/// shape where it was broadcast.
class GraphcoreElementwiseGradOp : public GradOp {
public:
  GraphcoreElementwiseGradOp(const GraphcoreElementwiseOp &fwd, int arg);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GraphcoreElementwiseGradOp>(*this);
  }
  std::string fwdType;
  int arg;
};

} // namespace popart

#endif
