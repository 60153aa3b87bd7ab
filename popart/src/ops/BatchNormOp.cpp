#include "ops/BatchNormOp.hpp"
#include "ir/Graph.hpp"
#include "ir/Ir.hpp"

#include <popart/error.hpp>

namespace popart {

BatchNormOp::BatchNormOp(const OperatorIdentifier &id, const Op::Settings &settings,
                         const Attributes &a)
    : Op(id, settings), epsilon(a.getFloat("epsilon", 1e-5f)),
      momentum(a.getFloat("momentum", 0.9f)),
      unbiasedVariance(id.domain == Domain::ai_graphcore) {
  if (unbiasedVariance) {
    // The Graphcore form (version 1): its batch variance is always the
    // unbiased one. The original's builder writes an "unbiased_variance"
    // attribute (0) that its op never reads: accepted, as there.
    a.getInt("unbiased_variance", 0);
    if (a.getInt("spatial", 1) != 1)
      throw error("BatchNormalization '{}' (ai.graphcore): spatial 0 is not "
                  "supported",
                  settings.name);
    return;
  }
  if (id.version < 7)
    a.getInt("is_test", 0);
  if (id.version < 9 && a.getInt("spatial", 1) != 1)
    throw error("BatchNormalization '{}': spatial 0 is not supported", name());
  if (id.version >= 14)
    trainingMode = a.getInt("training_mode", 0) != 0;
}

bool BatchNormOp::normalisesWithBatchStatistics() const {
  return opid.version >= 14 ? trainingMode : outTensorCount() > 1;
}

bool BatchNormOp::isTraining() const {
  return getGraph().getIr().isTraining() && normalisesWithBatchStatistics();
}

std::vector<std::unique_ptr<Op>> BatchNormOp::getGradOps() {
  if (!isTraining())
    throw error("{} is in inference mode (its only output is Y) but the loss "
                "depends on its input: give it its training outputs (or "
                "detach it) to train through it",
                str());
  return gradOps<BatchNormGradOp>(*this);
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
  // Outside a TrainingSession the statistics outputs are computed as ONNX
  // defines them, but the running mean and variance given are not changed.
  for (std::size_t i = 1; i < outputs.size(); ++i)
    if (outputs[i])
      outInfo(static_cast<int>(i)) = inInfo(1);
  outInfo(0) = inInfo(0);
}

} // namespace popart
