#include "graph/TensorLayout.hpp"

#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <cassert>
#include <limits>
#include <stdexcept>
#include <utility>

namespace poplar::layout {

using Shape = std::vector<std::size_t>;
using Kind = Tensor::Impl::Kind;

bool elementCount(ArrayRef<std::size_t> shape, std::size_t &count) {
  const auto limit =
      static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
  std::size_t nonZero = 1;
  bool anyZero = false;
  for (std::size_t size : shape) {
    if (size == 0) {
      anyZero = true;
      continue;
    }
    if (nonZero > limit / size)
      return false;
    nonZero *= size;
  }
  count = anyZero ? 0 : nonZero;
  return true;
}

DimValues<std::size_t> placeValues(const Shape &shape) {
  DimValues<std::size_t> places(shape.size());
  std::size_t place = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    places[d] = place;
    place *= shape[d];
  }
  return places;
}

Modes flatModes(const StridedBox &box, const DimValues<std::size_t> &places) {
  Modes modes;
  for (std::size_t d = 0; d != box.extent.size(); ++d) {
    if (box.extent[d] <= 1)
      continue;
    const Mode inner{box.extent[d], places[d], box.stride[d]};
    if (!modes.empty()) {
      Mode &outer = modes.back();
      const auto innerSpan = static_cast<std::int64_t>(inner.extent);
      if (outer.place == inner.place * inner.extent &&
          outer.stride == inner.stride * innerSpan) {
        outer = Mode{outer.extent * inner.extent, inner.place, inner.stride};
        continue;
      }
    }
    modes.push_back(inner);
  }
  return modes;
}

std::size_t flatBase(const StridedBox &box,
                     const DimValues<std::size_t> &places) {
  std::size_t flat = 0;
  for (std::size_t d = 0; d != box.lo.size(); ++d)
    flat += box.lo[d] * places[d];
  return flat;
}

void indexRows(Layout &layout) {
  // Below this many boxes a scan is as quick as the search.
  constexpr std::size_t minBoxes = 32;
  const std::vector<StridedBox> &boxes = layout.boxes;
  if (boxes.size() < minBoxes || boxes[0].lo.empty() ||
      boxes.size() > std::numeric_limits<std::uint32_t>::max())
    return;
  RowIndex &rows = layout.rows;
  rows.order.resize(boxes.size());
  for (std::size_t k = 0; k != boxes.size(); ++k) {
    rows.order[k] = static_cast<std::uint32_t>(k);
    rows.maxExtent = std::max(rows.maxExtent, boxes[k].extent[0]);
  }
  std::stable_sort(rows.order.begin(), rows.order.end(),
                   [&](std::uint32_t a, std::uint32_t b) {
                     return boxes[a].lo[0] < boxes[b].lo[0];
                   });
}

Layout variableLayout(std::size_t varId, const Shape &shape) {
  Layout layout;
  StridedBox box;
  box.var = varId;
  box.lo.assign(shape.size(), 0);
  box.extent.assign(shape.begin(), shape.end());
  for (std::size_t place : placeValues(shape))
    box.stride.push_back(static_cast<std::int64_t>(place));
  if (box.numElements() != 0)
    layout.boxes.push_back(std::move(box));
  return layout;
}

