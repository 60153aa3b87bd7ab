// The prefixes PopART reserves for the names of the tensors it makes
// (gradients, accumulators, optimiser state, loop and random-seed
// tensors), and names built from them: the gradient of tensor "x" is
// "Gradient___x", its optimiser state "Accl___x", and so on. Anchoring
// such a name fetches that tensor. A model's own tensors must not start
// with any of them.
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
POPART_API TensorId reservedCounterPrefix();
POPART_API TensorId reservedStepPrefix();
POPART_API TensorId reservedStashedPrefix();
POPART_API TensorId reservedRestoredPrefix();
POPART_API TensorId reservedLossScalingPrefix();
POPART_API TensorId reservedRandomSeedPrefix();
POPART_API TensorId reservedSeedModifierPrefix();
POPART_API TensorId reservedInitPrefix();
POPART_API TensorId reservedConcatInitPrefix();
POPART_API TensorId reservedConstValuePrefix();
POPART_API TensorId reservedLoopIteratorPrefix();
POPART_API TensorId reservedLoopCondPrefix();
POPART_API TensorId reservedRemoteArgPrefix();
POPART_API TensorId reservedIndexPrefix();
POPART_API TensorId reservedGlobalNormPrefix();
POPART_API TensorId reservedAdamUpdaterPrefix();
POPART_API TensorId reservedLambR1SqPrefix();
POPART_API TensorId reservedLambR2SqPrefix();
/// The optimiser's scalars held in tensors (learning rates ...).
POPART_API TensorId reservedOptimizerPrefix();
/// The outputs of ops run again in the backward pass.
POPART_API TensorId reservedRecomputePrefix();
POPART_API TensorId cycleCountPrefix();
/// Every prefix above.
POPART_API std::vector<TensorId> reservedPrefixes();

/// "Gradient___" + id: anchor it to fetch the gradient in training.
POPART_API TensorId getGradId(const TensorId &id);
/// The id whose gradient `gradId` is; popart::error if it is not a
/// gradient's id.
POPART_API TensorId getNonGradId(const TensorId &gradId);
POPART_API bool isGradId(const TensorId &id);
/// "UpdatedVar___" + id.
POPART_API TensorId getUpdatedVarId(const TensorId &id);

} // namespace popart

#endif
