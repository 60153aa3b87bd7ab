#include "ops/BatchNormOp.hpp"

#include <popart/error.hpp>

namespace popart {

BatchNormOp::BatchNormOp(const OperatorIdentifier &id, const Op::Settings &settings,
                         const Attributes &a)
    : Op(id, settings), epsilon(a.getFloat("epsilon", 1e-5f)) {
  a.getFloat("momentum", 0.9f); // only used in training
  if (id.version < 7 && a.getInt("is_test", 0) == 0)
    throw error("BatchNormalization '{}': is_test 0 (training) is not "
                "supported",
                name());
  if (id.version < 9 && a.getInt("spatial", 1) != 1)
    throw error("BatchNormalization '{}': spatial 0 is not supported", name());
  if (id.version >= 14 && a.getInt("training_mode", 0) != 0)
    throw error("BatchNormalization '{}': training_mode 1 is not supported",
                name());
}

void BatchNormOp::setup() {
  const Shape x = inShape(0);
  if (x.size() < 2)
    throw error("{}: input '{}' of shape {} has no channel dimension", str(),
                inTensor(0)->id, x);
  for (int i = 1; i <= 4; ++i) {
    if (!hasInput(i))
      throw error("{}: input {} is missing", str(), i);
    if (inShape(i) != Shape{x[1]})
      throw error("{}: '{}' has shape {}, not [{}]", str(), inTensor(i)->id,
                  inShape(i), x[1]);
  }
  for (std::size_t i = 1; i < outputs.size(); ++i)
    if (outputs[i])
      throw error("{}: output {} ('{}') is a training output, which is not "
                  "supported",
                  str(), i, outputs[i]->id);
  outInfo(0) = inInfo(0);
}

} // namespace popart
