// Setting every element of a tensor to zero: popops::fill with 0.
#ifndef POPOPS_ZERO_HPP
#define POPOPS_ZERO_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>
#include <popops/popops_export.hpp>

#include <vector>

namespace popops {

/// Adds to zeroCS vertices on `tile` that zero the regions tileRegions (of
/// the flattened t), which must be on that tile.
POPOPS_API void zero(poplar::Graph &graph, poplar::Tensor t,
                     const std::vector<poplar::Interval> &tileRegions,
                     unsigned tile, poplar::ComputeSet zeroCS);

/// Adds to zeroCS vertices that zero the elements of t on `tile`.
POPOPS_API void zero(poplar::Graph &graph, const poplar::Tensor &t,
                     unsigned tile, poplar::ComputeSet zeroCS);

/// Adds to zeroCS vertices that zero t, mapping[tile] being the regions of
/// the flattened t on each tile.
POPOPS_API void zero(poplar::Graph &graph, const poplar::Tensor &t,
                     const std::vector<std::vector<poplar::Interval>> &mapping,
                     poplar::ComputeSet zeroCS);

/// Adds to prog a compute set that zeroes t, on the tiles that hold t.
POPOPS_API void zero(poplar::Graph &graph, const poplar::Tensor &t,
                     poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_ZERO_HPP
