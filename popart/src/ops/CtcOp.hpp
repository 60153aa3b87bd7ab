// The CTC ops of ai.graphcore: the loss (Ctc) with its gradient, and the
// beam search decoder (CtcBeamSearchDecoder, no gradient).
#ifndef POPART_SRC_OPS_CTCOP_HPP
#define POPART_SRC_OPS_CTCOP_HPP

#include "ops/GradOp.hpp"
#include "ops/LossOps.hpp"

#include <popart/attributes.hpp>

#include <memory>

namespace popart {

/// Inputs: log_probs [T, N, C], targets [N, S], input_lengths [N],
/// target_lengths [N] (INT32 or UINT32). Outputs: the loss (reduced, or
/// [N]) and the gradient of each sample's loss with respect to log_probs,
/// [T, N, C], which the gradient op scales by the loss's gradient.
class CtcOp : public LossOp {
public:
  CtcOp(const OperatorIdentifier &id, const Op::Settings &settings,
        const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<CtcOp>(*this);
  }
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  void appendAttributes(OpSerialiserBase &os) const override;

  unsigned blank;
  bool zeroInfinity;
  /// The outputs' type, UNDEFINED for log_probs'.
  DataType outDataType;
};

/// Inputs: the forward gradient output [T, N, C], target_lengths, the
/// loss's gradient. Output: the gradient of log_probs.
class CtcGradOp : public GradOp {
public:
  explicit CtcGradOp(const CtcOp &fwd);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<CtcGradOp>(*this);
  }
  ReductionType reduction;
};

/// Inputs: logProbs [maxTime, batchSize, numClasses], dataLengths
/// [batchSize] (UINT32). Outputs: labelProbs [batchSize, topPaths],
/// labelLengths [batchSize, topPaths], decodedLabels [batchSize, topPaths,
/// maxTime].
class CtcBeamSearchDecoderOp : public Op {
public:
  CtcBeamSearchDecoderOp(const OperatorIdentifier &id,
                         const Op::Settings &settings, const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<CtcBeamSearchDecoderOp>(*this);
  }
  void setup() override;
  void appendAttributes(OpSerialiserBase &os) const override;

  unsigned blank;
  unsigned beamWidth;
  unsigned topPaths;
};

} // namespace popart

#endif
