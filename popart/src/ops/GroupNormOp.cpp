#include "ops/GroupNormOp.hpp"

#include <popart/error.hpp>

namespace popart {

GroupNormOp::GroupNormOp(const OperatorIdentifier &id,
                         const Op::Settings &settings, const Attributes &a)
    : Op(id, settings), numGroups(a.getInt("num_groups", 0)),
      epsilon(a.getFloat("epsilon", 1e-5f)) {
  if (!a.has("num_groups"))
    throw error("GroupNormalization '{}': the attribute num_groups is missing",
                name());
}

void GroupNormOp::setup() {
  if (inputs.size() < 3 || !hasInput(1) || !hasInput(2))
    throw error("{}: takes [X, Scale, Bias]", str());
  const Shape x = inShape(0);
  const auto type = inInfo(0).dataType();
  if (type != DataType::FLOAT && type != DataType::FLOAT16)
    throw error("{}: input '{}' is {}; FLOAT and FLOAT16 are supported", str(),
                inTensor(0)->id, inInfo(0).data_type());
  if (x.size() < 2)
    throw error("{}: input '{}' has shape {}; [N, C, ...] is needed", str(),
                inTensor(0)->id, x);
  const int64_t channels = x[1];
  if (numGroups <= 0 || channels % numGroups != 0)
    throw error("{}: num_groups {} does not divide the {} channels of '{}'",
                str(), numGroups, channels, inTensor(0)->id);
  for (int i = 1; i <= 2; ++i)
    if (inShape(i) != Shape{channels})
      throw error("{}: '{}' has shape {}, not [{}] (one per channel)", str(),
                  inTensor(i)->id, inShape(i), channels);
  outInfo(0) = inInfo(0);
  for (int o = 1; o <= 2; ++o)
    if (o < int(outputs.size()) && outputs[o])
      outInfo(o) = TensorInfo(type, Shape{x[0] * numGroups});
}

std::vector<std::unique_ptr<Op>> GroupNormOp::getGradOps() {
  if (!hasOutput(1) || !hasOutput(2))
    throw error("{}: its gradient needs the Mean and InvStdDev outputs", str());
  return gradOps<GroupNormGradOp>(*this);
}

} // namespace popart
