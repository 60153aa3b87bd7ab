// The variable of a convolution's weights, created in the layout the
// convolution reads them in.
#ifndef POPART_SRC_OPS_CONVWEIGHTS_HPP
#define POPART_SRC_OPS_CONVWEIGHTS_HPP

#include "lowering/Lowering.hpp"

#include <poplar/Graph.hpp>

#include <optional>

namespace popart {

/// On the CPU device, the variable of `weights` (a tensor no op produces)
/// when its only reader is a convolution reading it as its weights: made
/// by poplin::createWeights for that convolution, so that its vertices read
/// the weights where they are stored rather than gathering them on every
/// run; none otherwise. IPU targets keep the tensor's own element order
/// (mapLikePlannedOperand), for which their exchange estimates are made.
std::optional<poplar::Tensor>
createPlannedConvWeights(LoweringContext &ctx, poplar::Graph &graph,
                         const Tensor &weights);

} // namespace popart

#endif
