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
  seed = RandomSeedChoice::of(a, settings.name, /*integerSeed=*/true);
}

void DropoutOp::setup() {
  const Ir &ir = getGraph().getIr();
  const bool training = ir.isTraining() || ir.isBuiltOpByOp();
  mode = training ? Mode::On : Mode::Off;
  runtimeRatio = false;
  if (opid.version >= 12) {
    for (InIndex i : {1, 2})
      if (hasInput(i) && inInfo(i).nelms() != 1)
        throw error("{}: the {} (input {}, '{}') has {} elements, not 1", str(),
                    i == 1 ? "ratio" : "training_mode", i, inTensor(i)->id,
                    inInfo(i).nelms());
    if (hasInput(2) && inInfo(2).dataType() != DataType::BOOL)
      throw error("{}: the training_mode (input 2, '{}') is {}, not BOOL",
                  str(), inTensor(2)->id, inInfo(2).dataType());
    if (hasInput(2))
      mode = !hasConstInput(2) ? Mode::Runtime
             : constInputValues(2, "training_mode").at(0) != 0.0 ? Mode::On
                                                                 : Mode::Off;
    // With the mode off the ratio is not read (it may then be anything).
    if (hasInput(1) && mode != Mode::Off) {
      if (hasConstInput(1))
        ratio = static_cast<float>(constInputValues(1, "ratio").at(0));
      else
        runtimeRatio = true;
    }
    // The grad op draws its mask again from constants.
    if (ir.isTraining() && readsInputsAtRunTime())
      throw error("{}: the {} (input {}, '{}') is read at run time, which "
                  "only an InferenceSession supports; give a constant",
                  str(), mode == Mode::Runtime ? "training_mode" : "ratio",
                  mode == Mode::Runtime ? 2 : 1,
                  inTensor(mode == Mode::Runtime ? 2 : 1)->id);
  }
  if (!runtimeRatio && (ratio < 0.0f || ratio >= 1.0f))
    throw error("{}: the ratio must be in [0, 1), not {}", str(), ratio);
  outInfo(0) = inInfo(0);
  if (hasOutput(1))
    outInfo(1) = TensorInfo(DataType::BOOL, inShape(0));
}

bool DropoutOp::isActive() const {
  return mode == Mode::Runtime ||
         (mode == Mode::On && (runtimeRatio || ratio > 0.0f));
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
      ratio(fwd.isActive() ? fwd.ratio : 0.0f), seed(fwd.seed) {}

} // namespace popart
