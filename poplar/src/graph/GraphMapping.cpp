// Tile mapping of tensors, clones that keep a mapping, and virtual graphs.
#include "graph/GraphImpl.hpp"
#include "target/TargetBuilder.hpp"
#include "graph/TensorImpl.hpp"
#include "graph/TensorLayout.hpp"

#include <poplar/exceptions.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>
#include <tuple>

namespace poplar {
namespace {

void appendInterval(std::vector<Interval> &intervals, std::size_t begin,
                    std::size_t end) {
  if (!intervals.empty() && intervals.back().end() == begin)
    intervals.back() = Interval(intervals.back().begin(), end);
  else
    intervals.emplace_back(begin, end);
}

// The tiles of a block of one variable's storage, written element by element
// and put back into its TileMapping in one pass: a view of many short runs
// (a transposed weight, say) would otherwise cost a tree update per run or,
// strided, per element.
struct DenseBlock {
  std::size_t begin = 0;
  std::vector<unsigned> tiles;
};

// Assigns the storage of flattened elements [begin, end) of a view, given
// by its runs (sorted, covering every element), to tile. Elements of a
// variable with a dense block go to the block.
void assignFlat(Graph::Impl &graph, const std::vector<layout::FlatRun> &runs,
                std::map<std::size_t, DenseBlock> &dense, std::size_t begin,
                std::size_t end, unsigned tile) {
  auto it = std::upper_bound(
      runs.begin(), runs.end(), begin,
      [](std::size_t flat, const layout::FlatRun &run) { return flat < run.begin; });
  if (it != runs.begin())
    --it;
  for (; it != runs.end() && it->begin < end; ++it) {
    const std::size_t from = std::max(begin, it->begin);
    const std::size_t to = std::min(end, it->begin + it->length);
    if (from >= to)
      continue;
    const std::size_t n = to - from;
    const std::int64_t first =
        it->start + it->stride * static_cast<std::int64_t>(from - it->begin);
    auto block = dense.find(it->var);
    if (block != dense.end()) {
      std::int64_t element = first - static_cast<std::int64_t>(block->second.begin);
      for (std::size_t k = 0; k != n; ++k, element += it->stride)
        block->second.tiles[static_cast<std::size_t>(element)] = tile;
      continue;
    }
    TileMapping &mapping = graph.variables[it->var].mapping;
    const std::int64_t last = first + it->stride * static_cast<std::int64_t>(n - 1);
    if (it->stride == 1 || it->stride == -1 || it->stride == 0 || n == 1) {
      const auto low = static_cast<std::size_t>(std::min(first, last));
      const auto high = static_cast<std::size_t>(std::max(first, last));
      mapping.assign(low, high + 1, tile);
      continue;
    }
    for (std::size_t k = 0; k != n; ++k) {
      const auto element = static_cast<std::size_t>(
          first + it->stride * static_cast<std::int64_t>(k));
      mapping.assign(element, element + 1, tile);
    }
  }
}

// Dense blocks, holding their current tiles, for the variables of a view
// mapped in many short pieces (`pieces`: the mapping's intervals and the
// view's runs) that the view reaches closely packed (the block spans at
// most four times the elements reached).
std::map<std::size_t, DenseBlock>
denseBlocks(const Graph::Impl &graph, const std::vector<layout::FlatRun> &runs,
            std::size_t pieces) {
  struct Span {
    std::size_t elements = 0;
    std::size_t low = ~std::size_t(0), high = 0;
  };
  std::map<std::size_t, Span> spans;
  for (const auto &run : runs) {
    const std::int64_t last =
        run.start + run.stride * static_cast<std::int64_t>(run.length - 1);
    Span &s = spans[run.var];
    s.elements += run.stride == 0 ? 1 : run.length;
    s.low = std::min(s.low, static_cast<std::size_t>(std::min(run.start, last)));
    s.high = std::max(s.high, static_cast<std::size_t>(std::max(run.start, last)));
  }
  std::map<std::size_t, DenseBlock> blocks;
  constexpr std::size_t minPieces = 64, maxMeanPiece = 64;
  std::size_t elements = 0;
  for (const auto &[var, s] : spans)
    elements += s.elements;
  if (pieces < minPieces || elements > maxMeanPiece * pieces)
    return blocks;
  for (const auto &[var, s] : spans) {
    if (s.high - s.low + 1 > 4 * s.elements)
      continue;
    DenseBlock block;
    const std::size_t low = s.low; // a lambda cannot capture a binding
    block.begin = low;
    block.tiles.resize(s.high - low + 1);
    graph.variables[var].mapping.forEach(
        low, s.high + 1, [&](std::size_t b, std::size_t e, unsigned tile) {
          std::fill(block.tiles.begin() + std::ptrdiff_t(b - low),
                    block.tiles.begin() + std::ptrdiff_t(e - low), tile);
        });
    blocks.emplace(var, std::move(block));
  }
  return blocks;
}

// Puts dense blocks back into their variables' mappings.
void storeDenseBlocks(Graph::Impl &graph,
                      const std::map<std::size_t, DenseBlock> &blocks) {
  for (const auto &[var, block] : blocks)
    graph.variables[var].mapping.assignEach(block.begin, block.tiles);
}

// Clones a view in the storage order of the view itself (the original's
// "preserve order"): each variable the view wholly uses is replaced by a new
// variable of the same shape and tile mapping and the view's expression is
// rebuilt over the new variables, so the clone's contiguous regions are
// the view's. A map over a channels-innermost convolution output then
// writes a channels-innermost result instead of a transposed one.
class StoragePreservingClone {
public:
  StoragePreservingClone(Graph &graph, Graph::Impl &impl, Type type,
                         std::string name)
      : graph(graph), impl(impl), type(type), name(std::move(name)) {}

