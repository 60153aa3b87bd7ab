// Linear tile mapping: elements in flattened order over tiles in order,
// every used tile holding the same whole number of grains.
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>

namespace poputil {
namespace {

// The defaults of mapTensorLinearly(graph, t): a tile gets at least this
// many bytes, so small tensors are not spread thinly.
constexpr unsigned minBytesPerTile = 128;

std::size_t product(const std::vector<std::size_t> &shape) {
  return std::accumulate(shape.begin(), shape.end(), std::size_t(1),
                         std::multiplies<std::size_t>());
}

unsigned defaultMinElements(const poplar::Target &target,
                            const poplar::Type &type) {
  const unsigned size = target.getTypeSize(type);
  return (minBytesPerTile + size - 1) / size;
}

} // namespace

std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Target &target,
                      std::vector<std::size_t> shape,
                      unsigned minElementsPerTile, unsigned grainSize,
                      unsigned offset, bool ascendingOrder) {
  if (grainSize == 0)
    throw poplibs_error("calcLinearTileMapping: grainSize must be positive");
  const unsigned numTiles = target.getNumTiles();
  const std::size_t numElements = product(shape);
  std::vector<std::vector<poplar::Interval>> mapping(numTiles);
  if (numElements == 0)
    return mapping;
  const std::size_t numGrains = (numElements + grainSize - 1) / grainSize;
  const std::size_t grainsPerTile = std::max<std::size_t>(
      (numGrains + numTiles - 1) / numTiles,
      (std::size_t(minElementsPerTile) + grainSize - 1) / grainSize);
  const std::size_t elementsPerTile = grainsPerTile * grainSize;
  for (std::size_t i = 0, begin = 0; begin < numElements; ++i) {
    const std::size_t end = std::min(numElements, begin + elementsPerTile);
    const std::size_t step = (offset + i) % numTiles;
    const auto tile = static_cast<unsigned>(
        ascendingOrder ? step : numTiles - 1 - step);
    mapping[tile].emplace_back(begin, end);
    begin = end;
  }
  return mapping;
}

std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Graph &graph,
                      std::vector<std::size_t> shape,
                      unsigned minElementsPerTile, unsigned grainSize,
                      unsigned offset, bool ascendingOrder) {
  return calcLinearTileMapping(graph.getTarget(), std::move(shape),
                               minElementsPerTile, grainSize, offset,
                               ascendingOrder);
}

std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Target &target,
                      std::vector<std::size_t> shape,
                      const poplar::Type &elementType, unsigned offset,
                      bool ascendingOrder) {
  return calcLinearTileMapping(target, std::move(shape),
                               defaultMinElements(target, elementType),
                               target.getVectorWidth(elementType), offset,
                               ascendingOrder);
}

std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Graph &graph, const poplar::Tensor &t,
                      unsigned offset, bool ascendingOrder) {
  return calcLinearTileMapping(graph.getTarget(), t.shape(), t.elementType(),
                               offset, ascendingOrder);
}

void mapTensorLinearly(poplar::Graph &graph, const poplar::Tensor &t,
                       unsigned minElementsPerTile, unsigned grainSize) {
  graph.setTileMapping(t, calcLinearTileMapping(graph, t.shape(),
                                                minElementsPerTile, grainSize));
}

void mapTensorLinearly(poplar::Graph &graph, const poplar::Tensor &t) {
  graph.setTileMapping(t, calcLinearTileMapping(graph, t));
}

void mapTensorLinearlyWithOffset(poplar::Graph &graph, const poplar::Tensor &t,
                                 unsigned minElementsPerTile,
                                 unsigned grainSize, unsigned offset,
                                 bool ascendingOrder) {
  graph.setTileMapping(t, calcLinearTileMapping(graph, t.shape(),
                                                minElementsPerTile, grainSize,
                                                offset, ascendingOrder));
}

