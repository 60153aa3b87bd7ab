#ifndef POPART_SRC_OPS_BATCHNORMOP_HPP
#define POPART_SRC_OPS_BATCHNORMOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// BatchNormalization (ai.onnx, and ai.graphcore's form with an unbiased
/// batch variance). In inference: X [N, C, ...] normalised per channel
/// with the running mean and variance, then scaled and shifted.
class BatchNormOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<BatchNormOp>(*this);
  }
  BatchNormOp(const OperatorIdentifier &id, const Op::Settings &settings,
              const Attributes &a);
  void setup() override;
  /// Normalises with the batch's statistics and updates the running ones
  /// in place (outputs beyond Y, or training_mode 1, in a TrainingSession).
  bool isTraining() const;
  /// Normalises with the batch's statistics (outputs beyond Y, or
  /// training_mode 1), in any session. Outside training the moved running
  /// statistics are new tensors: the inputs keep their values.
  bool normalisesWithBatchStatistics() const;
  bool modifiesInputInPlace(InIndex i) const override {
    return isTraining() && updatesRunningStatistics && (i == 3 || i == 4);
  }
  bool isNorm() const override { return true; }
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  float epsilon;
  float momentum;
  /// Whether the batch variance (an output and what the running variance
  /// moves towards) divides by N - 1 rather than N: the ai.graphcore form,
  /// as PyTorch does.
  bool unbiasedVariance = false;
  /// In training, whether the running mean and variance are moved towards
  /// the batch's (not by a copy made again in the backward pass).
  bool updatesRunningStatistics = true;

private:
  bool trainingMode = false;
};

/// The gradients of the data, scale and bias of a batch normalisation in
/// training (the batch's statistics are computed again from the data).
/// Inputs: Y's gradient, X and scale.
class BatchNormGradOp : public GradOp {
public:
  explicit BatchNormGradOp(const BatchNormOp &fwd)
      : GradOp(fwd, "BatchNormalizationGrad",
               {{0, 0, GradOpInType::GradOut},
                {1, 0, GradOpInType::In},
                {2, 1, GradOpInType::In}},
               {{0, 0}, {1, 1}, {2, 2}}),
        epsilon(fwd.epsilon) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<BatchNormGradOp>(*this);
  }
  float epsilon;
};

} // namespace popart

#endif
