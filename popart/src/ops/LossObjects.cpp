// The loss objects of the earlier interface, each making its loss op.
#include "ops/LossOps.hpp"
#include "transforms/GraphBuilding.hpp"

#include <popart/error.hpp>
#include <popart/graphcoreoperators.hpp>
#include <popart/op/identity.hpp>
#include <popart/op/l1.hpp>
#include <popart/op/nll.hpp>

namespace popart {

Loss::Loss(const std::vector<TensorId> &input, TensorId output,
           ReductionType rt)
    : input_(input), output_(std::move(output)), reductionType(rt) {
  if (output_.empty())
    throw error("A loss needs the name of its output");
}
Loss::~Loss() = default;

const TensorId &Loss::input(InIndex i) const {
  if (i < 0 || i >= input_size())
    throw error("The loss '{}' has no input {}", output_, i);
  return input_[i];
}

const TensorId &Loss::output(OutIndex i) const {
  if (i != 0)
    throw error("The loss '{}' has one output, not an output {}", output_, i);
  return output_;
}

NllLoss::NllLoss(const TensorId &probs, const TensorId &label,
                 const TensorId &output, ReductionType rt)
    : Loss({probs, label}, output, rt) {}

NllLoss::NllLoss(const TensorId &probs, const TensorId &label,
                 const TensorId &output, int ignoreIndex, ReductionType rt)
    : Loss({probs, label}, output, rt), ignoreIndex_(ignoreIndex),
      hasIgnoreIndex_(true) {}

std::unique_ptr<Op> NllLoss::getOp(const Op::Settings &settings) const {
  OpAttributes a;
  a.strings.push_back({"reduction", reductionAttributeValue(getReductionType())});
  if (hasIgnoreIndex_)
    a.ints.push_back({"ignoreIndex", ignoreIndex_});
  return std::make_unique<NllOp>(Onnx::CustomOperators::Nll_1, settings,
                                 makeAttributes(a));
}
const OperatorIdentifier &NllLoss::op_type() const {
  return Onnx::CustomOperators::Nll_1;
}
std::unique_ptr<Loss> NllLoss::clone() const {
  return std::make_unique<NllLoss>(*this);
}
std::vector<TensorId> NllLoss::getStreamTensorNames() const {
  return {labelTensorId()};
}

L1Loss::L1Loss(const TensorId &input, const TensorId &output, float lambda_,
               ReductionType rt)
    : Loss({input}, output, rt), lambda(lambda_) {}

std::unique_ptr<Op> L1Loss::getOp(const Op::Settings &settings) const {
  OpAttributes a;
  a.strings.push_back({"reduction", reductionAttributeValue(getReductionType())});
  a.floats.push_back({"lambda", lambda});
  return std::make_unique<L1Op>(Onnx::CustomOperators::L1_1, settings,
                                makeAttributes(a));
}
const OperatorIdentifier &L1Loss::op_type() const {
  return Onnx::CustomOperators::L1_1;
}
std::unique_ptr<Loss> L1Loss::clone() const {
  return std::make_unique<L1Loss>(*this);
}

IdentityLoss::IdentityLoss(const TensorId &input, const TensorId &output,
                           ReductionType rt)
    : Loss({input}, output, rt) {}

std::unique_ptr<Op> IdentityLoss::getOp(const Op::Settings &settings) const {
  OpAttributes a;
  a.strings.push_back({"reduction", reductionAttributeValue(getReductionType())});
  return std::make_unique<IdentityLossOp>(Onnx::CustomOperators::IdentityLoss_1,
                                          settings, makeAttributes(a));
}
const OperatorIdentifier &IdentityLoss::op_type() const {
  return Onnx::CustomOperators::IdentityLoss_1;
}
std::unique_ptr<Loss> IdentityLoss::clone() const {
  return std::make_unique<IdentityLoss>(*this);
}

} // namespace popart