namespace {

std::int64_t signedSize(std::size_t n) { return static_cast<std::int64_t>(n); }

// Calls f(box) for each box of `in`, in order, that may meet rows
// [first, end) of dimension 0: every box, or with a row index only those
// whose first row lies in (first - maxExtent, end).
template <class F>
void forBoxesNearRows(const Layout &in, std::size_t first, std::size_t end,
                      F &&f) {
  if (in.rows.order.empty()) {
    for (const StridedBox &box : in.boxes)
      f(box);
    return;
  }
  const std::vector<std::uint32_t> &order = in.rows.order;
  auto startsBefore = [&](std::uint32_t k, std::size_t row) {
    return in.boxes[k].lo[0] < row;
  };
  const std::size_t from =
      first >= in.rows.maxExtent ? first - in.rows.maxExtent + 1 : 0;
  auto lo = std::lower_bound(order.begin(), order.end(), from, startsBefore);
  auto hi = std::lower_bound(lo, order.end(), end, startsBefore);
  // Usually a few boxes: kept inline, as this runs per row of a view.
  boost::container::small_vector<std::uint32_t, 16> near(lo, hi);
  std::sort(near.begin(), near.end());
  for (std::uint32_t k : near)
    f(in.boxes[k]);
}

// Copies only the boxes that meet the slice, so that slicing a cached
// layout costs nothing for the boxes outside.
Layout sliceLayout(const Layout &in, const std::vector<std::size_t> &bounds) {
  const std::size_t rank = bounds.size() / 2;
  auto meets = [&](const StridedBox &box) {
    for (std::size_t d = 0; d != rank; ++d)
      if (std::max(box.lo[d], bounds[d]) >=
          std::min(box.lo[d] + box.extent[d], bounds[rank + d]))
        return false;
    return true;
  };
  Layout out;
  auto copyCut = [&](const StridedBox &box) {
    if (!meets(box))
      return;
    out.boxes.push_back(box);
    StridedBox &cut = out.boxes.back();
    for (std::size_t d = 0; d != rank; ++d) {
      const std::size_t lo = std::max(box.lo[d], bounds[d]);
      const std::size_t hi =
          std::min(box.lo[d] + box.extent[d], bounds[rank + d]);
      cut.offset += signedSize(lo - box.lo[d]) * box.stride[d];
      cut.lo[d] = lo - bounds[d];
      cut.extent[d] = hi - lo;
    }
  };
  if (rank == 0) {
    for (const StridedBox &box : in.boxes)
      copyCut(box);
  } else {
    forBoxesNearRows(in, bounds[0], bounds[rank], copyCut);
  }
  return out;
}

// Element i of dimension 0, without that dimension: the boxes that hold
// it, each losing its first dimension.
Layout indexLayout(const Layout &in, std::size_t i) {
  Layout out;
  forBoxesNearRows(in, i, i + 1, [&](const StridedBox &box) {
    if (i < box.lo[0] || i >= box.lo[0] + box.extent[0])
      return;
    StridedBox &row = out.boxes.emplace_back();
    row.var = box.var;
    row.offset = box.offset + signedSize(i - box.lo[0]) * box.stride[0];
    row.lo.assign(box.lo.begin() + 1, box.lo.end());
    row.extent.assign(box.extent.begin() + 1, box.extent.end());
    row.stride.assign(box.stride.begin() + 1, box.stride.end());
  });
  return out;
}

Layout dimShuffleLayout(Layout in, const std::vector<std::size_t> &perm) {
  for (StridedBox &box : in.boxes) {
    StridedBox moved = box;
    for (std::size_t i = 0; i != perm.size(); ++i) {
      moved.lo[i] = box.lo[perm[i]];
      moved.extent[i] = box.extent[perm[i]];
      moved.stride[i] = box.stride[perm[i]];
    }
    box = std::move(moved);
  }
  return in;
}

// Extends `before` by `after` when `after` continues it along `dim`: same
// variable and cross-section, storage going on with one stride. Keeps
// concatenations of neighbouring slices of a variable to one box.
bool mergeAlong(StridedBox &before, const StridedBox &after, std::size_t dim) {
  if (before.var != after.var ||
      after.lo[dim] != before.lo[dim] + before.extent[dim])
    return false;
  for (std::size_t d = 0; d != before.lo.size(); ++d) {
    if (d == dim)
      continue;
    if (before.lo[d] != after.lo[d] || before.extent[d] != after.extent[d])
      return false;
    if (before.extent[d] > 1 && before.stride[d] != after.stride[d])
      return false;
  }
  const std::int64_t step = after.offset - before.offset;
  std::int64_t stride = step;
  if (before.extent[dim] > 1)
    stride = before.stride[dim];
  else if (after.extent[dim] > 1)
    stride = after.stride[dim];
  if (before.offset + signedSize(before.extent[dim]) * stride != after.offset)
    return false;
  if (after.extent[dim] > 1 && after.stride[dim] != stride)
    return false;
  before.extent[dim] += after.extent[dim];
  before.stride[dim] = stride;
  return true;
}

Layout concatLayout(const Tensor::Impl &node, std::vector<InputLayout> parts) {
  const std::size_t dim = node.params[0];
  // The first part needs no shift: reuse its boxes, which keeps long chains
  // of appends linear.
  Layout out = parts[0].take();
  std::size_t shift = node.inputs[0]->shape[dim];
  for (std::size_t p = 1; p != parts.size(); ++p) {
    for (StridedBox box : parts[p].get().boxes) {
      box.lo[dim] += shift;
      if (!out.boxes.empty() && mergeAlong(out.boxes.back(), box, dim))
        continue;
      out.boxes.push_back(std::move(box));
    }
    shift += node.inputs[p]->shape[dim];
  }
  return out;
}

Layout broadcastLayout(const Tensor::Impl &node, Layout in) {
  const std::size_t copies = node.params[0];
  const std::size_t dim = node.params[1];
  const std::size_t size = node.inputs[0]->shape[dim];
  if (copies == 0 || in.boxes.empty())
    return Layout{}; // no elements, however many copies
  if (size == 1) {
    // Every copy is the same element: one box with stride 0.
    for (StridedBox &box : in.boxes) {
      box.extent[dim] = copies;
      box.stride[dim] = 0;
    }
    return in;
  }
  Layout out;
  out.boxes.reserve(in.boxes.size() * copies);
  for (std::size_t c = 0; c != copies; ++c) {
    for (const StridedBox &box : in.boxes) {
      out.boxes.push_back(box);
      out.boxes.back().lo[dim] += c * size;
    }
  }
  return out;
}

Layout reverseLayout(const Tensor::Impl &node, Layout in) {
  const std::size_t dim = node.params[0];
  const std::size_t size = node.shape[dim];
  for (StridedBox &box : in.boxes) {
    const std::size_t extent = box.extent[dim];
    box.offset += signedSize(extent - 1) * box.stride[dim];
    box.stride[dim] = -box.stride[dim];
    box.lo[dim] = size - (box.lo[dim] + extent);
  }
  return in;
}

Layout subSampleLayout(const Tensor::Impl &node, Layout in) {
  const std::size_t step = node.params[0];
  const std::size_t dim = node.params[1];
  Layout out;
  out.boxes.reserve(in.boxes.size());
  for (StridedBox &box : in.boxes) {
    const std::size_t lo = box.lo[dim];
    const std::size_t hi = lo + box.extent[dim];
    const std::size_t first = lo % step == 0 ? lo : lo - lo % step + step;
    if (first >= hi)
      continue;
    box.offset += signedSize(first - lo) * box.stride[dim];
    box.lo[dim] = first / step;
    box.extent[dim] = (hi - 1 - first) / step + 1;
    // One element along dim needs no stride (and stride * step could
    // overflow for a step past the end of the storage).
    if (box.extent[dim] > 1)
      box.stride[dim] *= signedSize(step);
    out.boxes.push_back(std::move(box));
  }
  return out;
}

Layout upsampleLayout(const Tensor::Impl &node, const Layout &in) {
  const std::size_t scale = node.params[0];
  const std::size_t dim = node.params[1];
  if (scale == 0)
    return Layout{};
  // Each index along dim becomes `scale` copies of one element: one box
  // with stride 0 per index of the input box.
  Layout out;
  for (const StridedBox &box : in.boxes) {
    for (std::size_t k = 0; k != box.extent[dim]; ++k) {
      StridedBox piece = box;
      piece.offset += signedSize(k) * box.stride[dim];
      piece.lo[dim] = (box.lo[dim] + k) * scale;
      piece.extent[dim] = scale;
      piece.stride[dim] = 0;
      out.boxes.push_back(std::move(piece));
    }
  }
  return out;
}

// Reshape: re-expresses boxes of one shape in another shape with the same
// number of elements.
class Reshaper {
public:
  Reshaper(const Shape &from, const Shape &to)
      : to(to), fromPlaces(placeValues(from)), toPlaces(placeValues(to)) {}

