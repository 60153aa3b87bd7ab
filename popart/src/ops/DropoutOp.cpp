#include "ops/DropoutOp.hpp"
#include "ir/Graph.hpp"
#include "ir/Ir.hpp"

#include <popart/error.hpp>
#include <popart/opserialiser.hpp>

#include <functional>

namespace popart {

DropoutOp::DropoutOp(const OperatorIdentifier &id, const Op::Settings &settings,
                     const Attributes &a)
    : Op(id, settings) {
  if (id.version < 12)
    ratio = a.getFloat("ratio", 0.5f);
  if (id.version < 7)
    a.getInt("is_test", 0);
  if (a.has("seed"))
    a.getInt("seed");
  seedModifier = static_cast<uint32_t>(std::hash<std::string>()(settings.name));
}

void DropoutOp::setup() {
  const Ir &ir = getGraph().getIr();
  if (opid.version >= 12) {
    if (hasInput(2))
      trainingModeInput = constInputValues(2, "training_mode").at(0) != 0.0;
    // Outside training (and IRs built op by op) Dropout is the identity,
    // whatever its ratio (which may then be a runtime input).
    const bool ratioMatters =
        (ir.isTraining() || ir.isBuiltOpByOp()) && trainingModeInput;
    if (hasInput(1) && ratioMatters)
      ratio = static_cast<float>(constInputValues(1, "ratio").at(0));
  }
  if (ratio < 0.0f || ratio >= 1.0f)
    throw error("{}: the ratio must be in [0, 1), not {}", str(), ratio);
  if (trainingModeInput && hasInput(2) && !ir.isTraining() && !ir.isBuiltOpByOp())
    throw error("{}: Dropout in training mode needs a TrainingSession", str());
  outInfo(0) = inInfo(0);
  if (hasOutput(1))
    outInfo(1) = TensorInfo(DataType::BOOL, inShape(0));
}

bool DropoutOp::isActive() const {
  const Ir &ir = getGraph().getIr();
  return (ir.isTraining() || ir.isBuiltOpByOp()) && trainingModeInput &&
         ratio > 0.0f;
}

std::vector<std::unique_ptr<Op>> DropoutOp::getGradOps() {
  return gradOps<DropoutGradOp>(*this);
}

void DropoutOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  os.appendAttribute("ratio", ratio);
}

DropoutGradOp::DropoutGradOp(const DropoutOp &fwd)
    : GradOp(fwd, "DropoutGrad", {{0, 0, GradOpInType::GradOut}}, {{0, 0}}),
      ratio(fwd.isActive() ? fwd.ratio : 0.0f), seedModifier(fwd.seedModifier) {}

} // namespace popart