  /// The clone of `node`, recursing through views that use each element of
  /// their inputs once (concatenations, reshapes, shuffles, reversals) down
  /// to parts that wholly use their variables; any other part becomes a
  /// new variable in its own element order.
  Tensor clone(const std::shared_ptr<const Tensor::Impl> &node) {
    using Kind = Tensor::Impl::Kind;
    const Tensor view(node);
    if (usesWholeVariables(view))
      return rebuild(node);
    switch (node->kind) {
    case Kind::Concat:
    case Kind::Reshape:
    case Kind::DimShuffle:
    case Kind::Reverse:
    case Kind::Reinterpret:
      return withInputs(node, [&](const auto &input) { return clone(input); });
    default: {
      Tensor fresh = graph.addVariable(type, node->shape, name);
      graph.setTileMapping(fresh, graph.getTileMapping(view, false));
      return fresh;
    }
    }
  }

private:
  // Each variable of the view used whole, and each element once.
  bool usesWholeVariables(const Tensor &view) const {
    std::size_t covered = 0;
    for (const auto &range : layout::storageRanges(view)) {
      if (range.begin != 0 ||
          range.end != impl.variables[range.var].numElements)
        return false;
      covered += range.end;
    }
    return covered == view.numElements();
  }

  // The same expression over new variables, one per variable of the view.
  Tensor rebuild(const std::shared_ptr<const Tensor::Impl> &node) {
    if (node->kind != Tensor::Impl::Kind::Variable)
      return withInputs(node,
                        [&](const auto &input) { return rebuild(input); });
    auto found = replaced.find(node->varId);
    if (found != replaced.end())
      return found->second;
    Tensor fresh = graph.addVariable(type, node->shape, name);
    impl.variables[fresh.getImpl().varId].mapping =
        impl.variables[node->varId].mapping;
    replaced.emplace(node->varId, fresh);
    return fresh;
  }

  // node's view over its inputs transformed by f, in the clone's type.
  template <class F>
  Tensor withInputs(const std::shared_ptr<const Tensor::Impl> &node, F &&f) {
    if (node->kind == Tensor::Impl::Kind::Reinterpret)
      return f(node->inputs.front());
    auto copy = std::make_shared<Tensor::Impl>();
    copy->kind = node->kind;
    copy->type = type;
    copy->shape = node->shape;
    copy->params = node->params;
    copy->graphId = node->graphId;
    for (const auto &input : node->inputs)
      copy->inputs.push_back(f(input).getImplPtr());
    return Tensor(std::move(copy));
  }