  void convert(const StridedBox &box, Layout &out) const {
    std::vector<StridedBox> work{box};
    while (!work.empty()) {
      StridedBox piece = std::move(work.back());
      work.pop_back();
      if (convertWhole(piece, out))
        continue;
      const Modes modes = flatModes(piece, fromPlaces);
      if (modes.size() == 1 && modes[0].place == 1) {
        convertFlatRun(piece.var, flatBase(piece, fromPlaces), modes[0].extent,
                       piece.offset, modes[0].stride, out);
        continue;
      }
      splitOutermost(std::move(piece), work);
    }
  }

private:
  const Shape &to;
  DimValues<std::size_t> fromPlaces;
  DimValues<std::size_t> toPlaces;

  DimValues<std::size_t> coordinates(std::size_t flat) const {
    DimValues<std::size_t> coords(to.size());
    for (std::size_t d = to.size(); d-- > 0;) {
      coords[d] = flat % to[d];
      flat /= to[d];
    }
    return coords;
  }

  // The dimension of the new shape that a step of `place` moves along, if
  // any (dimensions of size one move along nothing).
  std::size_t dimWithPlace(std::size_t place) const {
    for (std::size_t d = 0; d != to.size(); ++d)
      if (toPlaces[d] == place && to[d] > 1)
        return d;
    return to.size();
  }

