#include "ops/ClipOp.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

#include <limits>

namespace popart {

ClipOp::ClipOp(const OperatorIdentifier &id, const Op::Settings &settings,
               const Attributes &a)
    : InplaceCapableOp(id, settings), min(std::numeric_limits<float>::lowest()),
      max(std::numeric_limits<float>::max()) {
  if (id.version < 11) {
    min = a.getFloat("min", min);
    max = a.getFloat("max", max);
  }
}

void ClipOp::setup() {
  // From opset 11 the bounds are optional scalar inputs.
  auto bound = [&](int i, float &value, bool &isTensor) {
    isTensor = false;
    if (!hasInput(i))
      return;
    if (inInfo(i).nelms() != 1)
      throw error("{}: the {} bound has {} elements, not 1", str(),
                  i == 1 ? "min" : "max", inInfo(i).nelms());
    if (inInfo(i).dataType() != inInfo(0).dataType())
      throw error("{}: the {} bound is {}, the input {}", str(),
                  i == 1 ? "min" : "max", inInfo(i).data_type(),
                  inInfo(0).data_type());
    if (hasConstInput(i))
      value = static_cast<float>(constInputValues(i, "bound").at(0));
    else
      isTensor = true;
  };
  bound(1, min, minIsTensor);
  bound(2, max, maxIsTensor);
  outInfo(0) = inInfo(0);
}

const std::vector<InplaceForm> &ClipOp::inplaceForms() {
  static const std::vector<InplaceForm> forms = {{"Inplace", 0, 10.0f}};
  return forms;
}

bool ClipOp::canRunInPlace() const {
  switch (inInfo(0).dataType()) {
  case DataType::FLOAT:
  case DataType::FLOAT16:
  case DataType::INT32:
  case DataType::UINT32:
    return true;
  default:
    return false;
  }
}

ClipGradOp::ClipGradOp(const ClipOp &fwd)
    : GradOp(fwd, "ClipGrad",
             [&] {
               std::vector<GradInOutMapper> in = {{0, 0, GradOpInType::GradOut},
                                                  {1, 0, GradOpInType::In}};
               if (fwd.minIsTensor)
                 in.emplace_back(2, 1, GradOpInType::In);
               if (fwd.maxIsTensor)
                 in.emplace_back(3, 2, GradOpInType::In);
               return in;
             }(),
             {{0, 0}}),
      min(fwd.min), max(fwd.max), minIsTensor(fwd.minIsTensor),
      maxIsTensor(fwd.maxIsTensor) {}

} // namespace popart
