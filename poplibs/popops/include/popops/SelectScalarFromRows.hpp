#ifndef POPOPS_SELECTSCALARFROMROWS_HPP
#define POPOPS_SELECTSCALARFROMROWS_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

namespace popops {

/// A 1-D tensor whose element r is params[r][indices[r]], for params a 2-D
/// FLOAT or HALF tensor and indices UNSIGNED_INT with one element per row.
/// An index past the end of its row gives NaN; MASKED_LABEL_CODE
/// (popops/EncodingConstants.hpp) gives 0.
POPOPS_API poplar::Tensor
selectScalarFromRows(poplar::Graph &graph, const poplar::Tensor &params,
                     const poplar::Tensor &indices,
                     poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_SELECTSCALARFROMROWS_HPP