  Graph &graph;
  Graph::Impl &impl;
  Type type;
  std::string name;
  std::map<std::size_t, Tensor> replaced;
};

} // namespace

void Graph::setTileMapping(const Tensor &t, unsigned tileNum) {
  impl->checkOwnership(t, "setTileMapping");
  if (tileNum >= view->tiles.size())
    throw invalid_tile_mapping(
        "setTileMapping: tile " + std::to_string(tileNum) +
        " is out of range for tensor '" + t.getDebugStr() + "': the graph has " +
        std::to_string(view->tiles.size()) + " tiles");
  const unsigned tile = view->tiles[tileNum];
  for (const auto &range : layout::storageRanges(t))
    impl->variables[range.var].mapping.assign(range.begin, range.end, tile);
}

void Graph::setTileMapping(const Tensor &t, const TileToTensorMapping &mapping) {
  impl->checkOwnership(t, "setTileMapping");
  if (mapping.size() > view->tiles.size())
    throw invalid_tile_mapping(
        "setTileMapping: the mapping of tensor '" + t.getDebugStr() +
        "' names " + std::to_string(mapping.size()) + " tiles but the graph has " +
        std::to_string(view->tiles.size()));
  // One walk of the flattened storage serves every interval: slicing a view
  // per interval would cost each interval the whole layout.
  const std::size_t numElements = t.numElements();
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    for (const auto &interval : mapping[tile])
      if (interval.end() > numElements || interval.begin() > interval.end())
        throw invalid_tile_mapping(
            "setTileMapping: interval [" + std::to_string(interval.begin()) +
            ", " + std::to_string(interval.end()) + ") on tile " +
            std::to_string(tile) + " is out of range for tensor '" +
            t.getDebugStr() + "' of " + std::to_string(numElements) +
            " elements");
  const std::vector<layout::FlatRun> runs = layout::flatRuns(t);
  std::size_t pieces = runs.size();
  for (const auto &intervals : mapping)
    pieces += intervals.size();
  std::map<std::size_t, DenseBlock> dense = denseBlocks(*impl, runs, pieces);
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    for (const auto &interval : mapping[tile])
      if (interval.size() != 0)
        assignFlat(*impl, runs, dense, interval.begin(), interval.end(),
                   view->tiles[tile]);
  storeDenseBlocks(*impl, dense);
}

Graph::TileToTensorMapping Graph::getTileMapping(const Tensor &t,
                                                 bool *isComplete) const {
  impl->checkOwnership(t, "getTileMapping");
  TileToTensorMapping result(view->tiles.size());
  bool complete = true;
  auto record = [&](std::size_t flatBegin, std::size_t flatEnd, unsigned tile) {
    if (tile == TileMapping::NoTile) {
      complete = false;
      return;
    }
    const unsigned local = tile < view->topLevelToLocal.size()
                               ? view->topLevelToLocal[tile]
                               : TileMapping::NoTile;
    if (local != TileMapping::NoTile)
      appendInterval(result[local], flatBegin, flatEnd);
  };
  for (const auto &run : layout::flatRuns(t)) {
    const TileMapping &mapping = impl->variables[run.var].mapping;
    if (run.stride == 1) {
      mapping.forEach(run.start, run.start + run.length,
                      [&](std::size_t b, std::size_t e, unsigned tile) {
                        record(run.begin + (b - run.start),
                               run.begin + (e - run.start), tile);
                      });
      continue;
    }
    for (std::size_t i = 0; i != run.length; ++i) {
      const auto element =
          static_cast<std::size_t>(run.start + run.stride * std::int64_t(i));
      record(run.begin + i, run.begin + i + 1, mapping.tileOf(element));
    }
  }
  if (isComplete)
    *isComplete = complete;
  return result;
}

Graph::TileToTensorMapping Graph::getTileMapping(const Tensor &t,
                                                 bool requireComplete) const {
  bool complete = true;
  auto mapping = getTileMapping(t, &complete);
  if (requireComplete && !complete)
    throw invalid_tile_mapping("getTileMapping: tensor '" + t.getDebugStr() +
                               "' has elements without a tile mapping");
  return mapping;
}

namespace {

// The order of t's dimensions, outermost first, that follows the storage of
// the largest box of its layout: dimensions by decreasing storage stride.
// The layout is asked for without keeping it (layout::transientLayout): a
// cloned or mapped tensor is often a view used once.
std::vector<unsigned> storageDimensionOrder(const Tensor &t,
                                            const layout::Layout &tLayout) {
  const auto &boxes = tLayout.boxes;
  std::vector<unsigned> order(t.rank());
  std::iota(order.begin(), order.end(), 0u);
  if (boxes.empty())
    return order;
  const auto largest = std::max_element(
      boxes.begin(), boxes.end(), [](const auto &a, const auto &b) {
        return a.numElements() < b.numElements();
      });
  // A dimension the box does not extend along tells nothing: it stays
  // outermost, where it was among such dimensions.
  auto key = [&](unsigned d) -> std::uint64_t {
    if (largest->extent[d] < 2)
      return ~std::uint64_t(0);
    return static_cast<std::uint64_t>(std::abs(largest->stride[d]));
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](unsigned a, unsigned b) { return key(a) > key(b); });
  return order;
}

// The flattened elements of t in order of (variable, storage element), for
// a t whose runs are all contiguous: the runs' intervals of t, so ordered.
// Empty when t's order is already that or a run is strided.
std::vector<Interval> runsInStorageOrder(const Tensor &flat) {
  auto runs = layout::flatRuns(flat);
  for (const auto &run : runs)
    if (run.length > 1 && run.stride != 1)
      return {};
  auto storageLess = [](const layout::FlatRun &a, const layout::FlatRun &b) {
    return std::tie(a.var, a.start) < std::tie(b.var, b.start);
  };
  if (std::is_sorted(runs.begin(), runs.end(), storageLess))
    return {};
  std::stable_sort(runs.begin(), runs.end(), storageLess);
  std::vector<Interval> intervals;
  intervals.reserve(runs.size());
  for (const auto &run : runs)
    intervals.emplace_back(run.begin, run.begin + run.length);
  return intervals;
}

// Whether a clone in t's storage order is worth its views: t is one strided
// block of storage (a shuffled or reshaped variable, or a part of one) of
// long runs (16 elements or more on average) both in its own element order
// and with its dimensions in storage order. Any other clone is a new
// variable in t's element order: a clone made of many blocks or of short
// strided runs (a channel axis moved last and merged with the others, say)
// would make every vertex edge over it walk all those pieces.
bool worthStorageOrder(const Tensor &t) {
  constexpr std::size_t minMeanRun = 16;
  const layout::InputLayout tLayout = layout::transientLayout(t);
  if (tLayout.get().boxes.size() != 1)
    return false;
  // flatRuns walks a view in its flattened order: no flatten view needed.
  auto longRuns = [&](std::size_t runs) {
    return runs * minMeanRun <= t.numElements();
  };
  if (!longRuns(layout::flatRuns(tLayout.get(), t.shape()).size()))
    return false;
  const std::vector<unsigned> order = storageDimensionOrder(t, tLayout.get());
  return std::is_sorted(order.begin(), order.end()) ||
         longRuns(layout::flatRuns(t.dimShuffle(order)).size());
}

} // namespace

void Graph::reorderToSimplify(Tensor *t, ArrayRef<Tensor *> ts,
                              bool requireSimplestOrder) const {
  if (!t || !t->valid())
    throw poplar_error("reorderToSimplify: no tensor to simplify");
  impl->checkOwnership(*t, "reorderToSimplify");
  const std::size_t n = t->numElements();
  for (Tensor *other : ts)
    if (!other || !other->valid() || other->numElements() != n)
      throw poplar_error(
          "reorderToSimplify: tensor '" +
          (other && other->valid() ? other->getDebugStr() : std::string()) +
          "' does not have the " + std::to_string(n) + " elements of '" +
          t->getDebugStr() + "'");
  const std::vector<std::size_t> shape = t->shape();
  const std::vector<unsigned> order =
      storageDimensionOrder(*t, layout::transientLayout(*t).get());
  Tensor reordered = t->flatten();
  bool shuffled = false;
  std::vector<Tensor> others;
  others.reserve(ts.size());
  for (Tensor *other : ts)
    others.push_back(other->flatten());
  if (!std::is_sorted(order.begin(), order.end())) {
    // Reordered if that leaves fewer runs in all: every vertex edge over a
    // tensor walks its runs, and what simplifies t could break up the
    // others.
    // The runs before are counted from each tensor in t's shape: the
    // layout of a flattened view of shuffled storage is a box per run.
    auto runsInShape = [&](const Tensor &x) {
      const Tensor shaped = x.reshape(shape);
      return layout::flatRuns(layout::transientLayout(shaped).get(), shape)
          .size();
    };
    std::vector<Tensor> candidates{t->dimShuffle(order).flatten()};
    for (Tensor *other : ts)
      candidates.push_back(other->reshape(shape).dimShuffle(order).flatten());
    const std::size_t tBefore = runsInShape(*t);
    const std::size_t tAfter = layout::flatRuns(candidates.front()).size();
    std::size_t before = tBefore, after = tAfter;
    for (std::size_t k = 1; k != candidates.size(); ++k) {
      after += layout::flatRuns(candidates[k]).size();
      before += runsInShape(others[k - 1]);
    }
    // Or where t's own runs become far fewer: the vertices' regions follow
    // t (a channels-innermost activation seen as [N, C, ...] would
    // otherwise be cut at every element), while an operand is gathered run
    // by run whatever its order.
    constexpr std::size_t muchFewer = 16;
    shuffled = after < before || tAfter * muchFewer <= tBefore;
    if (shuffled) {
      reordered = std::move(candidates.front());
      std::move(candidates.begin() + 1, candidates.end(), others.begin());
    }
  }
  for (std::size_t k = 0; k != ts.size(); ++k)
    *ts[k] = std::move(others[k]);
  *t = std::move(reordered);
  if (!requireSimplestOrder)
    return;
  const std::vector<Interval> intervals = runsInStorageOrder(*t);
  if (intervals.empty())
    return;
  *t = concat(t->slices(intervals));
  for (Tensor *other : ts)
    *other = concat(other->slices(intervals));
}

