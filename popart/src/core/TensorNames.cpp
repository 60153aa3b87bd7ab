#include <popart/error.hpp>
#include <popart/tensornames.hpp>

namespace popart {

TensorId reservedGradientPrefix() { return "Gradient___"; }
TensorId reservedUpdatedVarPrefix() { return "UpdatedVar___"; }
TensorId reservedAccumPrefix() { return "Accum___"; }
TensorId reservedAcclPrefix() { return "Accl___"; }
TensorId reservedAccl1Prefix() { return "Accl1___"; }
TensorId reservedAccl2Prefix() { return "Accl2___"; }
TensorId reservedAccl3Prefix() { return "Accl3___"; }
TensorId reservedStepPrefix() { return "Step___"; }
TensorId reservedCounterPrefix() { return "Counter___"; }
TensorId reservedStashedPrefix() { return "Stashed___"; }
TensorId reservedRestoredPrefix() { return "Restored___"; }
TensorId reservedRandomSeedPrefix() { return "randomSeed___"; }
TensorId reservedLossScalingPrefix() { return "lossScaling_"; }
TensorId reservedInitPrefix() { return "Init___"; }
TensorId reservedConstValuePrefix() { return "ConstValue___"; }
TensorId reservedOptimizerPrefix() { return "Optimizer___"; }
TensorId reservedRecomputePrefix() { return "Recompute___"; }

std::vector<TensorId> reservedPrefixes() {
  return {reservedGradientPrefix(),   reservedUpdatedVarPrefix(),
          reservedAccumPrefix(),      reservedAcclPrefix(),
          reservedAccl1Prefix(),      reservedAccl2Prefix(),
          reservedAccl3Prefix(),      reservedStepPrefix(),
          reservedCounterPrefix(),    reservedStashedPrefix(),
          reservedRestoredPrefix(),   reservedRandomSeedPrefix(),
          reservedLossScalingPrefix(), reservedInitPrefix(),
          reservedConstValuePrefix(), reservedOptimizerPrefix(),
          reservedRecomputePrefix()};
}

TensorId getGradId(const TensorId &id) { return reservedGradientPrefix() + id; }

bool isGradId(const TensorId &id) {
  return id.rfind(reservedGradientPrefix(), 0) == 0;
}

TensorId getNonGradId(const TensorId &gradId) {
  if (!isGradId(gradId))
    throw error("'{}' is not the id of a gradient (it does not start with "
                "'{}')",
                gradId, reservedGradientPrefix());
  return gradId.substr(reservedGradientPrefix().size());
}

TensorId getUpdatedVarId(const TensorId &id) {
  return reservedUpdatedVarPrefix() + id;
}

} // namespace popart
