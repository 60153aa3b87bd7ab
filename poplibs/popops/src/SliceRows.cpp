#include "SliceRows.hpp"

#include "DataMovementEstimates.hpp"
#include "Messages.hpp"
#include "RowVertices.hpp"

#include <poplar/exceptions.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <numeric>

namespace popops {
namespace slicing {

using poplar::Tensor;

void checkType(const std::string &op, const Tensor &t) {
  const auto type = t.elementType();
  if (type != poplar::FLOAT && type != poplar::HALF && type != poplar::INT &&
      type != poplar::UNSIGNED_INT && type != poplar::BOOL)
    throw poputil::poplibs_error(op + ": tensor '" + t.getDebugStr() +
                                 "' has type " + type.toString().str() +
                                 ", which is not supported");
}

void checkOffsets(const std::string &op, const Tensor &offset,
                  std::size_t expected) {
  if (offset.elementType() != poplar::UNSIGNED_INT &&
      offset.elementType() != poplar::INT)
    throw poputil::poplibs_error(op + ": offsets '" + offset.getDebugStr() +
                                 "' must be UNSIGNED_INT, not " +
                                 offset.elementType().toString().str());
  if (offset.numElements() != expected)
    throw poputil::poplibs_error(
        op + ": offsets '" + offset.getDebugStr() + "' have " +
        std::to_string(offset.numElements()) + " elements, " +
        std::to_string(expected) + " expected");
}

void checkDims(const std::string &op, const Tensor &t,
               const std::vector<std::size_t> &dims,
               const std::vector<std::size_t> &sizes) {
  if (dims.size() != sizes.size())
    throw poputil::poplibs_error(op + ": " + std::to_string(dims.size()) +
                                 " dimensions but " +
                                 std::to_string(sizes.size()) + " sizes");
  for (std::size_t i = 0; i != dims.size(); ++i) {
    if (dims[i] >= t.rank())
      throw poputil::poplibs_error(op + ": tensor '" + t.getDebugStr() +
                                   "' of shape " + shapeString(t.shape()) +
                                   " has no dimension " +
                                   std::to_string(dims[i]));
    if (std::count(dims.begin(), dims.end(), dims[i]) != 1)
      throw poputil::poplibs_error(op + ": dimension " +
                                   std::to_string(dims[i]) +
                                   " is listed more than once");
    if (sizes[i] > t.dim(dims[i]) || (sizes[i] == 0 && t.dim(dims[i]) != 0))
      throw poputil::poplibs_error(
          op + ": a slice of " + std::to_string(sizes[i]) +
          " along dimension " + std::to_string(dims[i]) + " of '" +
          t.getDebugStr() + "' " + shapeString(t.shape()));
  }
}

OutOfRange sliceOptions(const std::string &op,
                        const poplar::OptionFlags &options) {
  OutOfRange mode = OutOfRange::Skip;
  for (const auto &[key, value] : options) {
    const bool isBool = value == "true" || value == "false";
    if (key == "remapOutOfBoundIndices" || key == "paddingIndexUsed") {
      if (!isBool)
        throw poplar::invalid_option(op + ": option " + key + "=" + value +
                                     " (expected true or false)");
      if (key == "remapOutOfBoundIndices" && value == "true")
        mode = OutOfRange::Remap;
    } else if (key != "usedForSlice" && key != "usedForUpdate" &&
               key != "operationForUpdate" &&
               key != "availableMemoryProportion" &&
               key != "indicesDistribution" && key != "indicesAreSorted" &&
               key != "validateIndices" && key != "partialType") {
      throw poplar::invalid_option(op + ": unknown option '" + key + "'");
    }
  }
  return mode;
}

// Maps the columns of `rows` ([rows, columns]) linearly over the tiles,
// the same columns of every row on the same tile.
void mapColumns(poplar::Graph &graph, const Tensor &rows,
                std::size_t minGrainSize) {
  if (rows.dim(0) == 0 || rows.dim(1) == 0) {
    graph.setTileMapping(rows, 0);
    return;
  }
  const auto columns = poputil::calcLinearTileMapping(
      graph, {rows.dim(1)}, 1, std::max<std::size_t>(1, minGrainSize));
  for (unsigned tile = 0; tile != columns.size(); ++tile)
    for (const auto &c : columns[tile])
      graph.setTileMapping(rows.slice(c.begin(), c.end(), 1), tile);
}

// Maps the columns of `rows` like the columns of `like` (both [., columns]);
// linearly where `like` is not completely mapped.
void mapColumnsLike(poplar::Graph &graph, const Tensor &rows,
                    const Tensor &like) {
  bool complete = false;
  if (like.dim(0) != 0 && like.dim(1) != 0)
    graph.getTileMapping(like[0], &complete);
  if (!complete || rows.dim(0) == 0) {
    mapColumns(graph, rows, 0);
    return;
  }
  for (const auto &[tile, cols] : columnsByTile(graph, like))
    for (const auto &c : cols)
      graph.setTileMapping(rows.slice(c.begin(), c.end(), 1), tile);
}

Tensor rowsView(const Tensor &t, std::size_t groupDims,
                const std::vector<std::size_t> &dims) {
  std::vector<unsigned> perm;
  for (unsigned d = 0; d != groupDims; ++d)
    perm.push_back(d);
  for (auto d : dims)
    perm.push_back(static_cast<unsigned>(groupDims + d));
  for (unsigned d = groupDims; d != t.rank(); ++d)
    if (std::find(perm.begin(), perm.end(), d) == perm.end())
      perm.push_back(d);
  const Tensor shuffled = t.dimShuffle(perm);
  std::size_t rows = 1;
  for (std::size_t i = 0; i != groupDims + dims.size(); ++i)
    rows *= shuffled.dim(i);
  return shuffled.reshape({rows, rows == 0 ? 0 : t.numElements() / rows});
}

std::vector<std::size_t> slicedShape(std::vector<std::size_t> shape,
                                     const std::vector<std::size_t> &dims,
                                     const std::vector<std::size_t> &sizes) {
  for (std::size_t i = 0; i != dims.size(); ++i)
    shape[dims[i]] = sizes[i];
  return shape;
}

Tensor rowIndices(poplar::Graph &graph, const Tensor &offsets,
                  std::size_t groups, std::size_t slicesPerGroup,
                  const std::vector<std::size_t> &dimSizes,
                  const std::vector<std::size_t> &sizes, OutOfRange mode,
                  poplar::program::Sequence &prog, const std::string &op) {
  const std::size_t perSlice = std::accumulate(
      sizes.begin(), sizes.end(), std::size_t(1), std::multiplies<>());
  const std::size_t rowsPerGroup = std::accumulate(
      dimSizes.begin(), dimSizes.end(), std::size_t(1), std::multiplies<>());
  const std::size_t slices = groups * slicesPerGroup;
  Tensor rows = graph.addVariable(poplar::UNSIGNED_INT, {slices * perSlice},
                                  {op + "/rows"});
  graph.setTileMapping(rows, 0);
  if (rows.numElements() == 0)
    return rows;
  poplar::ComputeSet cs = graph.addComputeSet({op + "/rowIndices"});
  poplar::VertexRef v = graph.addVertex(cs, "popops::SliceRowIndices");
  graph.connect(v["offsets"],
                offsets.flatten().reinterpret(poplar::UNSIGNED_INT));
  graph.connect(v["rows"], rows);
  std::vector<unsigned> d(dimSizes.begin(), dimSizes.end()),
      s(sizes.begin(), sizes.end());
  graph.setInitialValue(v["dimSizes"], poplar::ArrayRef<unsigned>(d));
  graph.setInitialValue(v["sliceSizes"], poplar::ArrayRef<unsigned>(s));
  graph.setInitialValue(
      v["slicesPerGroup"],
      static_cast<unsigned>(std::max<std::size_t>(1, slicesPerGroup)));
  graph.setInitialValue(v["rowsPerGroup"], static_cast<unsigned>(rowsPerGroup));
  graph.setInitialValue(v["invalidRow"],
                        static_cast<unsigned>(groups * rowsPerGroup));
  graph.setInitialValue(v["mode"], static_cast<unsigned>(mode));
  graph.setInitialValue(v["signedOffsets"],
                        offsets.elementType() == poplar::INT);
  graph.setTileMapping(v, 0);
  graph.setPerfEstimate(
      v, detail::rowIndicesCycles(slices * perSlice, dimSizes.size()));
  prog.add(poplar::program::Execute(cs));
  return rows;
}

void addRowVertices(poplar::Graph &graph, poplar::ComputeSet cs,
                    const std::string &type, const Tensor &baseRows,
                    const Tensor &subRows, const Tensor &offsets,
                    const char *baseField, const char *subField,
                    const Tensor *scale) {
  for (const auto &[tile, cols] : columnsByTile(graph, baseRows)) {
    poplar::VertexRef v = graph.addVertex(cs, type);
    graph.connect(v[baseField], everyRowColumns(baseRows, cols));
    graph.connect(v[subField], everyRowColumns(subRows, cols));
    graph.connect(v[offsets.rank() == 0 ? "offset" : "offsets"], offsets);
    if (scale)
      graph.connect(v["scale"], *scale);
    graph.setTileMapping(v, tile);
    const std::size_t columns = columnCount(cols);
    const std::size_t rows = subRows.dim(0);
    graph.setPerfEstimate(v, scale ? detail::rowCombineCycles(rows, columns)
                                   : detail::rowCopyCycles(rows, columns));
  }
}

} // namespace slicing
} // namespace popops
