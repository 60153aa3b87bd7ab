#ifndef POPOPS_SCATTER_HPP
#define POPOPS_SCATTER_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

#include <cstddef>
#include <functional>
#include <vector>

namespace popops {

/// XLA's Scatter (tensorflow.org/xla/operation_semantics#scatter), in place
/// on `operand`: for every index vector of `indices` (along indexVectorDim;
/// scalars when indexVectorDim == indices.rank()) the window of `updates`
/// (its updateWindowDims; the operand's insertWindowDims have size 1) is
/// written at those start indices along scatterDimsToOperandDims (0 along
/// the others). A window that does not fit is skipped; where windows
/// overlap the last one wins.
POPOPS_API void scatter(poplar::Graph &graph, const poplar::Tensor &operand,
                        const poplar::Tensor &indices,
                        const poplar::Tensor &updates,
                        std::size_t indexVectorDim,
                        std::vector<unsigned> updateWindowDims,
                        std::vector<std::size_t> insertWindowDims,
                        std::vector<unsigned> scatterDimsToOperandDims,
                        poplar::program::Sequence &prog,
                        const poplar::DebugContext &debugContext = {});

/// Combines the operand's current window (first argument) with the update
/// window (second), giving the window to write.
using UpdateComputationFunc = std::function<poplar::Tensor(
    poplar::Graph &, poplar::Tensor &, poplar::Tensor &,
    poplar::program::Sequence &)>;

/// scatter writing updateComputation(current window, update window). Every
/// window is combined with the operand as it was before the scatter, so
/// with windows that overlap the last one's combination wins.
POPOPS_API void scatter(poplar::Graph &graph, const poplar::Tensor &operand,
                        const poplar::Tensor &indices,
                        const poplar::Tensor &updates,
                        std::size_t indexVectorDim,
                        std::vector<unsigned> updateWindowDims,
                        std::vector<std::size_t> insertWindowDims,
                        std::vector<unsigned> scatterDimsToOperandDims,
                        UpdateComputationFunc &updateComputation,
                        poplar::program::Sequence &prog,
                        const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_SCATTER_HPP
