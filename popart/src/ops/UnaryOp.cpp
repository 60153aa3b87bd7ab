#include "ops/UnaryOp.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

#include <algorithm>
#include <cmath>

namespace popart {

UnaryOp::UnaryOp(const OperatorIdentifier &id, const Op::Settings &settings,
                 const Attributes &a)
    : InplaceCapableOp(id, settings) {
  const auto &t = id.type;
  if (t == "LeakyRelu")
    alpha = a.getFloat("alpha", 0.01f);
  else if (t == "Elu" || t == "ThresholdedRelu")
    alpha = a.getFloat("alpha", 1.0f);
  else if (t == "Selu") {
    alpha = a.getFloat("alpha", 1.67326319217681884765625f);
    gamma = a.getFloat("gamma", 1.05070102214813232421875f);
  } else if (t == "HardSigmoid") {
    alpha = a.getFloat("alpha", 0.2f);
    beta = a.getFloat("beta", 0.5f);
  } else if (t == "Celu") {
    alpha = a.getFloat("alpha", 1.0f);
  } else if (t == "Shrink") {
    alpha = a.getFloat("lambd", 0.5f);
    beta = a.getFloat("bias", 0.0f);
  } else if (t == "IsInf") {
    detectNegative = a.getInt("detect_negative", 1) != 0;
    detectPositive = a.getInt("detect_positive", 1) != 0;
  }
}

void UnaryOp::setup() {
  outInfo(0) = inInfo(0);
  if (opid.type == "IsNaN" || opid.type == "IsInf")
    outInfo(0).set(DataType::BOOL);
  if (opid.type == "Not" && inInfo(0).dataType() != DataType::BOOL)
    throw error("Not takes a BOOL input, not {}", inInfo(0).data_type());
}

const std::vector<InplaceForm> &UnaryOp::inplaceForms() {
  static const std::vector<InplaceForm> forms = {{"Inplace", 0, 10.0f}};
  return forms;
}

bool UnaryOp::canFold() const {
  return opid.type == "Neg" || opid.type == "Abs" || opid.type == "Floor" ||
         opid.type == "Ceil" || opid.type == "Sqrt" || opid.type == "Not" ||
         opid.type == "Relu";
}

std::vector<char> UnaryOp::fold() const {
  auto v = toDoubles(inTensor(0)->data, inInfo(0).dataType());
  for (auto &x : v) {
    if (opid.type == "Neg")
      x = -x;
    else if (opid.type == "Abs")
      x = std::fabs(x);
    else if (opid.type == "Floor")
      x = std::floor(x);
    else if (opid.type == "Ceil")
      x = std::ceil(x);
    else if (opid.type == "Sqrt")
      x = std::sqrt(x);
    else if (opid.type == "Not")
      x = x == 0.0 ? 1.0 : 0.0;
    else if (opid.type == "Relu")
      x = std::max(x, 0.0);
  }
  return fromDoubles(v, outInfo(0).dataType());
}

std::vector<std::unique_ptr<Op>> UnaryOp::getGradOps() {
  // Boolean results have no gradient.
  if (outInfo(0).dataType() == DataType::BOOL || opid.type == "Not")
    return {};
  return gradOps<UnaryGradOp>(*this);
}

UnaryGradOp::UnaryGradOp(const UnaryOp &fwd)
    : GradOp(fwd, fwd.opid.type + "Grad",
             {{0, 0, GradOpInType::GradOut},
              {1, 0, GradOpInType::In},
              {2, 0, GradOpInType::Out}},
             {{0, 0}}),
      fwdType(fwd.opid.type), alpha(fwd.alpha), beta(fwd.beta),
      gamma(fwd.gamma) {}

} // namespace popart