  // Tries to express the whole box as one box of the new shape: each mode
  // must start on a dimension's place value and either fit in what is left
  // of that dimension or fill it from zero and carry on outwards.
  bool convertWhole(const StridedBox &box, Layout &out) const {
    const Modes modes = flatModes(box, fromPlaces);
    StridedBox result;
    result.var = box.var;
    result.offset = box.offset;
    result.lo = coordinates(flatBase(box, fromPlaces));
    result.extent.assign(to.size(), 1);
    result.stride.assign(to.size(), 0);
    DimValues<bool> used(to.size(), false);
    for (auto it = modes.rbegin(); it != modes.rend(); ++it) {
      std::size_t extent = it->extent;
      std::size_t place = it->place;
      std::int64_t stride = it->stride;
      while (extent > 1) {
        const std::size_t d = dimWithPlace(place);
        if (d == to.size() || used[d])
          return false;
        used[d] = true;
        result.stride[d] = stride;
        if (result.lo[d] + extent <= to[d]) {
          result.extent[d] = extent;
          break;
        }
        if (result.lo[d] != 0 || extent % to[d] != 0)
          return false;
        result.extent[d] = to[d];
        extent /= to[d];
        place *= to[d];
        stride *= signedSize(to[d]);
      }
    }
    out.boxes.push_back(std::move(result));
    return true;
  }

  // A run of consecutive flattened indices is at most 2 * rank boxes: each
  // step takes the largest block that starts at the current position.
  void convertFlatRun(std::size_t var, std::size_t begin, std::size_t length,
                      std::int64_t start, std::int64_t stride,
                      Layout &out) const {
    const std::size_t rank = to.size();
    const std::size_t end = begin + length;
    for (std::size_t pos = begin; pos < end;) {
      StridedBox box;
      box.var = var;
      box.offset = start + signedSize(pos - begin) * stride;
      box.lo = coordinates(pos);
      box.extent.assign(rank, 1);
      box.stride.assign(rank, 0);
      if (rank == 0) {
        out.boxes.push_back(std::move(box));
        return;
      }
      std::size_t level = rank - 1;
      while (level > 0 && box.lo[level] == 0 &&
             toPlaces[level - 1] <= end - pos)
        --level;
      const std::size_t count =
          std::min(to[level] - box.lo[level], (end - pos) / toPlaces[level]);
      for (std::size_t d = level; d != rank; ++d) {
        box.extent[d] = d == level ? count : to[d];
        box.stride[d] = stride * signedSize(toPlaces[d]);
      }
      pos += count * toPlaces[level];
      out.boxes.push_back(std::move(box));
    }
  }

