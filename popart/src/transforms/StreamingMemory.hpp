// Where a variable lives (the original's StreamingMemory transform, for
// sessions without execution phases): on chip, or off chip in a remote
// buffer that the lowering loads before the ops of a program fragment that
// use it and stores after the ones that change it (IrLowering).
#ifndef POPART_SRC_TRANSFORMS_STREAMINGMEMORY_HPP
#define POPART_SRC_TRANSFORMS_STREAMINGMEMORY_HPP

#include "ir/Ir.hpp"

#include <popart/tensorlocation.hpp>

#include <string>

namespace popart {

/// The location SessionOptions give variable `t`: the accumulators'
/// settings for gradient accumulators (and SGD's velocity when micro-batch
/// gradients accumulate into it), the optimiser state's for the other
/// state, the weights' for weights; OffChip falls back to OnChip below the
/// settings' minElementsForOffChip (not for accumulators, as the original).
/// Optimiser hyper-parameters are always on chip.
TensorLocation determineTensorLocation(const Ir &ir, const Tensor &t);

/// The SessionOptions field that places variable `t`
/// ("optimizerStateTensorLocationSettings" ...).
std::string tensorLocationSettingsName(const Ir &ir, const Tensor &t);

/// Whether `t` is a variable held in a remote buffer.
bool isOffChip(const Ir &ir, const Tensor &t);

/// The handle of the remote buffer of off-chip variable `id`.
std::string remoteBufferName(const TensorId &id);

} // namespace popart

#endif