Tensor Graph::clone(const Tensor &t, const DebugContext &debugContext,
                    TensorCloneMethod method) {
  impl->checkOwnership(t, "clone");
  return clone(t.elementType(), t, debugContext, method);
}

Tensor Graph::clone(const Type &type, const Tensor &t,
                    const DebugContext &debugContext, TensorCloneMethod method) {
  impl->checkOwnership(t, "clone");
  const std::string name = debugContext.getPathName().empty()
                               ? t.getDebugStr() + "/clone"
                               : debugContext.getPathName();
  const bool keepAliases =
      method == TensorCloneMethod::PRESERVE_ORDER_AND_ALIASES ||
      method == TensorCloneMethod::GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES;
  const bool preserveOrder =
      method == TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES ||
      method == TensorCloneMethod::PRESERVE_ORDER_AND_ALIASES;
  // The cheap test first: the alias check walks all of t's storage.
  if (preserveOrder && worthStorageOrder(t) && !t.containsAliases())
    return StoragePreservingClone(*this, *impl, type, name)
        .clone(t.getImplPtr());

  bool complete = true;
  const auto mapping = getTileMapping(t, &complete);
  if (!keepAliases || !t.containsAliases()) {
    Tensor result = addVariable(type, t.shape(), name);
    setTileMapping(result, mapping);
    return result;
  }

  // Give each distinct storage element of t one element of the clone, in
  // order of first use, and rebuild t's aliasing over the new variable.
  std::map<std::pair<std::size_t, std::int64_t>, std::size_t> newIndex;
  std::vector<std::size_t> order; // new element of each flattened element
  order.reserve(t.numElements());
  for (const auto &run : layout::flatRuns(t))
    for (std::size_t i = 0; i != run.length; ++i) {
      auto key = std::make_pair(run.var, run.start + run.stride * std::int64_t(i));
      auto it = newIndex.emplace(key, newIndex.size()).first;
      order.push_back(it->second);
    }
  Tensor storage = addVariable(type, {newIndex.size()}, name);
  std::vector<Tensor> pieces;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i + 1;
    if (j < order.size() && order[j] == order[i]) {
      while (j < order.size() && order[j] == order[i])
        ++j;
      pieces.push_back(
          storage.slice(order[i], order[i] + 1).broadcast(unsigned(j - i), 0));
    } else {
      while (j < order.size() && order[j] == order[j - 1] + 1)
        ++j;
      pieces.push_back(storage.slice(order[i], order[j - 1] + 1));
    }
    i = j;
  }
  Tensor result = concat(pieces).reshape(t.shape());
  setTileMapping(result, mapping);
  return result;
}