  // Splits a box into its slices along the outermost dimension with more
  // than one index; pushed so that they are converted in order.
  static void splitOutermost(StridedBox box, std::vector<StridedBox> &work) {
    std::size_t d = 0;
    while (d != box.extent.size() && box.extent[d] <= 1)
      ++d;
    assert(d != box.extent.size() && "single elements always convert");
    const std::size_t extent = box.extent[d];
    const std::int64_t stride = box.stride[d];
    box.extent[d] = 1;
    for (std::size_t k = extent; k-- > 0;) {
      StridedBox piece = box;
      piece.lo[d] += k;
      piece.offset += signedSize(k) * stride;
      work.push_back(std::move(piece));
    }
  }
};

// Reshape to one dimension (flatten, the usual form of a vertex edge): a
// box is one box per run (forEachBoxRun), in flattened order, as Reshaper
// gives them.
Layout flattenLayout(const Tensor::Impl &node, const Layout &in) {
  const DimValues<std::size_t> places = placeValues(node.inputs[0]->shape);
  Layout out;
  for (const StridedBox &box : in.boxes)
    forEachBoxRun(box, places,
                  [&](std::size_t begin, std::size_t length,
                      std::int64_t start, std::int64_t stride) {
                    StridedBox &piece = out.boxes.emplace_back();
                    piece.var = box.var;
                    piece.offset = start;
                    piece.lo.assign(1, begin);
                    piece.extent.assign(1, length);
                    piece.stride.assign(1, length > 1 ? stride : 0);
                  });
  return out;
}

Layout reshapeLayout(const Tensor::Impl &node, const Layout &in) {
  const Shape &from = node.inputs[0]->shape;
  if (from == node.shape)
    return in;
  if (node.shape.size() == 1)
    return flattenLayout(node, in);
  Reshaper reshaper(from, node.shape);
  Layout out;
  out.boxes.reserve(in.boxes.size());
  for (const StridedBox &box : in.boxes)
    reshaper.convert(box, out);
  return out;
}

} // namespace

StorageRange elementStorage(const Layout &in, std::size_t i) {
  StorageRange out;
  bool found = false;
  forBoxesNearRows(in, i, i + 1, [&](const StridedBox &box) {
    if (found || i < box.lo[0] || i >= box.lo[0] + box.extent[0])
      return;
    const std::int64_t at = box.offset + signedSize(i - box.lo[0]) * box.stride[0];
    out = {box.var, static_cast<std::size_t>(at), static_cast<std::size_t>(at) + 1};
    found = true;
  });
  if (!found)
    throw std::logic_error("elementStorage: no box holds the element");
  return out;
}

Layout viewLayout(const Tensor::Impl &node, std::vector<InputLayout> inputs) {
  switch (node.kind) {
  case Kind::Slice:
    return sliceLayout(inputs[0].get(), node.params);
  case Kind::Index:
    return indexLayout(inputs[0].get(), node.params[0]);
  case Kind::Reshape:
    return reshapeLayout(node, inputs[0].get());
  case Kind::DimShuffle:
    return dimShuffleLayout(inputs[0].take(), node.params);
  case Kind::Concat:
    return concatLayout(node, std::move(inputs));
  case Kind::Broadcast:
    return broadcastLayout(node, inputs[0].take());
  case Kind::Reverse:
    return reverseLayout(node, inputs[0].take());
  case Kind::SubSample:
    return subSampleLayout(node, inputs[0].take());
  case Kind::Upsample:
    return upsampleLayout(node, inputs[0].get());
  case Kind::Reinterpret:
    return inputs[0].take();
  case Kind::Variable:
    break;
  }
  throw std::logic_error("viewLayout: a variable is not a view");
}

} // namespace poplar::layout
