// Autodiff: the backward pass of the main graph, grown from the final
// loss with the grad ops each op gives (Op::getGradOps). The gradient of
// tensor x is the tensor Gradient___x; gradients reaching a tensor from
// several consumers are summed.
#ifndef POPART_SRC_TRANSFORMS_AUTODIFF_HPP
#define POPART_SRC_TRANSFORMS_AUTODIFF_HPP

#include "ir/Graph.hpp"

#include <set>
#include <vector>

namespace popart {

class Ir;

/// Grows the gradients of the weights (Variables that are weights) and of
/// the tensors in `alsoWanted` (anchored gradients) with respect to the
/// final loss, whose own gradient is `lossGradSeed` (a tensor of the
/// loss's shape holding the loss scaling). Returns the weights that have a
/// gradient. popart::error naming the op if the loss depends on a wanted
/// tensor through an op that has no gradient.
std::vector<TensorId> growBackwardPass(Ir &ir, const TensorId &lossId,
                                       const TensorId &lossGradSeed,
                                       const std::set<TensorId> &alsoWanted);

} // namespace popart

#endif
