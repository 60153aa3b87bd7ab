// The Cholesky factor of symmetric positive definite matrices.
#ifndef POPLIN_CHOLESKY_HPP
#define POPLIN_CHOLESKY_HPP

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

/// The matrix products cholesky plans: none (each matrix is factored on
/// one tile, without matMul).
POPLIN_API std::vector<std::pair<MatMulParams, poplar::OptionFlags>>
getCholeskyMatMulPrePlanParameters(const poplar::Type &type,
                                   const std::vector<std::size_t> &shape,
                                   bool lower, poplar::OptionFlags options);

/// A tensor of shape [..., N, N] (FLOAT or HALF) laid out for cholesky:
/// each matrix on a tile of its own, round robin.
POPLIN_API poplar::Tensor
createCholeskyInput(poplar::Graph &graph, const poplar::Type &type,
                    const std::vector<std::size_t> &shape, bool lower,
                    const poplar::DebugContext &debugContext,
                    const poplar::OptionFlags &options = {},
                    PlanningCache *cache = nullptr);

/// The Cholesky factor of each matrix of a ([..., N, N], FLOAT or HALF,
/// symmetric positive definite): L with a = L L^T, zero above the
/// diagonal, when lower; else U = L^T with a = U^T U, zero below. Only
/// that triangle of a is read. A matrix that is not positive definite gives
/// NaN from its first non-positive pivot on. No options are accepted: any
/// is a poputil::poplibs_error naming it, as is a bad shape or type.
POPLIN_API poplar::Tensor cholesky(poplar::Graph &graph, const poplar::Tensor &a,
                                   bool lower, poplar::program::Sequence &prog,
                                   const poplar::DebugContext &debugContext = {},
                                   poplar::OptionFlags options = {},
                                   PlanningCache *cache = nullptr);

/// cholesky, writing the factors over a.
POPLIN_API void choleskyInPlace(poplar::Graph &graph, const poplar::Tensor &a,
                                bool lower, poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                poplar::OptionFlags options = {},
                                PlanningCache *cache = nullptr);

} // namespace poplin

#endif // POPLIN_CHOLESKY_HPP
