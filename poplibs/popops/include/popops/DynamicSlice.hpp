#ifndef POPOPS_DYNAMICSLICE_HPP
#define POPOPS_DYNAMICSLICE_HPP

#include <poplar/ArrayRef.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

#include <cstddef>
#include <vector>

namespace popops {

/// How multiSlice and multiUpdate lay out their work. This SDK needs no
/// planning for them, so a default-constructed plan is always the plan.
class POPOPS_API SlicePlan {
public:
  SlicePlan() = default;
};

namespace embedding {
/// A plan for slicing an embedding table of numEntries rows.
POPOPS_API SlicePlan plan(const poplar::Graph &graph, const poplar::Type &dataType,
                          std::size_t numEntries, std::size_t outputSize,
                          const std::vector<std::size_t> &numLookups,
                          const poplar::OptionFlags &options);
} // namespace embedding

/// A tensor laid out for slicing along `dims`: each tile holds whole
/// columns (the same elements of every slice).
POPOPS_API poplar::Tensor
createSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                      const std::vector<std::size_t> &shape,
                      const std::vector<std::size_t> &dims,
                      const std::vector<std::size_t> &sizes,
                      std::size_t minGrainSize = 0,
                      const poplar::DebugContext &debugContext = {});

/// The slice of t of sizes[i] elements along dims[i] from offset[i]
/// (UNSIGNED_INT, one per dimension, read at run time; wraps around).
POPOPS_API poplar::Tensor
dynamicSlice(poplar::Graph &graph, const poplar::Tensor &t,
             const poplar::Tensor &offset, const std::vector<std::size_t> &dims,
             const std::vector<std::size_t> &sizes,
             poplar::program::Sequence &prog,
             const poplar::DebugContext &debugContext = {},
             const poplar::OptionFlags &options = {});
/// Writes s into that slice of t.
POPOPS_API void dynamicUpdate(poplar::Graph &graph, const poplar::Tensor &t,
                              const poplar::Tensor &s,
                              const poplar::Tensor &offset,
                              const std::vector<std::size_t> &dims,
                              const std::vector<std::size_t> &sizes,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});

/// For each of the K offsets (UNSIGNED_INT [K, 1]), the slice of size 1
/// along dims[0]: the result is [K, 1, t without dims[0]...]. Offsets out of
/// range give zeros.
POPOPS_API poplar::Tensor
multiSlice(poplar::Graph &graph, const poplar::Tensor &t,
           const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
           const std::vector<std::size_t> &sizes,
           poplar::program::Sequence &prog, const SlicePlan &plan,
           const poplar::OptionFlags &options,
           const poplar::DebugContext &debugContext = {});
/// The same with offsets known when the graph is built.
POPOPS_API poplar::Tensor
multiSlice(poplar::Graph &graph, const poplar::Tensor &t,
           poplar::ArrayRef<unsigned> offsets, std::size_t dim,
           poplar::program::Sequence &prog,
           const poplar::DebugContext &debugContext = {},
           const poplar::OptionFlags &options = {});
/// Writes slice k of s ([K, 1, ...]) at offsets[k] of t; offsets out of
/// range are skipped; with repeated offsets the last slice wins.
POPOPS_API void multiUpdate(poplar::Graph &graph, const poplar::Tensor &t,
                            const poplar::Tensor &s,
                            const poplar::Tensor &offsets,
                            const std::vector<std::size_t> &dims,
                            const std::vector<std::size_t> &sizes,
                            poplar::program::Sequence &prog,
                            const SlicePlan &plan,
                            const poplar::OptionFlags &options,
                            const poplar::DebugContext &debugContext = {});
/// Adds scale (FLOAT scalar) times slice k of s at offsets[k] of t; slices
/// at repeated offsets all add, in order.
POPOPS_API void multiUpdateAdd(poplar::Graph &graph, const poplar::Tensor &t,
                               const poplar::Tensor &s,
                               const poplar::Tensor &offsets,
                               const poplar::Tensor &scale,
                               const std::vector<std::size_t> &dims,
                               const std::vector<std::size_t> &sizes,
                               poplar::program::Sequence &prog,
                               const SlicePlan &plan,
                               const poplar::OptionFlags &options,
                               const poplar::DebugContext &debugContext = {});
/// Sets t at offsets[k] to the element-wise maximum of itself and slice k
/// of s (NaN in either gives NaN); repeated offsets all take part.
POPOPS_API void multiUpdateMax(poplar::Graph &graph, const poplar::Tensor &t,
                               const poplar::Tensor &s,
                               const poplar::Tensor &offsets,
                               const std::vector<std::size_t> &dims,
                               const std::vector<std::size_t> &sizes,
                               poplar::program::Sequence &prog,
                               const SlicePlan &plan,
                               const poplar::OptionFlags &options,
                               const poplar::DebugContext &debugContext = {});
/// Multiplies t at offsets[k] element-wise by slice k of s.
POPOPS_API void multiUpdateMul(poplar::Graph &graph, const poplar::Tensor &t,
                               const poplar::Tensor &s,
                               const poplar::Tensor &offsets,
                               const std::vector<std::size_t> &dims,
                               const std::vector<std::size_t> &sizes,
                               poplar::program::Sequence &prog,
                               const SlicePlan &plan,
                               const poplar::OptionFlags &options,
                               const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_DYNAMICSLICE_HPP
