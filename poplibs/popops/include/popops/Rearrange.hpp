// Rearranging tensors in memory: transposing many small matrices, and
// regrouping a tensor so that another dimension's groups are contiguous.
#ifndef POPOPS_REARRANGE_HPP
#define POPOPS_REARRANGE_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <popops/popops_export.hpp>
#include <poputil/VarStructure.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <utility>

namespace popops {
namespace rearrange {

/// Whether the fast transposition applies: HALF matrices with rows and
/// columns multiples of 4, or 32-bit ones (FLOAT, INT, UNSIGNED_INT) with
/// multiples of 2, and at least one transposition.
POPOPS_API bool canUseFastTranspose(const poplar::Target &target,
                                    const poplar::Type &type, unsigned numRows,
                                    unsigned numColumns,
                                    unsigned numTranspositions);

/// Adds to `cs` the vertices transposing matrices of rows x cols: mapping
/// gives, for each tile, the intervals of transposition indices that tile
/// does, and getInOut(i) the flattened input and output of transposition i.
POPOPS_API void addTransposeVertices(
    poplar::Graph &graph, const poplar::ComputeSet &cs,
    const poplar::Type &dType, unsigned rows, unsigned cols,
    const poplar::Graph::TileToTensorMapping &mapping,
    std::function<std::pair<const poplar::Tensor, const poplar::Tensor>(
        std::size_t)>
        getInOut);

/// A new tensor holding `in` with its innermost two dimensions transposed
/// ([..., R, C] to [..., C, R]), each matrix on the tile of its input's
/// first element; the transpositions are added to `cs`.
POPOPS_API poplar::Tensor
partialTranspose(poplar::Graph &graph, const poplar::Tensor &in,
                 const poplar::ComputeSet &cs,
                 const poplar::DebugContext &debugContext = {});

/// The smallest grouping the fast transposition handles: 4 for HALF, 2 for
/// 32-bit types, 1 otherwise.
POPOPS_API unsigned getMinimumRegroupGrainSize(const poplar::Type &type);

/// `t`'s contents in a new tensor whose storage has `to` (dimension,
/// grouping) innermost: each group of `to.second` elements along
/// `to.first` contiguous, on the tile of t's element. The data moves by
/// copies added to `copies`; `transposeCS` is not used. `from` is t's
/// grouping (checked to divide its dimension).
POPOPS_API poplar::Tensor
regroupTensor(poplar::Graph &graph, const poplar::Tensor &t,
              poplar::program::Sequence &copies,
              const poplar::ComputeSet &transposeCS,
              const poputil::GroupingInfo &from,
              const poputil::GroupingInfo &to,
              const poplar::DebugContext &debugContext = {});

/// `in` regrouped (regroupTensor, copies added to prog) like `ref`'s
/// innermost grouping when in's innermost grouping is another one and the
/// dimension divides; otherwise `in` itself.
POPOPS_API poplar::Tensor
regroupIfBeneficial(poplar::Graph &graph, const poplar::Tensor &in,
                    const poplar::Tensor &ref, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {});

/// The same towards a grouping of preferredGrouping in the innermost
/// dimension.
POPOPS_API poplar::Tensor
regroupIfBeneficial(poplar::Graph &graph, const poplar::Tensor &in,
                    std::size_t preferredGrouping,
                    poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {});

} // namespace rearrange
} // namespace popops

#endif // POPOPS_REARRANGE_HPP
