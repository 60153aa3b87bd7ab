// Encodings: iota and one-hot.
#ifndef POPOPS_ENCODING_HPP
#define POPOPS_ENCODING_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <popops/popops_export.hpp>

namespace popops {

/// Sets t, a 1-D tensor of UNSIGNED_INT, to startInteger, startInteger + 1,
/// ... on the tiles that hold it.
POPOPS_API void iota(poplar::Graph &graph, const poplar::Tensor &t,
                     unsigned startInteger, poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {});

/// The same for a 1-D tensor of INT.
POPOPS_API void iota(poplar::Graph &graph, const poplar::Tensor &t,
                     int startInteger, poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {});

/// Row i of `encoded` ([number of indices, classes]) becomes one-hot at
/// column indices[i] (INT or UNSIGNED_INT): 1 there, 0 elsewhere, or all 0
/// for an index out of range.
POPOPS_API void encodeOneHot(poplar::Graph &graph, const poplar::Tensor &indices,
                             const poplar::Tensor &encoded,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {});
/// The same with the values `on` and `off` (scalars of encoded's type).
POPOPS_API void encodeOneHot(poplar::Graph &graph, const poplar::Tensor &indices,
                             const poplar::Tensor &encoded,
                             poplar::program::Sequence &prog,
                             const poplar::Tensor &on, const poplar::Tensor &off,
                             const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_ENCODING_HPP
