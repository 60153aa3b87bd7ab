#include "ops/LRNOp.hpp"

#include <popart/error.hpp>

namespace popart {

LRNOp::LRNOp(const OperatorIdentifier &id, const Op::Settings &settings,
             const Attributes &a)
    : Op(id, settings), alpha(a.getFloat("alpha", 1e-4f)),
      beta(a.getFloat("beta", 0.75f)), bias(a.getFloat("bias", 1.0f)),
      size(a.getInt("size")) {
  if (size < 1)
    throw error("LRN '{}': size {} must be positive", name(), size);
}

void LRNOp::setup() {
  if (inShape(0).size() < 2)
    throw error("{}: input '{}' of shape {} has no channel dimension", str(),
                inTensor(0)->id, inShape(0));
  outInfo(0) = inInfo(0);
}


std::vector<std::unique_ptr<Op>> LRNOp::getGradOps() {
  return gradOps<LRNGradOp>(*this);
}

} // namespace popart
