// The structure of a tensor's storage: which dimensions come in groups of
// consecutive elements that are contiguous in memory on one tile, and
// tensors whose partitions are each contiguous.
#ifndef POPUTIL_VARSTRUCTURE_HPP
#define POPUTIL_VARSTRUCTURE_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <poputil/poputil_export.hpp>

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace poputil {

/// The largest g > 1 dividing the innermost dimension such that every run
/// of g consecutive elements along it is contiguous in one variable's
/// storage and on one tile; 0 when there is none. A poplibs_error for a
/// scalar.
POPUTIL_API unsigned detectInnermostGrouping(const poplar::Graph &graph,
                                             const poplar::Tensor &t);

/// (dimension, grouping).
using GroupingInfo = std::pair<unsigned, unsigned>;

/// The grouped dimensions from the innermost outwards: the first is the
/// dimension whose runs of `grouping` elements are contiguous on one tile;
/// each next one groups runs of the blocks found so far. A dimension may
/// appear more than once. A poplibs_error for a scalar.
POPUTIL_API std::vector<GroupingInfo>
detectDimGroupings(const poplar::Graph &graph, const poplar::Tensor &t);

/// A tensor of `shape` whose partitions (nPartitions[d] along dimension d,
/// each of ceil(n / nPartitions[d]) elements but the last ones, which may
/// be smaller or empty) are each one contiguous region. No tile mapping is
/// set.
POPUTIL_API poplar::Tensor
createPartitionableTensor(poplar::Graph &graph, const poplar::Type &type,
                          const std::vector<std::size_t> &shape,
                          const std::vector<std::size_t> &nPartitions,
                          const poplar::DebugContext &debugContext = {});

/// Calls f(partition index, partition) for every partition of t, as
/// createPartitionableTensor partitions, the last index fastest.
POPUTIL_API void iterateTensorPartitions(
    const poplar::Tensor &t, const std::vector<std::size_t> &nPartitions,
    const std::function<void(const std::vector<std::size_t> &i,
                             const poplar::Tensor &s)> &f);

} // namespace poputil

#endif // POPUTIL_VARSTRUCTURE_HPP
