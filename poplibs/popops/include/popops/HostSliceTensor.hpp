#ifndef POPOPS_HOSTSLICETENSOR_HPP
#define POPOPS_HOSTSLICETENSOR_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

#include <cstddef>
#include <vector>

namespace popops {

/// What createHostSliceableTensor returns.
struct IndicesAndTensor {
  poplar::Tensor indices;
  poplar::Tensor tensor;
};

/// A 2-D tensor [slices, row] laid out for copies to or from a data stream
/// or remote buffer of rows (each row spread over the tiles in whole
/// 64-byte pieces), with UNSIGNED_INT indices [slices] for the copy.
/// `isRead` is accepted; the layout is the same either way.
POPOPS_API IndicesAndTensor createHostSliceableTensor(
    poplar::Graph &graph, const poplar::Type &type,
    const std::vector<std::size_t> &shape, const bool isRead,
    const poplar::DebugContext &debugContext = {});

/// A tensor of any shape laid out for host copies, as above.
POPOPS_API poplar::Tensor
createHostTransferableTensor(poplar::Graph &graph, const poplar::Type &type,
                             const std::vector<std::size_t> &shape,
                             bool isRead,
                             const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_HOSTSLICETENSOR_HPP
