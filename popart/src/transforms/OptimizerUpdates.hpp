// The weight update: for each weight with a gradient, the optimiser's ops
// (ops/OptimizerOps.hpp), the gradient accumulators when accumulating over
// micro-batches, and gradient clipping by norm. The optimiser's
// non-constant scalars become tensors the IR keeps up to date
// (Ir::getOptimizerTensors); constant ones are constants.
#ifndef POPART_SRC_TRANSFORMS_OPTIMIZERUPDATES_HPP
#define POPART_SRC_TRANSFORMS_OPTIMIZERUPDATES_HPP

#include <popart/datatype.hpp>
#include <popart/names.hpp>
#include <popart/sessionoptions.hpp>

#include <vector>

namespace popart {

class Ir;

/// The id of the loss scaling scalar (a constant or an optimiser tensor of
/// `type`), made on first use.
TensorId lossScalingTensor(Ir &ir, DataType type);

void growOptimizerUpdates(Ir &ir, const std::vector<TensorId> &weights);
/// Whether weight updates take their gradients reduced on the host
/// (SessionOptions::hostAllReduce, or replicas in several processes).
bool reducesOnHost(const SessionOptions &options);

/// Orders every op that changes a tensor in place after the other ops that
/// read that tensor.
void orderInPlaceUpdates(Ir &ir);

} // namespace popart

#endif
