// What the slicing operations share: argument checks, the [rows, columns]
// views they work on, the run-time computation of the rows a set of
// offsets selects (the SliceRowIndices vertex), and the row vertices.
#ifndef POPOPS_SRC_SLICEROWS_HPP
#define POPOPS_SRC_SLICEROWS_HPP

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/DynamicSlice.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace popops {
namespace slicing {

/// FLOAT, HALF, INT, UNSIGNED_INT or BOOL, else an error naming t.
void checkType(const std::string &op, const poplar::Tensor &t);
/// UNSIGNED_INT or INT offsets of `expected` elements.
void checkOffsets(const std::string &op, const poplar::Tensor &offset,
                  std::size_t expected);
/// dims within t's rank, distinct, sizes no larger than the dimensions.
void checkDims(const std::string &op, const poplar::Tensor &t,
               const std::vector<std::size_t> &dims,
               const std::vector<std::size_t> &sizes);

/// `t` ([groups..., shape]) with the first `groupDims` dimensions, then
/// `dims` (of the rest, in that order), then the other dimensions, viewed
/// as [product of the first two, product of the others].
poplar::Tensor rowsView(const poplar::Tensor &t, std::size_t groupDims,
                        const std::vector<std::size_t> &dims);

/// Maps the columns of `rows` ([rows, columns]) linearly over the tiles
/// (grains of minGrainSize), the same columns of every row on one tile.
void mapColumns(poplar::Graph &graph, const poplar::Tensor &rows,
                std::size_t minGrainSize);
/// Maps the columns of `rows` like those of `like` (both [., columns]):
/// slicing from one into the other then moves nothing between tiles.
/// Linearly where `like` is not completely mapped.
void mapColumnsLike(poplar::Graph &graph, const poplar::Tensor &rows,
                    const poplar::Tensor &like);

/// `shape` with shape[dims[i]] = sizes[i].
std::vector<std::size_t> slicedShape(std::vector<std::size_t> shape,
                                     const std::vector<std::size_t> &dims,
                                     const std::vector<std::size_t> &sizes);

/// The rows of t's rowsView (t being [groups, shape]) that each slice
/// covers: offsets [groups * slicesPerGroup, dims.size()] give UNSIGNED_INT
/// [groups * slicesPerGroup * product(sizes)] row indices, computed when
/// `prog` runs. A slice that does not fit gives groups * rows (past the
/// end: Skip), wraps around (Wrap), or has its offsets clamped into range,
/// INT offsets below 0 to 0 (Clamp), or starts at 0 (Remap).
enum class OutOfRange : unsigned { Skip = 0, Wrap = 1, Clamp = 2, Remap = 3 };

/// The slice options of multiSlice and the multiUpdate family: Remap with
/// remapOutOfBoundIndices=true, else Skip. paddingIndexUsed is checked (an
/// index equal to the dimension reads zeros either way), the plan options
/// are accepted, anything else is a poplar::invalid_option.
OutOfRange sliceOptions(const std::string &op,
                        const poplar::OptionFlags &options);
poplar::Tensor rowIndices(poplar::Graph &graph, const poplar::Tensor &offsets,
                          std::size_t groups, std::size_t slicesPerGroup,
                          const std::vector<std::size_t> &dimSizes,
                          const std::vector<std::size_t> &sizes,
                          OutOfRange mode, poplar::program::Sequence &prog,
                          const std::string &op);

/// One vertex of `vertexType` per tile holding columns of `baseRows`:
/// rows of `baseRows` by the indices in `offsets` into rows of `subRows`
/// (or the reverse, for updates). `scale` is connected when given.
void addRowVertices(poplar::Graph &graph, poplar::ComputeSet cs,
                    const std::string &vertexType,
                    const poplar::Tensor &baseRows,
                    const poplar::Tensor &subRows,
                    const poplar::Tensor &offsets, const char *baseField,
                    const char *subField, const poplar::Tensor *scale);

/// multiSlice of t at offsets [K, dims.size()], slices that do not fit
/// handled by `mode`: [K, t's shape with sizes along dims].
poplar::Tensor multiSliceRows(poplar::Graph &graph, const poplar::Tensor &t,
                              const poplar::Tensor &offsets,
                              const std::vector<std::size_t> &dims,
                              const std::vector<std::size_t> &sizes,
                              OutOfRange mode, poplar::program::Sequence &prog,
                              const std::string &op);
/// multiUpdate of t with s [K, slice shape] at offsets [K, dims.size()].
void multiUpdateRows(poplar::Graph &graph, const poplar::Tensor &t,
                     const poplar::Tensor &s, const poplar::Tensor &offsets,
                     const std::vector<std::size_t> &dims,
                     const std::vector<std::size_t> &sizes, OutOfRange mode,
                     poplar::program::Sequence &prog, const std::string &op);

/// A valid plan (when requireValid) made for groupSize groups.
void checkPlanGroups(const std::string &op, const SlicePlan &plan,
                     std::size_t groupSize, bool requireValid);
/// A plan made for slicing (slice) or updating (!slice), or no plan.
void checkPlanUse(const std::string &op, const SlicePlan &plan, bool slice);

} // namespace slicing
} // namespace popops

#endif // POPOPS_SRC_SLICEROWS_HPP
