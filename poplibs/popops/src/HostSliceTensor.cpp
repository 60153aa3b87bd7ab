// Tensors laid out for host copies: every row spread over the tiles in
// whole 64-byte pieces (the exchange's unit of a host transfer).
#include <popops/HostSliceTensor.hpp>

#include "Messages.hpp"

#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using poplar::Tensor;

namespace {

void mapRowsInPieces(poplar::Graph &graph, const Tensor &t) {
  const unsigned bytes = graph.getTarget().getTypeSize(t.elementType());
  const unsigned grain = std::max(1u, 64 / std::max(1u, bytes));
  if (t.rank() == 0 || t.numElements() == 0) {
    graph.setTileMapping(t, 0);
    return;
  }
  const Tensor rows = t.reshape({t.dim(0), t.numElements() / t.dim(0)});
  const auto columns =
      poputil::calcLinearTileMapping(graph, {rows.dim(1)}, grain, grain);
  for (unsigned tile = 0; tile != columns.size(); ++tile)
    for (const auto &c : columns[tile])
      graph.setTileMapping(rows.slice(c.begin(), c.end(), 1), tile);
}

} // namespace

IndicesAndTensor
createHostSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                          const std::vector<std::size_t> &shape, const bool,
                          const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "createHostSliceableTensor");
  if (shape.size() != 2)
    throw poputil::poplibs_error(op + ": the shape " + shapeString(shape) +
                                 " must have 2 dimensions [slices, row]");
  IndicesAndTensor result;
  result.tensor = graph.addVariable(type, shape, debugContext);
  mapRowsInPieces(graph, result.tensor);
  result.indices = graph.addVariable(poplar::UNSIGNED_INT, {shape[0]},
                                     {debugContext, "indices"});
  poputil::mapTensorLinearly(graph, result.indices, 1, 1);
  return result;
}

Tensor createHostTransferableTensor(poplar::Graph &graph,
                                    const poplar::Type &type,
                                    const std::vector<std::size_t> &shape, bool,
                                    const poplar::DebugContext &debugContext) {
  Tensor t = graph.addVariable(type, shape, debugContext);
  mapRowsInPieces(graph, t.rank() == 1 ? t.expand({0}) : t);
  return t;
}

} // namespace popops
