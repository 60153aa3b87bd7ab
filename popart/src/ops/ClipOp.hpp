#ifndef POPART_SRC_OPS_CLIPOP_HPP
#define POPART_SRC_OPS_CLIPOP_HPP

#include "ops/GradOp.hpp"
#include "ops/InplaceVariant.hpp"
#include <popart/attributes.hpp>

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Clip-6 (min, max attributes) and Clip-11/12/13 (optional inputs, each
/// a constant folded into the program or a tensor read on the device).
class ClipOp : public InplaceCapableOp<ClipOp> {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ClipOp>(*this);
  }
  ClipOp(const OperatorIdentifier &id, const Op::Settings &settings,
         const Attributes &a);
  void setup() override;
  /// In place (ClipInplace): the clipped values written into the input.
  static const std::vector<InplaceForm> &inplaceForms();
  /// Types of fewer than 32 bits are clipped as INT, apart from their
  /// storage: those stay out of place.
  bool canRunInPlace() const;
  float min, max;
  /// The bound is input 1 (min) or 2 (max), not a constant.
  bool minIsTensor = false, maxIsTensor = false;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of the clipped input: the output's gradient where the
/// input is within the bounds. Inputs: the gradient, the input, and the
/// bounds that are tensors (at 2 and 3).
class ClipGradOp : public GradOp {
public:
  explicit ClipGradOp(const ClipOp &fwd);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ClipGradOp>(*this);
  }
  float min, max;
  bool minIsTensor, maxIsTensor;
};

inline std::vector<std::unique_ptr<Op>> ClipOp::getGradOps() {
  return gradOps<ClipGradOp>(*this);
}

} // namespace popart

#endif
