#ifndef POPART_SRC_OPS_ONNXLOSSOPS_HPP
#define POPART_SRC_OPS_ONNXLOSSOPS_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>
#include <string>

namespace popart {

/// The losses of ai.onnx: NegativeLogLikelihoodLoss (input [N, C, d...] of
/// log-probabilities, target [N, d...] of classes, optional weight [C]),
/// and SoftmaxCrossEntropyLoss (scores, labels, optional weights; the same
/// loss of the scores' log-softmax along C, which is its optional second
/// output). Each element's loss is -weight[t] input[n, t, d...] (0 where
/// t is ignore_index); reduced by "none", "sum" or "mean" (the sum divided
/// by the sum of the weights taken).
class OnnxLossOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<OnnxLossOp>(*this);
  }
  OnnxLossOp(const OperatorIdentifier &id, const Op::Settings &settings,
             const Attributes &a);
  void setup() override;
  bool softmax() const { return opid.type == "SoftmaxCrossEntropyLoss"; }
  std::string reduction;
  bool hasIgnoreIndex;
  int64_t ignoreIndex;
};

} // namespace popart

#endif
