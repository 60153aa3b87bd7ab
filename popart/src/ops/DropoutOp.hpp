// Dropout: in training, each element is kept with probability 1 - ratio
// and scaled by 1 / (1 - ratio), from the session's random seed; in
// inference (and with training_mode false) it is the identity. The grad op
// draws the same mask from the same seed (the seed attribute's, when the
// node has one: the same mask on every run). Dropout-12 and 13's ratio and
// training_mode inputs may be computed at run time in an InferenceSession:
// the device then chooses between the identity and the draw.
#ifndef POPART_SRC_OPS_DROPOUTOP_HPP
#define POPART_SRC_OPS_DROPOUTOP_HPP

#include "ops/GradOp.hpp"
#include "ops/RandomOps.hpp"

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
  /// Whether training_mode is on (given as a constant true, or absent in a
  /// training session or an IR built op by op), off, or read at run time.
  enum class Mode { Off, On, Runtime };
  /// Whether elements may be dropped (the mode not off, and a ratio above
  /// 0 or read at run time).
  bool isActive() const;
  /// Whether the ratio or the mode is read at run time (input 1, input 2).
  bool readsInputsAtRunTime() const {
    return mode == Mode::Runtime || runtimeRatio;
  }
  bool isIdentityLike() const override { return !isActive(); }
  bool requiresRandomSeed() const override { return isActive(); }
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  void appendAttributes(OpSerialiserBase &os) const override;

  float ratio = 0.5f; // when not read at run time
  bool runtimeRatio = false;
  Mode mode = Mode::Off;
  /// The session's seed with a modifier distinguishing this dropout's
  /// numbers from other ops', or the seed attribute (Dropout-12 and 13)
  /// alone; the same for its grad op.
  RandomSeedChoice seed;
};

class DropoutGradOp : public GradOp {
public:
  explicit DropoutGradOp(const DropoutOp &fwd);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<DropoutGradOp>(*this);
  }
  bool requiresRandomSeed() const override { return ratio > 0.0f; }
  float ratio;
  RandomSeedChoice seed;
};

} // namespace popart

#endif
