// The strided-box algebra: how each kind of view turns the boxes of its
// inputs into its own boxes, and the flat "modes" of a box that reshape,
// flat runs and storage ranges all reason with. Also the questions Tensor
// answers from flat runs and storage ranges.
#ifndef POPLAR_SRC_GRAPH_TENSORLAYOUT_HPP
#define POPLAR_SRC_GRAPH_TENSORLAYOUT_HPP

#include "graph/TensorImpl.hpp"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace poplar::layout {

/// The number of elements of a shape, or false if it is too large to
/// index: the sizes other than zero must multiply to at most INT64_MAX, as
/// storage offsets are signed.
bool elementCount(ArrayRef<std::size_t> shape, std::size_t &count);

/// Row-major place values of a shape: the flattened index of coordinates c
/// is the sum of c[d] * places[d].
DimValues<std::size_t> placeValues(const std::vector<std::size_t> &shape);

/// One axis of a box in flat terms: `extent` steps, each moving `place` in
/// the flattened index of the view and `stride` in storage.
struct Mode {
  std::size_t extent = 1;
  std::size_t place = 1;
  std::int64_t stride = 0;
};

using Modes = DimValues<Mode>;

/// The modes of a box, outermost first: dimensions of extent one are left
/// out and neighbours that continue each other both in the flattened index
/// and in storage are merged into one mode.
Modes flatModes(const StridedBox &box, const DimValues<std::size_t> &places);

/// The flattened index of a box's first element.
std::size_t flatBase(const StridedBox &box, const DimValues<std::size_t> &places);

/// Calls f(place, storage) for every choice of k[i] < modes[i].extent, with
/// place = sum k[i] * modes[i].place and storage = sum k[i] * modes[i].stride,
/// the last mode varying fastest.
template <class F>
void forEachCombination(const Modes &modes, F &&f) {
  const std::size_t count = modes.size();
  DimValues<std::size_t> k(count, 0);
  std::size_t place = 0;
  std::int64_t storage = 0;
  for (;;) {
    f(place, storage);
    std::size_t i = count;
    for (;;) {
      if (i == 0)
        return;
      --i;
      const Mode &m = modes[i];
      if (++k[i] < m.extent) {
        place += m.place;
        storage += m.stride;
        break;
      }
      // Wrap this mode back to its start and carry into the next one out.
      place -= (m.extent - 1) * m.place;
      storage -= static_cast<std::int64_t>(m.extent - 1) * m.stride;
      k[i] = 0;
    }
  }
}

/// Calls f(flatBegin, length, storageStart, stride) for the runs of one box
/// of a view whose place values are `places`, in flattened order: one run
/// per combination of the box's outer modes, along its innermost mode when
/// that steps through consecutive flattened indices, else one per element
/// (with stride 1).
template <class F>
void forEachBoxRun(const StridedBox &box, const DimValues<std::size_t> &places,
                   F &&f) {
  Modes modes = flatModes(box, places);
  Mode inner{1, 1, 1};
  if (!modes.empty() && modes.back().place == 1) {
    inner = modes.back();
    modes.pop_back();
  }
  const std::size_t base = flatBase(box, places);
  forEachCombination(modes, [&](std::size_t place, std::int64_t storage) {
    f(base + place, inner.extent, box.offset + storage, inner.stride);
  });
}

/// Fills layout.rows when the layout has enough boxes for it to pay: call
/// once a layout is kept, where it stays unchanged.
void indexRows(Layout &layout);

/// The layout of the whole of variable varId with the given shape.
Layout variableLayout(std::size_t varId, const std::vector<std::size_t> &shape);

/// The layout of one input of a view: a temporary the view may transform in
/// place, or a cached layout it must copy from.
struct InputLayout {
  Layout owned;
  const Layout *borrowed = nullptr;

  const Layout &get() const { return borrowed ? *borrowed : owned; }
  Layout take() { return borrowed ? *borrowed : std::move(owned); }
};

/// The boxes of t: the kept ones if there are, else ones worked out for the
/// caller alone (Tensor::Impl::computeLayout).
InputLayout transientLayout(const Tensor &t);

/// The storage of element i of a view of rank one whose layout is `in`
/// (what indexLayout(in, i) gives, without making a layout of it).
StorageRange elementStorage(const Layout &in, std::size_t i);

/// The storage of element i of the view t of rank one, if it is known
/// without working out the element's view: t is a variable or keeps its
/// layout. For the edges of vertices made per element (t[i]).
bool elementStorage(const Tensor &t, std::size_t i, StorageRange &out);

/// The layout to work out a vertex edge's storage ranges and flat runs
/// from, and the shape of the view it belongs to. A flattened view (the
/// usual edge) has the runs and storage of what it flattens, whose boxes
/// are far fewer than its own (one per run).
struct EdgeLayout {
  InputLayout layout;
  const std::vector<std::size_t> *shape = nullptr;
};
EdgeLayout edgeLayout(const Tensor &t);

/// True if the storage ranges (as storageRanges gives) of a view of
/// numElements elements hold fewer elements: some are referred to twice.
inline bool containsAliases(const std::vector<StorageRange> &ranges,
                            std::size_t numElements) {
  std::size_t distinct = 0;
  for (const StorageRange &r : ranges)
    distinct += r.end - r.begin;
  return distinct != numElements;
}

/// The layout of the view `node` (any kind but Variable), given the layouts
/// of its inputs in order.
Layout viewLayout(const Tensor::Impl &node, std::vector<InputLayout> inputs);

/// True if the runs are one variable's elements in order, without gaps.
bool isContiguous(const std::vector<FlatRun> &runs);

/// True if two views' runs give every element the same storage.
bool sameStorage(const std::vector<FlatRun> &a, const std::vector<FlatRun> &b);

/// True if two sets of storage ranges (as storageRanges gives) share an
/// element.
bool intersect(const std::vector<StorageRange> &a,
               const std::vector<StorageRange> &b);

/// At least as many as the pieces forEachContiguousPiece gives.
inline std::size_t contiguousPieceBound(const std::vector<FlatRun> &runs) {
  std::size_t bound = 0;
  for (const FlatRun &run : runs)
    bound += run.stride == 1 ? 1 : run.length;
  return bound;
}

/// Calls f(flatBegin, var, storageBegin, length) for the maximal pieces of
/// a view (given by its runs) whose storage is contiguous and ascending, in
/// element order. A strided run gives one piece per element: that is what
/// the pieces are.
template <class F>
void forEachContiguousPiece(const std::vector<FlatRun> &runs, F &&f) {
  bool open = false;
  std::size_t flat = 0, var = 0, start = 0, length = 0;
  auto add = [&](std::size_t at, std::size_t v, std::size_t s, std::size_t n) {
    if (open && v == var && s == start + length) {
      length += n;
      return;
    }
    if (open)
      f(flat, var, start, length);
    open = true;
    flat = at;
    var = v;
    start = s;
    length = n;
  };
  for (const FlatRun &run : runs) {
    if (run.stride == 1 || run.length == 1) {
      add(run.begin, run.var, static_cast<std::size_t>(run.start), run.length);
      continue;
    }
    std::int64_t storage = run.start;
    for (std::size_t k = 0; k != run.length; ++k, storage += run.stride)
      add(run.begin + k, run.var, static_cast<std::size_t>(storage), 1);
  }
  if (open)
    f(flat, var, start, length);
}

} // namespace poplar::layout

#endif // POPLAR_SRC_GRAPH_TENSORLAYOUT_HPP
