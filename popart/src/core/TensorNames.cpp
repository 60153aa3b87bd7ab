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
TensorId reservedCounterPrefix() { return "Counter___"; }
TensorId reservedStepPrefix() { return "Step___"; }
TensorId reservedStashedPrefix() { return "Stashed___"; }
TensorId reservedRestoredPrefix() { return "Restored___"; }
TensorId reservedLossScalingPrefix() { return "lossScaling_"; }
TensorId reservedRandomSeedPrefix() { return "randomSeed___"; }
TensorId reservedSeedModifierPrefix() { return "randomSeedModifier___"; }
TensorId reservedInitPrefix() { return "Init___"; }
TensorId reservedConcatInitPrefix() { return "ConcatInit___"; }
TensorId reservedConstValuePrefix() { return "ConstValue___"; }
TensorId reservedLoopIteratorPrefix() { return "Iterator___"; }
TensorId reservedLoopCondPrefix() { return "LoopCond___"; }
TensorId reservedRemoteArgPrefix() { return "RemoteArg___"; }
TensorId reservedIndexPrefix() { return "Index___"; }
TensorId reservedGlobalNormPrefix() { return "GlobalNorm___"; }
TensorId reservedAdamUpdaterPrefix() { return "AdamUpdater___"; }
TensorId reservedLambR1SqPrefix() { return "LambR1Sq___"; }
TensorId reservedLambR2SqPrefix() { return "LambR2Sq___"; }
TensorId reservedOptimizerPrefix() { return "Optimizer___"; }
TensorId reservedRecomputePrefix() { return "Recompute___"; }
TensorId cycleCountPrefix() { return "cycleCount___"; }

std::vector<TensorId> reservedPrefixes() {
  return {reservedGradientPrefix(),     reservedUpdatedVarPrefix(),
          reservedAccumPrefix(),        reservedAcclPrefix(),
          reservedAccl1Prefix(),        reservedAccl2Prefix(),
          reservedAccl3Prefix(),        reservedCounterPrefix(),
          reservedStepPrefix(),         reservedStashedPrefix(),
          reservedRestoredPrefix(),     reservedLossScalingPrefix(),
          reservedRandomSeedPrefix(),   reservedSeedModifierPrefix(),
          reservedInitPrefix(),         reservedConcatInitPrefix(),
          reservedConstValuePrefix(),   reservedLoopIteratorPrefix(),
          reservedLoopCondPrefix(),     reservedRemoteArgPrefix(),
          reservedIndexPrefix(),        reservedGlobalNormPrefix(),
          reservedAdamUpdaterPrefix(),  reservedLambR1SqPrefix(),
          reservedLambR2SqPrefix(),     reservedOptimizerPrefix(),
          reservedRecomputePrefix(),    cycleCountPrefix()};
}

TensorId getGradId(const TensorId &id) { return reservedGradientPrefix() + id; }

bool isGradId(const TensorId &id) {
  const TensorId prefix = reservedGradientPrefix();
  return id.size() > prefix.size() && id.compare(0, prefix.size(), prefix) == 0;
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
