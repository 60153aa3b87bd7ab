// Features weighted by a continuous B-spline kernel (the spline
// convolutions of geometric deep learning).
#ifndef POPOPS_SPLINEWEIGHTING_HPP
#define POPOPS_SPLINEWEIGHTING_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

namespace popops {

/// output[e][o] = sum_s basis[e][s] * sum_i input[e][i] *
/// weight[weightIndex[e][s]][i][o], [numEdges, numOutputChannels], from
/// input [numEdges, numInputChannels], weight [numWeights,
/// numInputChannels, numOutputChannels] (of input's type, FLOAT or HALF),
/// and basis (input's type) and weightIndex (INT) [numEdges, numSplines]
/// as splineBasis makes them. A weight index outside the weights gives a
/// zero term. poputil::poplibs_error for tensors of other ranks, types or
/// sizes.
POPOPS_API poplar::Tensor
splineWeighting(poplar::Graph &graph, const poplar::Tensor &input,
                const poplar::Tensor &weight, const poplar::Tensor &basis,
                const poplar::Tensor &weightIndex,
                poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif
