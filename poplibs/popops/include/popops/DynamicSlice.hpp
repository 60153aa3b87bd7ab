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
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace popops {

class SlicePlanAccess;

/// How a slice or update of an embedding is laid out. A default-constructed
/// plan is "no plan" (any operation accepts it); embedding::plan makes a
/// valid one, which records what it was made for (group size, sizes, the
/// uses and option values) so that operations and the grouped tensor
/// creators can check they match. This SDK has one layout for every plan.
class POPOPS_API SlicePlan {
public:
  SlicePlan();
  ~SlicePlan();
  SlicePlan(const SlicePlan &other);
  SlicePlan(SlicePlan &&other) noexcept;
  SlicePlan &operator=(const SlicePlan &other);
  SlicePlan &operator=(SlicePlan &&other) noexcept;

  friend POPOPS_API std::ostream &operator<<(std::ostream &o,
                                             const SlicePlan &p);
  friend POPOPS_API bool operator<(const SlicePlan &a,
                                   const SlicePlan &b) noexcept;
  friend POPOPS_API bool operator==(const SlicePlan &a,
                                    const SlicePlan &b) noexcept;

private:
  friend class SlicePlanAccess;
  bool planned = false;
  std::size_t groupSize = 1;
  std::size_t numEntries = 0;
  std::size_t outputSize = 0;
  std::vector<std::size_t> numLookups;
  bool usedForSlice = true;
  bool usedForUpdate = true;
  std::string operationForUpdate = "add";
};
POPOPS_API bool operator<(const SlicePlan &a, const SlicePlan &b) noexcept;
POPOPS_API bool operator==(const SlicePlan &a, const SlicePlan &b) noexcept;
POPOPS_API bool operator!=(const SlicePlan &a, const SlicePlan &b) noexcept;

namespace embedding {
/// A plan for slicing an embedding table of numEntries rows of outputSize
/// elements, numLookups[i] indices at a time. Options (others are an
/// error): usedForSlice, usedForUpdate (true/false, not both false),
/// operationForUpdate (none, add, max, mul), availableMemoryProportion
/// (0 to 1), indicesDistribution (uniform, onePoint), indicesAreSorted,
/// validateIndices (true/false), partialType (half, float).
POPOPS_API SlicePlan plan(const poplar::Graph &graph,
                          const poplar::Type &dataType,
                          const std::size_t numEntries,
                          const std::size_t outputSize,
                          const std::vector<std::size_t> &numLookups,
                          const poplar::OptionFlags &options);
/// The same for groupSize independent tables.
POPOPS_API SlicePlan plan(const poplar::Graph &graph,
                          const poplar::Type &dataType,
                          const std::size_t groupSize,
                          const std::size_t numEntries,
                          const std::size_t outputSize,
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
/// The same, for a plan.
POPOPS_API poplar::Tensor
createSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                      const std::vector<std::size_t> &shape,
                      const std::vector<std::size_t> &dims,
                      const std::vector<std::size_t> &sizes,
                      const SlicePlan &plan, const poplar::OptionFlags &options,
                      const poplar::DebugContext &debugContext = {});
/// [groupSize, shape...], each group laid out for slicing; the plan must be
/// valid and made for groupSize.
POPOPS_API poplar::Tensor createGroupedSliceableTensor(
    poplar::Graph &graph, const poplar::Type &type, const std::size_t groupSize,
    const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
    const std::vector<std::size_t> &sizes, const SlicePlan &plan,
    const poplar::OptionFlags &options,
    const poplar::DebugContext &debugContext = {});
/// [numIndices, shape of t with sizes along dims], its columns on the tiles
/// that hold the same columns of t (no exchange to slice into it).
POPOPS_API poplar::Tensor
createSliceTensor(poplar::Graph &graph, const poplar::Tensor &t,
                  const std::vector<std::size_t> &dims,
                  const std::vector<std::size_t> &sizes, std::size_t numIndices,
                  const poplar::DebugContext &debugContext = {});
/// [numIndices, shape with sizes along dims], laid out like
/// createSliceableTensor's columns.
POPOPS_API poplar::Tensor
createSliceTensor(poplar::Graph &graph, const poplar::Type &type,
                  const std::vector<std::size_t> &shape,
                  const std::vector<std::size_t> &dims,
                  const std::vector<std::size_t> &sizes, std::size_t numIndices,
                  const SlicePlan &plan, const poplar::OptionFlags &options,
                  const poplar::DebugContext &debugContext = {});
/// [groupSize, numIndices, shape with sizes along dims].
POPOPS_API poplar::Tensor createGroupedSliceTensor(
    poplar::Graph &graph, const poplar::Type &type, const std::size_t groupSize,
    const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
    const std::vector<std::size_t> &sizes, const std::size_t numIndices,
    const SlicePlan &plan, const poplar::OptionFlags &options,
    const poplar::DebugContext &debugContext = {});
/// UNSIGNED_INT [numIndices, dims.size()], mapped linearly.
POPOPS_API poplar::Tensor
createIndicesTensor(poplar::Graph &graph, const std::vector<std::size_t> &dims,
                    std::size_t numIndices, const SlicePlan &plan,
                    const poplar::OptionFlags &options,
                    const poplar::DebugContext &debugContext = {});
/// UNSIGNED_INT [groupSize, numIndices, dims.size()].
POPOPS_API poplar::Tensor createGroupedIndicesTensor(
    poplar::Graph &graph, const std::size_t groupSize,
    const std::vector<std::size_t> &dims, const std::size_t numIndices,
    const SlicePlan &plan, const poplar::OptionFlags &options,
    const poplar::DebugContext &debugContext = {});
/// A tensor of s's shape times numSlices[i] along dims[i], each slice-sized
/// block mapped like s.
POPOPS_API poplar::Tensor
createSliceableTensorFromSlice(poplar::Graph &graph, const poplar::Tensor &s,
                               const std::vector<std::size_t> &dims,
                               const std::vector<std::size_t> &numSlices,
                               const poplar::DebugContext &debugContext = {});
/// The tile mapping of a slice of t (its first slice: every slice of a
/// tensor laid out for slicing is mapped alike).
POPOPS_API poplar::Graph::TileToTensorMapping
getSliceMapping(poplar::Graph &graph, const poplar::Tensor &t,
                const std::vector<std::size_t> &dims,
                const std::vector<std::size_t> &sizes);

/// The slice of t of sizes[i] elements along dims[i] from offset[i]
/// (UNSIGNED_INT, one per dimension, read at run time; wraps around).
POPOPS_API poplar::Tensor
dynamicSlice(poplar::Graph &graph, const poplar::Tensor &t,
             const poplar::Tensor &offset, const std::vector<std::size_t> &dims,
             const std::vector<std::size_t> &sizes,
             poplar::program::Sequence &prog,
             const poplar::DebugContext &debugContext = {},
             const poplar::OptionFlags &options = {});
/// dynamicSlice into a given output (of the slice's shape and t's type).
POPOPS_API void dynamicSliceWithOutput(
    poplar::Graph &graph, const poplar::Tensor &output, const poplar::Tensor &t,
    const poplar::Tensor &offset, const std::vector<std::size_t> &dims,
    const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});
/// Writes s into that slice of t (along any number of dimensions at once;
/// offsets wrap around).
POPOPS_API void dynamicUpdate(poplar::Graph &graph, const poplar::Tensor &t,
                              const poplar::Tensor &s,
                              const poplar::Tensor &offset,
                              const std::vector<std::size_t> &dims,
                              const std::vector<std::size_t> &sizes,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});

/// For each of the K rows of offsets (UNSIGNED_INT [K, dims.size()]), the
/// slice of sizes[i] elements from offsets[k][i] along dims[i]: the result
/// is [K, shape of t with sizes along dims]. A slice that does not fit
/// (offset > dim - size) gives zeros.
POPOPS_API poplar::Tensor
multiSlice(poplar::Graph &graph, const poplar::Tensor &t,
           const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
           const std::vector<std::size_t> &sizes,
           poplar::program::Sequence &prog, const SlicePlan &plan,
           const poplar::OptionFlags &options,
           const poplar::DebugContext &debugContext = {});
/// multiSlice of each group: t [G, ...], offsets [G, K, dims.size()], the
/// result [G, K, ...]; dims index the dimensions of a group.
POPOPS_API poplar::Tensor groupedMultiSlice(
    poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &offsets,
    const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
    poplar::program::Sequence &prog, const SlicePlan &plan,
    const poplar::OptionFlags &options,
    const poplar::DebugContext &debugContext = {});
/// The same with offsets known when the graph is built (slices of size 1
/// along dim).
POPOPS_API poplar::Tensor
multiSlice(poplar::Graph &graph, const poplar::Tensor &t,
           poplar::ArrayRef<unsigned> offsets, std::size_t dim,
           poplar::program::Sequence &prog,
           const poplar::DebugContext &debugContext = {},
           const poplar::OptionFlags &options = {});
/// Writes slice k of s ([K, slice shape]) at offsets[k] of t; slices that
/// do not fit are skipped; where slices overlap the last one wins.
POPOPS_API void multiUpdate(poplar::Graph &graph, const poplar::Tensor &t,
                            const poplar::Tensor &s,
                            const poplar::Tensor &offsets,
                            const std::vector<std::size_t> &dims,
                            const std::vector<std::size_t> &sizes,
                            poplar::program::Sequence &prog,
                            const SlicePlan &plan,
                            const poplar::OptionFlags &options,
                            const poplar::DebugContext &debugContext = {});
POPOPS_API void groupedMultiUpdate(
    poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
    const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
    const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
    const SlicePlan &plan, const poplar::OptionFlags &options,
    const poplar::DebugContext &debugContext = {});
/// Adds scale (a scalar, FLOAT or t's type) times slice k of s at
/// offsets[k] of t; overlapping slices all add, in order.
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
POPOPS_API void groupedMultiUpdateAdd(
    poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
    const poplar::Tensor &offsets, const poplar::Tensor &scale,
    const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
    poplar::program::Sequence &prog, const SlicePlan &plan,
    const poplar::OptionFlags &options,
    const poplar::DebugContext &debugContext = {});
/// multiUpdateAdd with offsets known when the graph is built (slices of
/// size 1 along dim).
POPOPS_API void multiUpdateAdd(poplar::Graph &graph, const poplar::Tensor &t,
                               const poplar::Tensor &s,
                               poplar::ArrayRef<unsigned> offsets,
                               const poplar::Tensor &scale, std::size_t dim,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &optionFlags = {});
/// Sets t at offsets[k] to the element-wise maximum of itself and slice k
/// of s (NaN in either gives NaN); overlapping slices all take part.
POPOPS_API void multiUpdateMax(poplar::Graph &graph, const poplar::Tensor &t,
                               const poplar::Tensor &s,
                               const poplar::Tensor &offsets,
                               const std::vector<std::size_t> &dims,
                               const std::vector<std::size_t> &sizes,
                               poplar::program::Sequence &prog,
                               const SlicePlan &plan,
                               const poplar::OptionFlags &options,
                               const poplar::DebugContext &debugContext = {});
POPOPS_API void groupedMultiUpdateMax(
    poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
    const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
    const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
    const SlicePlan &plan, const poplar::OptionFlags &options,
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
POPOPS_API void groupedMultiUpdateMul(
    poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
    const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
    const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
    const SlicePlan &plan, const poplar::OptionFlags &options,
    const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_DYNAMICSLICE_HPP
