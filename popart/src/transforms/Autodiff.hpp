// Autodiff: the backward pass of the main graph, grown from the final
// loss with the grad ops each op gives (Op::getGradOps). The gradient of
// tensor x is the tensor Gradient___x; gradients reaching a tensor from
// several consumers are summed.
#ifndef POPART_SRC_TRANSFORMS_AUTODIFF_HPP
#define POPART_SRC_TRANSFORMS_AUTODIFF_HPP

#include "ir/Graph.hpp"

#include <set>
#include <string>
#include <vector>

namespace popart {

class Ir;

/// Whether values of this info have gradients (FLOAT and FLOAT16).
bool isDifferentiable(const TensorInfo &info);

/// Grows the gradients of the weights (Variables that are weights) and of
/// the tensors in `alsoWanted` (anchored gradients) with respect to the
/// final loss, whose own gradient is `lossGradSeed` (a tensor of the
/// loss's shape holding the loss scaling). Returns the weights that have a
/// gradient. popart::error naming the op if the loss depends on a wanted
/// tensor through an op that has no gradient.
std::vector<TensorId> growBackwardPass(Ir &ir, const TensorId &lossId,
                                       const TensorId &lossGradSeed,
                                       const std::set<TensorId> &alsoWanted);

/// The gradient of a subgraph as a subgraph of its own: its inputs are
/// the subgraph's inputs, then a gradient for each of its outputs; it runs
/// the subgraph's ops again, then their grad ops; output k is the gradient
/// of input gradientOf[k] (the floating-point inputs its outputs depend
/// on).
struct SubgraphGradient {
  std::string graphId;
  std::vector<int> gradientOf;
};
SubgraphGradient growSubgraphGradient(Ir &ir, const Graph &subgraph);

} // namespace popart

#endif
