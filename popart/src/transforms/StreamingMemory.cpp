#include "transforms/StreamingMemory.hpp"
#include "ir/HostData.hpp"

#include <popart/tensornames.hpp>

namespace popart {
namespace {

// A gradient accumulator: updated every micro-batch of an accumulating
// session (Accum___, or SGD's velocity that the gradients go into).
bool isAccumulator(const Ir &ir, const Tensor &t) {
  if (ir.getAccumulationFactor() <= 1)
    return false;
  if (t.id.rfind(reservedAccumPrefix(), 0) == 0)
    return true;
  for (const Op *c : t.consumers)
    if (c->settings.executionContext == ExecutionContext::Normal)
      return true;
  return false;
}

} // namespace

std::string tensorLocationSettingsName(const Ir &ir, const Tensor &t) {
  if (t.variableKind != VariableKind::OptimizerState)
    return "weightTensorLocationSettings";
  return isAccumulator(ir, t) ? "accumulatorTensorLocationSettings"
                              : "optimizerStateTensorLocationSettings";
}

TensorLocation determineTensorLocation(const Ir &ir, const Tensor &t) {
  if (t.type != TensorType::Variable ||
      t.variableKind == VariableKind::HyperParameter)
    return TensorLocation();
  const SessionOptions &o = ir.getSessionOptions();
  const std::string name = tensorLocationSettingsName(ir, t);
  const bool accumulator = name == "accumulatorTensorLocationSettings";
  const TensorLocationSettings &settings =
      accumulator ? o.accumulatorTensorLocationSettings
      : name == "optimizerStateTensorLocationSettings"
          ? o.optimizerStateTensorLocationSettings
          : o.weightTensorLocationSettings;
  TensorLocation location = settings.location;
  if (location.storage == TensorStorage::OffChip && !accumulator &&
      hostInfo(t).nelms() < settings.minElementsForOffChip)
    location.storage = TensorStorage::OnChip;
  return location;
}

bool isOffChip(const Ir &ir, const Tensor &t) {
  return determineTensorLocation(ir, t).storage == TensorStorage::OffChip;
}

std::string remoteBufferName(const TensorId &id) { return "RB_" + id; }

} // namespace popart
