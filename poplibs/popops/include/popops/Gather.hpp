#ifndef POPOPS_GATHER_HPP
#define POPOPS_GATHER_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

#include <cstddef>
#include <vector>

namespace popops {

struct GatherParams {
  std::size_t maxElementsPerTile = 65535;
};

/// numpy.take: the slices of input along `axis` at `indices` (UNSIGNED_INT,
/// any shape), which replace that dimension in the result. Indices out of
/// range give zeros.
POPOPS_API poplar::Tensor gather(poplar::Graph &graph, const poplar::Tensor &input,
                                 const poplar::Tensor &indices, unsigned axis,
                                 poplar::program::Sequence &prog,
                                 GatherParams params = {},
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});

/// A tensor of operandShape laid out for gathering along `axis` (as for
/// slicing along it: each tile holds the same columns of every slice).
POPOPS_API poplar::Tensor
createGatherInput(poplar::Graph &graph, const poplar::Type &type,
                  const std::vector<std::size_t> &operandShape, unsigned axis,
                  GatherParams params = {},
                  const poplar::DebugContext &debugContext = {});

/// A tensor of inputShape laid out for the XLA-style gather below, sliced
/// along the dimensions of startIndexMap.
POPOPS_API poplar::Tensor
createGatherInput(poplar::Graph &graph, const poplar::Type &type,
                  const std::vector<std::size_t> &inputShape,
                  const std::vector<std::size_t> &sliceSizes,
                  std::vector<unsigned> startIndexMap,
                  const poplar::DebugContext &debugContext = {});

/// XLA's Gather (tensorflow.org/xla/operation_semantics#gather): for every
/// index vector of `indices` (along indexVectorDim; scalars when
/// indexVectorDim == indices.rank()), the slice of sliceSizes starting at
/// those indices along the dimensions startIndexMap names (0 along the
/// others), each start clamped so the slice fits. The dimensions
/// collapsedSliceDims (of size 1) are dropped; the others are placed at
/// offsetDims of the result, the batch dimensions of `indices` at the rest.
POPOPS_API poplar::Tensor
gather(poplar::Graph &graph, const poplar::Tensor &input,
       const poplar::Tensor &indices, std::size_t indexVectorDim,
       const std::vector<std::size_t> &offsetDims,
       const std::vector<std::size_t> &sliceSizes,
       const std::vector<std::size_t> &collapsedSliceDims,
       const std::vector<unsigned> &startIndexMap,
       poplar::program::Sequence &prog,
       const poplar::DebugContext &debugContext = {},
       const poplar::OptionFlags &optionFlags = {});

} // namespace popops

#endif // POPOPS_GATHER_HPP