void mapTensorLinearlyWithOffset(poplar::Graph &graph, const poplar::Tensor &t,
                                 unsigned offset, bool ascendingOrder) {
  graph.setTileMapping(t, calcLinearTileMapping(graph, t, offset,
                                                ascendingOrder));
}

unsigned getTileImbalance(const poplar::Graph::TileToTensorMapping &mapping,
                          unsigned minElementsPerTile, unsigned grainSize) {
  if (mapping.empty())
    return 0;
  std::size_t total = 0, most = 0;
  for (const auto &tile : mapping) {
    std::size_t n = 0;
    for (const auto &i : tile)
      n += i.size();
    total += n;
    most = std::max(most, n);
  }
  const std::size_t grain = std::max(1u, grainSize);
  const std::size_t grains = (total + grain - 1) / grain;
  const std::size_t balanced = std::max<std::size_t>(
      (grains + mapping.size() - 1) / mapping.size() * grain,
      minElementsPerTile);
  return most > balanced ? static_cast<unsigned>(most - balanced) : 0;
}

unsigned getTileImbalance(const poplar::Graph &graph, const poplar::Tensor &t,
                          unsigned minElementsPerTile, unsigned grainSize) {
  return getTileImbalance(graph.getTileMapping(t), minElementsPerTile,
                          grainSize);
}

bool dimIsSplitOverTiles(const poplar::Graph &graph, const poplar::Tensor &t,
                         unsigned dimension) {
  if (dimension >= t.rank())
    throw poplibs_error("dimIsSplitOverTiles: tensor '" + t.getDebugStr() +
                        "' has no dimension " + std::to_string(dimension));
  // Move the dimension innermost: it is split when some row of it spans
  // more than one tile.
  const poplar::Tensor rows =
      t.dimRoll(dimension, t.rank() - 1).reshape(
          {t.numElements() / std::max<std::size_t>(1, t.dim(dimension)),
           t.dim(dimension)});
  const auto mapping = graph.getTileMapping(rows);
  const std::size_t rowLength = rows.dim(1);
  if (rowLength <= 1)
    return false;
  std::vector<int> tileOfRow(rows.dim(0), -1);
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    for (const auto &interval : mapping[tile])
      for (std::size_t e = interval.begin(); e != interval.end(); ++e) {
        int &owner = tileOfRow[e / rowLength];
        if (owner != -1 && owner != int(tile))
          return true;
        owner = int(tile);
      }
  return false;
}

poplar::Tensor createBroadcastOperand(poplar::Graph &graph,
                                      const poplar::Tensor &full,
                                      const poplar::Type &type, unsigned dim,
                                      bool ditherMapping,
                                      const poplar::DebugContext &debugContext) {
  if (dim >= full.rank())
    throw poplibs_error("createBroadcastOperand: tensor '" +
                        full.getDebugStr() + "' has no dimension " +
                        std::to_string(dim));
  const std::size_t n = full.dim(dim);
  poplar::Tensor operand = graph.addVariable(type, {n}, debugContext);
  // Element i goes to the tile holding the first element of full's slice i.
  const poplar::Tensor slices = full.dimRoll(dim, 0).reshape(
      {n, full.numElements() / std::max<std::size_t>(1, n)});
  const unsigned numTiles = graph.getTarget().getNumTiles();
  for (std::size_t i = 0; i != n; ++i) {
    unsigned tile = static_cast<unsigned>(i % numTiles);
    if (slices.dim(1) != 0) {
      const auto mapping = graph.getTileMapping(slices[i][0], false);
      for (unsigned t = 0; t != mapping.size(); ++t)
        if (!mapping[t].empty()) {
          tile = t;
          break;
        }
    }
    if (ditherMapping)
      tile = static_cast<unsigned>((tile + i) % numTiles);
    graph.setTileMapping(operand[i], tile);
  }
  std::vector<std::size_t> shape(full.rank(), 1);
  shape[dim] = n;
  return operand.reshape(shape);
}

} // namespace poputil
