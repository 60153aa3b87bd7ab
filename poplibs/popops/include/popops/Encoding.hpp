// Encodings: iota.
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

} // namespace popops

#endif // POPOPS_ENCODING_HPP