Graph Graph::createVirtualGraph(unsigned lowerTile, unsigned upperTile) {
  if (lowerTile >= upperTile || upperTile > view->tiles.size())
    throw invalid_tile_mapping(
        "createVirtualGraph: tiles [" + std::to_string(lowerTile) + ", " +
        std::to_string(upperTile) + ") are not a range of the graph's " +
        std::to_string(view->tiles.size()) + " tiles");
  std::vector<unsigned> tiles(view->tiles.begin() + lowerTile,
                              view->tiles.begin() + upperTile);
  return createVirtualGraph(tiles);
}

Graph Graph::createVirtualGraph(unsigned numTilesPerIPU) {
  const Target &target = view->target;
  if (numTilesPerIPU == 0 || numTilesPerIPU > target.getTilesPerIPU())
    throw invalid_tile_mapping("createVirtualGraph: " +
                               std::to_string(numTilesPerIPU) +
                               " tiles per IPU is out of range (the graph has " +
                               std::to_string(target.getTilesPerIPU()) + ")");
  std::vector<unsigned> tiles;
  for (unsigned ipu = 0; ipu != target.getNumIPUs(); ++ipu)
    for (unsigned t = 0; t != numTilesPerIPU; ++t)
      tiles.push_back(ipu * target.getTilesPerIPU() + t);
  return createVirtualGraph(tiles);
}

Graph Graph::createVirtualGraph(const std::vector<unsigned> &localTiles) {
  if (localTiles.empty())
    throw invalid_tile_mapping("createVirtualGraph: no tiles given");
  auto v = std::make_shared<View>();
  v->topLevelToLocal.assign(impl->target.getNumTiles(), TileMapping::NoTile);
  for (unsigned local : localTiles) {
    if (local >= view->tiles.size())
      throw invalid_tile_mapping("createVirtualGraph: tile " +
                                 std::to_string(local) +
                                 " is out of range: the graph has " +
                                 std::to_string(view->tiles.size()) + " tiles");
    const unsigned top = view->tiles[local];
    if (v->topLevelToLocal[top] != TileMapping::NoTile)
      throw invalid_tile_mapping("createVirtualGraph: tile " +
                                 std::to_string(local) + " is given twice");
    v->topLevelToLocal[top] = static_cast<unsigned>(v->tiles.size());
    v->tiles.push_back(top);
  }
  // The view's target: as many IPUs as its tiles touch, sharing its tiles
  // evenly when they can (else, as one IPU of all of them, so that the
  // target's tile count is the view's).
  const unsigned perIpu = impl->target.getTilesPerIPU();
  const unsigned count = static_cast<unsigned>(v->tiles.size());
  std::vector<bool> ipuUsed(impl->target.getNumIPUs(), false);
  for (unsigned top : v->tiles)
    ipuUsed[top / perIpu] = true;
  const auto ipus =
      static_cast<unsigned>(std::count(ipuUsed.begin(), ipuUsed.end(), true));
  v->target = count % ipus == 0 && count / ipus <= perIpu
                  ? TargetBuilder::withTiles(view->target, ipus, count / ipus)
                  : TargetBuilder::withTiles(view->target, 1, count);
  return Graph(impl, std::move(v));
}

Graph Graph::getTopLevelGraph() {
  auto v = std::make_shared<View>();
  v->target = impl->target;
  v->tiles.resize(impl->target.getNumTiles());
  for (unsigned i = 0; i != v->tiles.size(); ++i)
    v->tiles[i] = i;
  v->topLevelToLocal = v->tiles;
  return Graph(impl, std::move(v));
}

unsigned Graph::convertVirtualTileToTopLevelTile(unsigned tile) const {
  if (tile >= view->tiles.size())
    throw index_error("convertVirtualTileToTopLevelTile: tile " +
                      std::to_string(tile) + " is out of range (" +
                      std::to_string(view->tiles.size()) + " tiles)");
  return view->tiles[tile];
}

} // namespace poplar
