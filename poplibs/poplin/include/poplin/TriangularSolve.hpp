// Triangular systems of equations.
#ifndef POPLIN_TRIANGULARSOLVE_HPP
#define POPLIN_TRIANGULARSOLVE_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/poplin_export.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace poplin {

class PlanningCache;

/// The matrix A of triangularSolve ([..., N, N]), laid out for it: each
/// matrix of the batch on a tile of its own, round robin.
POPLIN_API poplar::Tensor createTriangularSolveInputLHS(
    poplar::Graph &graph, const poplar::Type &inputType,
    const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
    const std::vector<std::size_t> &bShape, bool leftSide,
    const poplar::DebugContext &debugContext,
    const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

/// The right-hand side B of triangularSolve, laid out as the LHS.
POPLIN_API poplar::Tensor createTriangularSolveInputRHS(
    poplar::Graph &graph, const poplar::Type &inputType,
    const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
    const std::vector<std::size_t> &bShape, bool leftSide,
    const poplar::DebugContext &debugContext,
    const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

/// a with the elements outside its lower (or upper) triangle zeroed, and
/// its diagonal set to one when unitDiagonal.
POPLIN_API poplar::Tensor triangularMask(poplar::Graph &graph,
                                         const poplar::Tensor &a, bool lower,
                                         bool unitDiagonal,
                                         poplar::program::Sequence &prog,
                                         const poplar::DebugContext &debugContext = {});

/// X with a X = b (leftSide; b and X [..., N, K]) or X a = b (b and X
/// [..., K, N]), for each matrix a ([..., N, N], FLOAT or HALF) of the
/// batch: only the lower (lower) or upper triangle of a is read, its
/// diagonal taken as ones when unitDiagonal. No options are accepted: any
/// is a poputil::poplibs_error naming it, as are shapes or types that do
/// not match.
POPLIN_API poplar::Tensor
triangularSolve(poplar::Graph &graph, const poplar::Tensor &a,
                const poplar::Tensor &b, bool leftSide, bool lower,
                bool unitDiagonal, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = {},
                PlanningCache *cache = nullptr);

/// The matrix products triangularSolve plans: none (each system is solved
/// on one tile, without matMul).
POPLIN_API std::vector<std::pair<MatMulParams, poplar::OptionFlags>>
getTriangularSolveMatMulPrePlanParameters(
    const poplar::Type &inputType, const poplar::Type &outputType,
    const std::vector<std::size_t> &aShape,
    const std::vector<std::size_t> &bShape, bool leftSide, bool lower,
    const poplar::OptionFlags &options);

} // namespace poplin

#endif // POPLIN_TRIANGULARSOLVE_HPP
