#ifndef POPART_SRC_OPS_CLIPOP_HPP
#define POPART_SRC_OPS_CLIPOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Clip-6 (min, max attributes) and Clip-11/12/13 (optional inputs).
class ClipOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ClipOp>(*this);
  }
  ClipOp(const OperatorIdentifier &id, const Op::Settings &settings,
         const Attributes &a);
  void setup() override;
  float min, max;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of the clipped input: the output's gradient where the
/// input is within the bounds.
class ClipGradOp : public GradOp {
public:
  explicit ClipGradOp(const ClipOp &fwd)
      : GradOp(fwd, "ClipGrad",
               {{0, 0, GradOpInType::GradOut}, {1, 0, GradOpInType::In}},
               {{0, 0}}),
        min(fwd.min), max(fwd.max) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ClipGradOp>(*this);
  }
  float min, max;
};

inline std::vector<std::unique_ptr<Op>> ClipOp::getGradOps() {
  return gradOps<ClipGradOp>(*this);
}

} // namespace popart

#endif
