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

} // namespace popart
