// Dropout: in training, each element is kept with probability 1 - ratio
// and scaled by 1 / (1 - ratio), from the session's random seed; in
// inference (and with training_mode false) it is the identity. The grad op
// draws the same mask from the same seed.
#ifndef POPART_SRC_OPS_DROPOUTOP_HPP
#define POPART_SRC_OPS_DROPOUTOP_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <cstdint>
#include <memory>

namespace popart {

class DropoutOp : public Op {
public:
  DropoutOp(const OperatorIdentifier &id, const Op::Settings &settings,
            const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<DropoutOp>(*this);
  }
  void setup() override;
  /// Whether elements are dropped (a training session or an IR built op
  /// by op, a ratio above 0, and training_mode not false).
  bool isActive() const;
  bool isIdentityLike() const override { return !isActive(); }
  bool requiresRandomSeed() const override { return isActive(); }
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  void appendAttributes(OpSerialiserBase &os) const override;

  float ratio = 0.5f;
  /// Distinguishes this dropout's numbers from other ops' (the same for
  /// its grad op).
  uint32_t seedModifier = 0;

private:
  bool trainingModeInput = true;
};

class DropoutGradOp : public GradOp {
public:
  explicit DropoutGradOp(const DropoutOp &fwd);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<DropoutGradOp>(*this);
  }
  bool requiresRandomSeed() const override { return ratio > 0.0f; }
  float ratio;
  uint32_t seedModifier;
};

} // namespace popart

#endif
