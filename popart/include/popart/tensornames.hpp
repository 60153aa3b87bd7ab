// The prefixes PopART reserves for the names of tensors it makes
// (gradients, accumulators, optimiser state, loop and random-seed
// tensors), and names built from them. A model's own tensors must not
// start with any of them.
#ifndef POPART_TENSORNAMES_HPP
#define POPART_TENSORNAMES_HPP

#include <popart/names.hpp>

#include <string>
#include <vector>

namespace popart {

constexpr const char *reservedGradientPrefix() { return "Gradient___"; }
constexpr const char *reservedUpdatedVarPrefix() { return "UpdatedVar___"; }
constexpr const char *reservedAccumPrefix() { return "Accum___"; }
constexpr const char *reservedAcclPrefix() { return "Accl___"; }
constexpr const char *reservedAccl1Prefix() { return "Accl1___"; }
constexpr const char *reservedAccl2Prefix() { return "Accl2___"; }
constexpr const char *reservedAccl3Prefix() { return "Accl3___"; }
constexpr const char *reservedCounterPrefix() { return "Counter___"; }
constexpr const char *reservedStepPrefix() { return "Step___"; }
constexpr const char *reservedStashedPrefix() { return "Stashed___"; }
constexpr const char *reservedRestoredPrefix() { return "Restored___"; }
constexpr const char *reservedLossScalingPrefix() { return "lossScaling_"; }
constexpr const char *reservedRandomSeedPrefix() { return "randomSeed___"; }
constexpr const char *reservedSeedModifierPrefix() { return "randomSeedModifier___"; }
constexpr const char *reservedInitPrefix() { return "Init___"; }
constexpr const char *reservedConcatInitPrefix() { return "ConcatInit___"; }
constexpr const char *reservedConstValuePrefix() { return "ConstValue___"; }
constexpr const char *reservedLoopIteratorPrefix() { return "Iterator___"; }
constexpr const char *reservedLoopCondPrefix() { return "LoopCond___"; }
constexpr const char *reservedRemoteArgPrefix() { return "RemoteArg___"; }
constexpr const char *reservedIndexPrefix() { return "Index___"; }
constexpr const char *reservedGlobalNormPrefix() { return "GlobalNorm___"; }
constexpr const char *reservedAdamUpdaterPrefix() { return "AdamUpdater___"; }
constexpr const char *reservedLambR1SqPrefix() { return "LambR1Sq___"; }
constexpr const char *reservedLambR2SqPrefix() { return "LambR2Sq___"; }
constexpr const char *cycleCountPrefix() { return "cycleCount___"; }

/// Every prefix above.
inline const std::vector<std::string> &reservedPrefixes() {
  static const std::vector<std::string> prefixes = {
      reservedGradientPrefix(),     reservedUpdatedVarPrefix(),
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
      reservedLambR2SqPrefix(),     cycleCountPrefix()};
  return prefixes;
}

/// The id of the gradient of tensor `id` ("Gradient___" + id): anchor it
/// to fetch the gradient in training.
inline TensorId getGradId(const TensorId &id) { return reservedGradientPrefix() + id; }
inline bool isGradId(const TensorId &id) {
  const std::string prefix = reservedGradientPrefix();
  return id.size() > prefix.size() && id.compare(0, prefix.size(), prefix) == 0;
}
/// The tensor a gradient id is the gradient of.
inline TensorId getNonGradId(const TensorId &id) {
  return isGradId(id) ? id.substr(std::string(reservedGradientPrefix()).size()) : id;
}

} // namespace popart

#endif
