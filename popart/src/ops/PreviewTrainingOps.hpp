#ifndef POPART_SRC_OPS_PREVIEWTRAININGOPS_HPP
#define POPART_SRC_OPS_PREVIEWTRAININGOPS_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>
#include <string>

namespace popart {

/// The optimisers of the ai.onnx.preview.training domain, as functions of
/// their inputs: Adagrad (R, T, X..., G..., H...) -> (X_new..., H_new...),
/// Momentum (R, T, X..., G..., V...) -> (X_new..., V_new...) and Adam (R, T,
/// X..., G..., V..., H...) -> (X_new..., V_new..., H_new...), for every
/// tensor X of the same shape as its G, V and H; R is the learning rate and
/// T the update count (scalars).
class PreviewOptimizerOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<PreviewOptimizerOp>(*this);
  }
  PreviewOptimizerOp(const OperatorIdentifier &id, const Op::Settings &settings,
                     const Attributes &a);
  void setup() override;
  /// Per tensor X: the states after G (1 for Adagrad and Momentum, 2 for
  /// Adam).
  int states() const { return opid.type == "Adam" ? 2 : 1; }
  /// How many tensors are updated.
  int tensors() const { return (inTensorCount() - 2) / (2 + states()); }
  float alpha = 0, beta = 0, epsilon = 0, decayFactor = 0;
  float normCoefficient = 0, normCoefficientPost = 0;
  /// Momentum: "standard" or "nesterov".
  std::string mode;
};

} // namespace popart

#endif
