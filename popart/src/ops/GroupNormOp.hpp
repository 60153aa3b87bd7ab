#ifndef POPART_SRC_OPS_GROUPNORMOP_HPP
#define POPART_SRC_OPS_GROUPNORMOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// GroupNormalization (ai.graphcore): X [N, C, ...] normalised over each
/// group of C / num_groups consecutive channels and the other dimensions,
/// then scaled and shifted per channel by Scale and Bias ([C]). Outputs Y,
/// and the Mean and InvStdDev of each (sample, group), [N * num_groups] of
/// X's type.
class GroupNormOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GroupNormOp>(*this);
  }
  GroupNormOp(const OperatorIdentifier &id, const Op::Settings &settings,
              const Attributes &a);
  void setup() override;
  int64_t numGroups;
  float epsilon;
  bool isNorm() const override { return true; }
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradients of X, Scale and Bias. Inputs: Y's gradient, X, Scale and
/// the forward Mean and InvStdDev.
class GroupNormGradOp : public GradOp {
public:
  explicit GroupNormGradOp(const GroupNormOp &fwd)
      : GradOp(fwd, "GroupNormalizationGrad",
               {{0, 0, GradOpInType::GradOut},
                {1, 0, GradOpInType::In},
                {2, 1, GradOpInType::In},
                {3, 1, GradOpInType::Out},
                {4, 2, GradOpInType::Out}},
               {{0, 0}, {1, 1}, {2, 2}}) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GroupNormGradOp>(*this);
  }
};

} // namespace popart

#endif
