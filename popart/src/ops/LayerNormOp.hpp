#ifndef POPART_SRC_OPS_LAYERNORMOP_HPP
#define POPART_SRC_OPS_LAYERNORMOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// LayerNormalization (opset 17): X normalised over its dimensions from
/// `axis` on, then scaled and shifted by Scale and B (of those
/// dimensions' shape); the optional outputs Mean and InvStdDev keep the
/// normalised dimensions as 1. Statistics in FLOAT (stash_type 1).
class LayerNormOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<LayerNormOp>(*this);
  }
  LayerNormOp(const OperatorIdentifier &id, const Op::Settings &settings,
              const Attributes &a);
  void setup() override;
  int64_t axis; // normalised by setup()
  float epsilon;
  /// Elements per normalised row, and rows.
  int64_t inner = 1, outer = 1;
  bool isNorm() const override { return true; }
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradients of the data, scale and bias. Inputs: Y's gradient, X and
/// the scale.
class LayerNormGradOp : public GradOp {
public:
  explicit LayerNormGradOp(const LayerNormOp &fwd)
      : GradOp(fwd, "LayerNormalizationGrad",
               {{0, 0, GradOpInType::GradOut},
                {1, 0, GradOpInType::In},
                {2, 1, GradOpInType::In}},
               fwd.hasInput(2) ? std::map<int, int>{{0, 0}, {1, 1}, {2, 2}}
                               : std::map<int, int>{{0, 0}, {1, 1}}),
        epsilon(fwd.epsilon), inner(fwd.inner), outer(fwd.outer) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<LayerNormGradOp>(*this);
  }
  float epsilon;
  int64_t inner, outer;
};

} // namespace popart

#endif
