#include "ops/LossOps.hpp"

#include <popart/error.hpp>
#include <popart/opserialiser.hpp>

namespace popart {

ReductionType reductionFromAttribute(const Attributes &a,
                                     const std::string &op) {
  const std::string r = a.getString("reduction", "Mean");
  if (r == "Sum")
    return ReductionType::Sum;
  if (r == "Mean")
    return ReductionType::Mean;
  if (r == "None" || r == "NoReduction")
    return ReductionType::NoReduction;
  throw error("{}: unknown reduction '{}' (Sum, Mean or None)", op, r);
}

const char *reductionAttributeValue(ReductionType r) {
  switch (r) {
  case ReductionType::Sum:
    return "Sum";
  case ReductionType::Mean:
    return "Mean";
  default:
    return "None";
  }
}

void LossOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  os.appendAttribute("reduction", reductionAttributeValue(reduction));
}

NllOp::NllOp(const OperatorIdentifier &id, const Op::Settings &settings,
             const Attributes &a)
    : LossOp(id, settings, reductionFromAttribute(a, settings.name)) {
  hasIgnoreIndex = a.has("ignoreIndex");
  if (hasIgnoreIndex)
    ignoreIndex = a.getInt("ignoreIndex");
  inputIsLogProbability = a.getInt("inputIsLogProbability", 0) != 0;
}

void NllOp::setup() {
  const TensorInfo &probs = inInfo(0);
  const TensorInfo &label = inInfo(1);
  if (probs.rank() < 1)
    throw error("{}: the probabilities ('{}') need a class dimension", str(),
                inId(0));
  if (probs.dataType() != DataType::FLOAT &&
      probs.dataType() != DataType::FLOAT16)
    throw error("{}: the probabilities ('{}') must be FLOAT or FLOAT16, not {}",
                str(), inId(0), probs.data_type());
  if (label.dataType() != DataType::INT32 &&
      label.dataType() != DataType::INT64 &&
      label.dataType() != DataType::UINT32)
    throw error("{}: the labels ('{}') must be integers, not {}", str(),
                inId(1), label.data_type());
  Shape expected(probs.shape().begin(), probs.shape().end() - 1);
  // Labels may also carry a trailing 1 (a column of labels).
  Shape labelShape = label.shape();
  if (labelShape.size() == expected.size() + 1 && labelShape.back() == 1)
    labelShape.pop_back();
  if (labelShape != expected)
    throw error("{}: the labels ('{}', shape {}) must have the shape of the "
                "probabilities ('{}', shape {}) without the class dimension",
                str(), inId(1), label.shape(), inId(0), probs.shape());
  outInfo(0) = TensorInfo(probs.dataType(),
                          reduction == ReductionType::NoReduction ? expected
                                                                   : Shape{});
}

std::vector<std::unique_ptr<Op>> NllOp::getGradOps() {
  return gradOps<NllGradOp>(*this);
}

void NllOp::appendAttributes(OpSerialiserBase &os) const {
  LossOp::appendAttributes(os);
  if (hasIgnoreIndex)
    os.appendAttribute("ignoreIndex", ignoreIndex);
  os.appendAttribute("inputIsLogProbability", inputIsLogProbability);
}

NllGradOp::NllGradOp(const NllOp &fwd)
    : GradOp(fwd, "NllGrad",
             {{0, 0, GradOpInType::In},
              {1, 1, GradOpInType::In},
              {2, 0, GradOpInType::GradOut}},
             {{0, 0}}),
      reduction(fwd.reduction), hasIgnoreIndex(fwd.hasIgnoreIndex),
      ignoreIndex(fwd.ignoreIndex),
      inputIsLogProbability(fwd.inputIsLogProbability) {}

SoftmaxGradDirectOp::SoftmaxGradDirectOp(const NllGradOp &nllGrad,
                                         const Op::Settings &settings)
    : Op({Domain::ai_graphcore, "SoftmaxGradDirect", 1}, settings),
      reduction(nllGrad.reduction), hasIgnoreIndex(nllGrad.hasIgnoreIndex),
      ignoreIndex(nllGrad.ignoreIndex) {}

void SoftmaxGradDirectOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  os.appendAttribute("reduction", reductionAttributeValue(reduction));
  if (hasIgnoreIndex)
    os.appendAttribute("ignoreIndex", ignoreIndex);
}

NlllWithSoftmaxGradDirectOp::NlllWithSoftmaxGradDirectOp(
    const NllOp &nll, const SoftmaxGradDirectOp &direct)
    : LossOp({Domain::ai_graphcore, "NlllWithSoftmaxGradDirect", 1},
             nll.settings, nll.reduction),
      hasIgnoreIndex(direct.hasIgnoreIndex), ignoreIndex(direct.ignoreIndex),
      lossShape(nll.outInfo(0).shape()) {}

void NlllWithSoftmaxGradDirectOp::setup() {
  outInfo(0) = TensorInfo(inInfo(0).dataType(), lossShape);
  outInfo(1) = inInfo(0);
}

void NlllWithSoftmaxGradDirectOp::appendAttributes(OpSerialiserBase &os) const {
  LossOp::appendAttributes(os);
  if (hasIgnoreIndex)
    os.appendAttribute("ignoreIndex", ignoreIndex);
}

L1Op::L1Op(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &a)
    : LossOp(id, settings, reductionFromAttribute(a, settings.name)),
      lambda(a.getFloat("lambda")) {}

void L1Op::setup() {
  const TensorInfo &in = inInfo(0);
  if (in.dataType() != DataType::FLOAT && in.dataType() != DataType::FLOAT16)
    throw error("{}: the input ('{}') must be FLOAT or FLOAT16, not {}", str(),
                inId(0), in.data_type());
  outInfo(0) = TensorInfo(in.dataType(), reduction == ReductionType::NoReduction
                                             ? in.shape()
                                             : Shape{});
}

std::vector<std::unique_ptr<Op>> L1Op::getGradOps() {
  return gradOps<L1GradOp>(*this);
}

void L1Op::appendAttributes(OpSerialiserBase &os) const {
  LossOp::appendAttributes(os);
  os.appendAttribute("lambda", lambda);
}

L1GradOp::L1GradOp(const L1Op &fwd)
    : GradOp(fwd, "L1Grad",
             {{0, 0, GradOpInType::In}, {1, 0, GradOpInType::GradOut}},
             {{0, 0}}),
      reduction(fwd.reduction), lambda(fwd.lambda) {}

IdentityLossOp::IdentityLossOp(const OperatorIdentifier &id,
                               const Op::Settings &settings,
                               const Attributes &a)
    : LossOp(id, settings, reductionFromAttribute(a, settings.name)) {}

void IdentityLossOp::setup() {
  const TensorInfo &in = inInfo(0);
  outInfo(0) = TensorInfo(in.dataType(), reduction == ReductionType::NoReduction
                                             ? in.shape()
                                             : Shape{});
}

std::vector<std::unique_ptr<Op>> IdentityLossOp::getGradOps() {
  return gradOps<IdentityLossGradOp>(*this);
}

IdentityLossGradOp::IdentityLossGradOp(const IdentityLossOp &fwd)
    : GradOp(fwd, "IdentityLossGrad", {{0, 0, GradOpInType::GradOut}},
             {{0, 0}}),
      reduction(fwd.reduction) {}

} // namespace popart
