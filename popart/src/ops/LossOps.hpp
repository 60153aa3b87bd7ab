// The losses of ai.graphcore: Nll (the negative log likelihood of the
// probabilities of the labelled classes), L1 (lambda times the absolute
// values) and IdentityLoss (the input itself), each reduced by its
// ReductionType (Sum, Mean, or NoReduction), with their grad ops.
#ifndef POPART_SRC_OPS_LOSSOPS_HPP
#define POPART_SRC_OPS_LOSSOPS_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// ReductionType from the "reduction" attribute ("Sum", "Mean", "None").
ReductionType reductionFromAttribute(const Attributes &a, const std::string &op);
const char *reductionAttributeValue(ReductionType r);

class LossOp : public Op {
public:
  LossOp(const OperatorIdentifier &id, const Op::Settings &settings,
         ReductionType reduction)
      : Op(id, settings), reduction(reduction) {}
  bool isLossOp() const override { return true; }
  ReductionType getReductionType() const { return reduction; }
  void appendAttributes(OpSerialiserBase &os) const override;
  ReductionType reduction;
};

/// Inputs: probabilities [..., classes] (or their logs), labels [...].
class NllOp : public LossOp {
public:
  NllOp(const OperatorIdentifier &id, const Op::Settings &settings,
        const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<NllOp>(*this);
  }
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  void appendAttributes(OpSerialiserBase &os) const override;
  bool hasIgnoreIndex = false;
  int64_t ignoreIndex = 0;
  bool inputIsLogProbability = false;
};

class NllGradOp : public GradOp {
public:
  explicit NllGradOp(const NllOp &fwd);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<NllGradOp>(*this);
  }
  ReductionType reduction;
  bool hasIgnoreIndex;
  int64_t ignoreIndex;
  bool inputIsLogProbability;
};

/// The gradient of Nll through the Softmax that made its probabilities,
/// straight from the probabilities: (p - onehot(label)) times the loss's
/// gradient (divided as the reduction says). Made by the SoftmaxGradDirect
/// pattern from an NllGrad and a SoftmaxGrad; finite where -1/p is not.
/// Inputs: probabilities, labels, the loss's gradient; output: the
/// gradient of the softmax's input.
class SoftmaxGradDirectOp : public Op {
public:
  SoftmaxGradDirectOp(const NllGradOp &nllGrad, const Op::Settings &settings);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<SoftmaxGradDirectOp>(*this);
  }
  void setup() override { outInfo(0) = inInfo(0); }
  void appendAttributes(OpSerialiserBase &os) const override;
  ReductionType reduction;
  bool hasIgnoreIndex;
  int64_t ignoreIndex;
};

/// Nll and SoftmaxGradDirect in one op (the NlllWithSoftmaxGradDirect
/// pattern), sharing the labels' one-hot encoding. Inputs as
/// SoftmaxGradDirect's; outputs: the loss, the gradient of the softmax's
/// input.
class NlllWithSoftmaxGradDirectOp : public LossOp {
public:
  NlllWithSoftmaxGradDirectOp(const NllOp &nll,
                              const SoftmaxGradDirectOp &direct);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<NlllWithSoftmaxGradDirectOp>(*this);
  }
  void setup() override;
  void appendAttributes(OpSerialiserBase &os) const override;
  bool hasIgnoreIndex;
  int64_t ignoreIndex;
  Shape lossShape;
};

class L1Op : public LossOp {
public:
  L1Op(const OperatorIdentifier &id, const Op::Settings &settings,
       const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<L1Op>(*this);
  }
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  void appendAttributes(OpSerialiserBase &os) const override;
  float lambda = 1.0f;
};

class L1GradOp : public GradOp {
public:
  explicit L1GradOp(const L1Op &fwd);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<L1GradOp>(*this);
  }
  ReductionType reduction;
  float lambda;
};

class IdentityLossOp : public LossOp {
public:
  IdentityLossOp(const OperatorIdentifier &id, const Op::Settings &settings,
                 const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<IdentityLossOp>(*this);
  }
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

class IdentityLossGradOp : public GradOp {
public:
  explicit IdentityLossGradOp(const IdentityLossOp &fwd);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<IdentityLossGradOp>(*this);
  }
  ReductionType reduction;
};

} // namespace popart

#endif
