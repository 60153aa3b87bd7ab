#include "ops/VariadicOp.hpp"

#include <popart/error.hpp>

namespace popart {

VariadicOp::VariadicOp(const OperatorIdentifier &id, const Op::Settings &settings,
                       const Attributes &)
    : Op(id, settings) {}

void VariadicOp::setup() {
  if (inputs.empty())
    throw error("{} needs at least one input", str());
  TensorInfo info = inInfo(0);
  for (std::size_t i = 1; i < inputs.size(); ++i)
    info = npOut(info, inInfo(static_cast<int>(i)));
  outInfo(0) = info;
}


std::vector<std::unique_ptr<Op>> VariadicOp::getGradOps() {
  std::vector<std::unique_ptr<Op>> ops;
  for (int i = 0; i < inTensorCount(); ++i)
    if (hasInput(i))
      ops.push_back(std::make_unique<VariadicGradOp>(*this, i));
  return ops;
}

VariadicGradOp::VariadicGradOp(const VariadicOp &fwd, int arg)
    : GradOp(fwd, fwd.opid.type + "ArgGrad",
             {{0, 0, GradOpInType::GradOut},
              {1, arg, GradOpInType::In},
              {2, 0, GradOpInType::Out}},
             {{0, arg}}),
      fwdType(fwd.opid.type), numInputs(fwd.inTensorCount()) {}

} // namespace popart
