// The inside of a Tensor: an immutable expression node (a variable, or a view
// of other nodes) whose storage mapping is worked out on first use and kept.
#ifndef POPLAR_SRC_GRAPH_TENSORIMPL_HPP
#define POPLAR_SRC_GRAPH_TENSORIMPL_HPP

#include <poplar/Tensor.hpp>

#include <boost/container/small_vector.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace poplar {
namespace layout {

/// Values per dimension of a box or per mode of a walk over one. Views of
/// up to six dimensions keep them inline (convolutions' grouped views have
/// five or six): a layout of many boxes then costs no allocation per box.
template <class T> using DimValues = boost::container::small_vector<T, 6>;

/// A box of the view's index space whose elements sit at affine positions
/// of one variable: the element at lo + k (0 <= k < extent, per dimension)
/// is storage element offset + sum_d k[d] * stride[d] of variable `var`.
/// Strides may be zero (broadcast) or negative (reverse).
struct StridedBox {
  std::size_t var = 0;
  std::int64_t offset = 0;
  DimValues<std::size_t> lo;
  DimValues<std::size_t> extent;
  DimValues<std::int64_t> stride;
  std::size_t numElements() const;
};

/// Where the boxes of a kept layout start in dimension 0: their positions
/// in order of lo[0], and the largest extent[0]. A row or slice of a view
/// that many views share then visits only the boxes that can meet it, not
/// every box (a vertex per row of a view of n boxes would cost n^2).
/// Copies and moves start empty: a layout changed after it was indexed
/// (views transform their input's boxes in place) must not keep it.
struct RowIndex {
  std::vector<std::uint32_t> order;
  std::size_t maxExtent = 0;

  RowIndex() = default;
  RowIndex(const RowIndex &) {}
  RowIndex(RowIndex &&) noexcept {}
  RowIndex &operator=(const RowIndex &) { return clear(); }
  RowIndex &operator=(RowIndex &&) noexcept { return clear(); }

private:
  RowIndex &clear() {
    order.clear();
    maxExtent = 0;
    return *this;
  }
};

/// The storage of a whole view: boxes that partition its index space.
struct Layout {
  std::vector<StridedBox> boxes;
  RowIndex rows; // filled for kept layouts of many boxes (indexRows)
};

/// A run of consecutive flattened indices [begin, begin + length) of a view
/// whose storage is start, start + stride, ... of one variable.
struct FlatRun {
  std::size_t begin = 0;
  std::size_t length = 0;
  std::size_t var = 0;
  std::int64_t start = 0;
  std::int64_t stride = 1;
};

/// A range [begin, end) of storage elements of one variable.
struct StorageRange {
  std::size_t var = 0;
  std::size_t begin = 0;
  std::size_t end = 0;
};

} // namespace layout

struct Tensor::Impl {
  enum class Kind : std::uint8_t {
    Variable,   // leaf: graphId, varId
    Slice,      // params: begin[rank], end[rank]
    Index,      // params: {i}: index i of dimension 0, which is dropped
    Reshape,    // new shape in `shape`
    DimShuffle, // params: permutation
    Concat,     // params: {dimension}; inputs: the parts
    Broadcast,  // params: {N, dimension}
    Reverse,    // params: {dimension}
    SubSample,  // params: {stride, dimension}
    Upsample,   // params: {scale, dimension}
    Reinterpret // the input with another element type of the same size
  };

  Kind kind = Kind::Variable;
  Type type;
  std::vector<std::size_t> shape;
  std::vector<std::shared_ptr<const Impl>> inputs;
  std::vector<std::size_t> params;
  std::uint64_t graphId = 0; // the graph of the variables (views copy it)
  std::size_t varId = 0;     // Variable only
  bool isConstant = false;   // Variable only
  bool anyConstant = false;  // some variable under this node is a constant
  std::string debugName;     // Variable only: the name errors show

  std::size_t numElements() const;

  /// The boxes of this view, computed once (thread-safe) and then shared.
  const layout::Layout &getLayout() const;
  /// The kept boxes of this view, or nullptr if they were never asked for.
  const layout::Layout *keptLayout() const;
  /// The boxes of this view worked out anew and not kept (the inputs that
  /// other views share keep theirs): for views asked once, such as vertex
  /// edges, whose kept boxes would hold much of a graph's memory.
  layout::Layout computeLayout() const;

private:
  mutable std::once_flag layoutOnce;
  mutable std::unique_ptr<layout::Layout> layoutCache;
  // Set once layoutCache is filled, so that materialising a view that uses
  // this node can reuse the cache without waiting on layoutOnce.
  mutable std::atomic<bool> layoutReady{false};
};

namespace layout {

/// A new variable leaf: the whole of variable varId of graph graphId.
Tensor makeVariable(std::uint64_t graphId, std::size_t varId, Type type,
                    std::vector<std::size_t> shape, bool isConstant,
                    std::string debugName);

/// The storage of every element of t in flattened (row-major) order:
/// ascending, adjacent runs merged where storage continues with the same
/// stride, together covering [0, t.numElements()).
std::vector<FlatRun> flatRuns(const Tensor &t);

/// The storage t touches: per variable, sorted, disjoint and with touching
/// ranges merged. Elements referred to more than once appear once.
std::vector<StorageRange> storageRanges(const Tensor &t);

/// flatRuns and storageRanges of a view of the given shape whose boxes are
/// already at hand.
std::vector<FlatRun> flatRuns(const Layout &layout,
                              const std::vector<std::size_t> &shape);
std::vector<StorageRange> storageRanges(const Layout &layout);

/// Calls f(graphId, varId, isConstant) once per distinct variable leaf.
template <class F> void forEachVariable(const Tensor &t, F &&f);

} // namespace layout
} // namespace poplar

#include "graph/TensorImplInl.hpp"

#endif // POPLAR_SRC_GRAPH_TENSORIMPL_HPP
