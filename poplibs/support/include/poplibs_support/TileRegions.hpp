// Where the work of an operation on a tensor goes: per tile, the regions
// of the tensor held there that are contiguous in memory, grouped into
// vertices. Vertices connect each region as one field item, so a region's
// elements are reached through a direct pointer, and MultiVertices split
// every region between their workers. Shared by the element-wise
// operations of popops and popnn, which work where their output lives.
// Private to the libraries (not installed).
#ifndef POPLIBS_SUPPORT_TILEREGIONS_HPP
#define POPLIBS_SUPPORT_TILEREGIONS_HPP

#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace poplibs_support {

/// For each tile of the graph, the intervals of t's flattened elements on
/// that tile, split where t is not contiguous in storage, in order. On the
/// CPU target, elements without a tile mapping count as on tile 0; on IPU
/// targets they are a poplibs_error naming `opName` and the tensor.
poplar::Graph::TileToTensorMapping
tileContiguousRegions(const poplar::Graph &graph, const poplar::Tensor &t,
                      const std::string &opName);

/// Intervals of t's flattened elements, cut where t is not contiguous in
/// storage.
std::vector<poplar::Interval>
splitAtDiscontinuities(const poplar::Tensor &t,
                       const std::vector<poplar::Interval> &intervals);

/// A tile's regions grouped for vertices: consecutive regions with at most
/// maxElements elements in each group (a longer region is split).
std::vector<std::vector<poplar::Interval>>
groupRegions(const std::vector<poplar::Interval> &regions,
             std::size_t maxElements);

/// The most elements one vertex of an element-wise operation takes: a tile
/// holding more gets several vertices (which also lets the host run them
/// in parallel when one tile holds a large tensor, as on the CPU target).
constexpr std::size_t maxElementsPerVertex = 1u << 16;

/// Calls fn(tile, regions) for every vertex an operation writing `out`
/// needs: the groups of tileContiguousRegions(out) on each tile.
void forEachVertexGroup(
    const poplar::Graph &graph, const poplar::Tensor &out,
    const std::string &opName,
    const std::function<
        void(unsigned tile, const std::vector<poplar::Interval> &regions)> &fn);

/// The slices of a 1-D tensor for each interval.
std::vector<poplar::Tensor>
regionSlices(const poplar::Tensor &flat,
             const std::vector<poplar::Interval> &regions);

/// The number of elements of each interval.
std::vector<std::size_t>
regionSizes(const std::vector<poplar::Interval> &regions);

} // namespace poplibs_support

#endif // POPLIBS_SUPPORT_TILEREGIONS_HPP
