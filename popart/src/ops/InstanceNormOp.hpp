#ifndef POPART_SRC_OPS_INSTANCENORMOP_HPP
#define POPART_SRC_OPS_INSTANCENORMOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// InstanceNormalization: X [N, C, field...] normalised over the field of
/// each (sample, channel), then scaled and shifted per channel.
class InstanceNormOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<InstanceNormOp>(*this);
  }
  InstanceNormOp(const OperatorIdentifier &id, const Op::Settings &settings,
                 const Attributes &a);
  void setup() override;
  float epsilon;
  bool isNorm() const override { return true; }
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradients of the data, scale and bias. Inputs: Y's gradient, X and
/// the scale.
class InstanceNormGradOp : public GradOp {
public:
  explicit InstanceNormGradOp(const InstanceNormOp &fwd)
      : GradOp(fwd, "InstanceNormalizationGrad",
               {{0, 0, GradOpInType::GradOut},
                {1, 0, GradOpInType::In},
                {2, 1, GradOpInType::In}},
               {{0, 0}, {1, 1}, {2, 2}}),
        epsilon(fwd.epsilon) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<InstanceNormGradOp>(*this);
  }
  float epsilon;
};

} // namespace popart

#endif
