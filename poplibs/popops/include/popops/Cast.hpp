// Element type conversion. Floating point to integer truncates towards
// zero and saturates (NaN gives 0), integers convert with wrap-around, any
// type to BOOL is `x != 0`. Types: FLOAT, HALF, INT, UNSIGNED_INT, SHORT,
// UNSIGNED_SHORT, BOOL, CHAR, SIGNED_CHAR and UNSIGNED_CHAR.
#ifndef POPOPS_CAST_HPP
#define POPOPS_CAST_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <popops/popops_export.hpp>

namespace popops {

/// src converted to dstType, as a new tensor mapped like src.
POPOPS_API poplar::Tensor cast(poplar::Graph &graph, const poplar::Tensor &src,
                               const poplar::Type &dstType,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {});

/// src converted to the type of dst and written to dst (same shape).
POPOPS_API void castWithOutput(poplar::Graph &graph, const poplar::Tensor &src,
                               const poplar::Tensor &dst,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {});

/// A program converting src into dst (same shape).
POPOPS_API poplar::program::Program
cast(poplar::Graph &graph, poplar::Tensor src, poplar::Tensor dst,
     const poplar::DebugContext &debugContext = {});

/// Adds the vertices converting src into dst to cs.
POPOPS_API void cast(poplar::Graph &graph, poplar::Tensor src,
                     poplar::Tensor dst, poplar::ComputeSet cs);

/// Adds the vertices converting src to a new tensor of dstType to cs.
POPOPS_API poplar::Tensor cast(poplar::Graph &graph, poplar::Tensor src,
                               const poplar::Type &dstType,
                               poplar::ComputeSet cs,
                               const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_CAST_HPP
