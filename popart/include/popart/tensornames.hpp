// The prefixes PopART reserves for the tensors it adds to a graph: the
// gradient of tensor "x" is "Gradient___x", its optimiser state
// "Accl___x", and so on. Anchoring such a name fetches that tensor.
#ifndef POPART_TENSORNAMES_HPP
#define POPART_TENSORNAMES_HPP

#include <popart/names.hpp>
#include <popart/popart_export.hpp>

#include <string>
#include <vector>

namespace popart {

POPART_API TensorId reservedGradientPrefix();
POPART_API TensorId reservedUpdatedVarPrefix();
POPART_API TensorId reservedAccumPrefix();
POPART_API TensorId reservedAcclPrefix();
POPART_API TensorId reservedAccl1Prefix();
POPART_API TensorId reservedAccl2Prefix();
POPART_API TensorId reservedAccl3Prefix();
POPART_API TensorId reservedStepPrefix();
POPART_API TensorId reservedCounterPrefix();
POPART_API TensorId reservedStashedPrefix();
POPART_API TensorId reservedRestoredPrefix();
POPART_API TensorId reservedRandomSeedPrefix();
POPART_API TensorId reservedLossScalingPrefix();
POPART_API TensorId reservedInitPrefix();
POPART_API TensorId reservedConstValuePrefix();
POPART_API TensorId reservedOptimizerPrefix();
POPART_API TensorId reservedRecomputePrefix();
/// Every reserved prefix.
POPART_API std::vector<TensorId> reservedPrefixes();

/// "Gradient___" + id.
POPART_API TensorId getGradId(const TensorId &id);
/// The id whose gradient `gradId` is; popart::error if it is not a
/// gradient's id.
POPART_API TensorId getNonGradId(const TensorId &gradId);
POPART_API bool isGradId(const TensorId &id);
/// "UpdatedVar___" + id.
POPART_API TensorId getUpdatedVarId(const TensorId &id);

} // namespace popart

#endif
