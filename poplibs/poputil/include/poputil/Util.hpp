#ifndef POPUTIL_UTIL_HPP
#define POPUTIL_UTIL_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poputil/poputil_export.hpp>

#include <climits>
#include <cstddef>
#include <vector>

namespace poputil {

/// Merges intervals that touch (the list is kept in order).
POPUTIL_API void mergeAdjacentRegions(std::vector<poplar::Interval> &regions);
POPUTIL_API void
mergeAdjacentRegions(std::vector<std::vector<poplar::Interval>> &mapping);

/// All the intervals of a list of lists, in order.
POPUTIL_API std::vector<poplar::Interval>
flattenIntervals(const std::vector<std::vector<poplar::Interval>> &intervals);

/// Splits regions into at most maxPartitions partitions of whole grains,
/// balanced by element count.
POPUTIL_API std::vector<std::vector<poplar::Interval>>
splitRegions(const std::vector<poplar::Interval> &regions, unsigned grainSize,
             unsigned maxPartitions, unsigned minElementsPerPartition = 0,
             unsigned maxElementsPerPartition = UINT_MAX,
             unsigned maxElementsPerRegion = UINT_MAX);
/// splitRegions over the worker contexts of a tile.
POPUTIL_API std::vector<std::vector<poplar::Interval>>
splitRegionsBetweenWorkers(const poplar::Target &target,
                           const std::vector<poplar::Interval> &regions,
                           unsigned grainSize,
                           unsigned minElementsPerPartition = 0,
                           unsigned maxElementsPerPartition = UINT_MAX,
                           unsigned maxElementsPerRegion = UINT_MAX);

/// The indices of element `index` of a row-major array of `shape`, and
/// back.
POPUTIL_API std::vector<std::size_t>
unflattenIndex(const std::vector<std::size_t> &shape, std::size_t index);
POPUTIL_API std::size_t flattenIndex(const std::vector<std::size_t> &shape,
                                     const std::vector<std::size_t> &indices);

/// A new variable like `in` (same shape and mapping) with a Copy of `in`
/// into it added to prog.
POPUTIL_API poplar::Tensor
duplicate(poplar::Graph &graph, const poplar::Tensor &in,
          poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext = {},
          poplar::TensorCloneMethod method =
              poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

/// N clones of t stacked in a new outer dimension.
POPUTIL_API poplar::Tensor
cloneN(poplar::Graph &graph, const poplar::Tensor &t, unsigned N,
       const poplar::DebugContext &debugContext = {},
       poplar::TensorCloneMethod method =
           poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

/// The value a double becomes when stored as a device half.
POPUTIL_API double castToDeviceHalfValue(const poplar::Target &target,
                                         double input);

} // namespace poputil

#endif // POPUTIL_UTIL_HPP
