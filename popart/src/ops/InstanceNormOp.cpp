#include "ops/InstanceNormOp.hpp"

#include <popart/error.hpp>

namespace popart {

InstanceNormOp::InstanceNormOp(const OperatorIdentifier &id,
                               const Op::Settings &settings, const Attributes &a)
    : Op(id, settings), epsilon(a.getFloat("epsilon", 1e-5f)) {}

void InstanceNormOp::setup() {
  const Shape x = inShape(0);
  if (x.size() < 3)
    throw error("{}: input '{}' of shape {} has no spatial dimension", str(),
                inTensor(0)->id, x);
  for (int i = 1; i <= 2; ++i)
    if (inShape(i) != Shape{x[1]})
      throw error("{}: '{}' has shape {}, not [{}]", str(), inTensor(i)->id,
                  inShape(i), x[1]);
  outInfo(0) = inInfo(0);
}


std::vector<std::unique_ptr<Op>> InstanceNormOp::getGradOps() {
  return gradOps<InstanceNormGradOp>(*this);
}

} // namespace popart
