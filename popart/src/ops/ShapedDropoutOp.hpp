#ifndef POPART_SRC_OPS_SHAPEDDROPOUTOP_HPP
#define POPART_SRC_OPS_SHAPEDDROPOUTOP_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <cstdint>
#include <memory>

namespace popart {

/// ShapedDropout (ai.graphcore): dropout with one keep/drop draw per
/// element of a mask of the `shape` attribute, numpy-broadcast to the
/// input (so whole rows, columns ... are dropped together); kept elements
/// are scaled by 1 / (1 - ratio). Active in training (and IRs built op by
/// op) with a ratio above 0, the identity otherwise. The grad op draws the
/// same mask from the same seed.
class ShapedDropoutOp : public Op {
public:
  ShapedDropoutOp(const OperatorIdentifier &id, const Op::Settings &settings,
                  const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ShapedDropoutOp>(*this);
  }
  void setup() override;
  bool isActive() const;
  bool isIdentityLike() const override { return !isActive(); }
  bool requiresRandomSeed() const override { return isActive(); }
  std::vector<std::unique_ptr<Op>> getGradOps() override;

  Shape shape;
  float ratio;
  uint32_t seedModifier;
};

class ShapedDropoutGradOp : public GradOp {
public:
  explicit ShapedDropoutGradOp(const ShapedDropoutOp &fwd)
      : GradOp(fwd, "ShapedDropoutGrad", {{0, 0, GradOpInType::GradOut}},
               {{0, 0}}),
        shape(fwd.shape), ratio(fwd.isActive() ? fwd.ratio : 0.0f),
        seedModifier(fwd.seedModifier) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ShapedDropoutGradOp>(*this);
  }
  bool requiresRandomSeed() const override { return ratio > 0.0f; }
  Shape shape;
  float ratio;
  uint32_t seedModifier;
};

} // namespace popart

#endif
