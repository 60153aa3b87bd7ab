#ifndef POPOPS_UPDATESCALARINROWS_HPP
#define POPOPS_UPDATESCALARINROWS_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/ExprOp.hpp>
#include <popops/popops_export.hpp>

namespace popops {

/// In place, for each row r of the 2-D FLOAT or HALF tensor params:
/// params[r][indices[r]] -= 1 (indices UNSIGNED_INT, one per row). A row
/// whose index is MASKED_LABEL_CODE (popops/EncodingConstants.hpp) is left
/// alone; a row whose index is past its end becomes all NaN (as the
/// gradient of a sparse softmax cross-entropy does for a bad label).
POPOPS_API void updateScalarInRows(poplar::Graph &graph,
                                   const poplar::Tensor &params,
                                   const poplar::Tensor &indices,
                                   poplar::program::Sequence &program,
                                   const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_UPDATESCALARINROWS_HPP
