// encodeOneHot: each row of the encoding is written by one vertex on the
// tile that holds the row's first element.
#include <popops/Encoding.hpp>

#include "DataMovementEstimates.hpp"
#include "RowVertices.hpp"

#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <map>

namespace popops {
namespace {

using poplar::Tensor;

void encode(poplar::Graph &graph, const Tensor &indices, const Tensor &encoded,
            poplar::program::Sequence &prog, const Tensor &on,
            const Tensor &off, const std::string &op) {
  const auto it = indices.elementType();
  if (it != poplar::UNSIGNED_INT && it != poplar::INT)
    throw poputil::poplibs_error(op + ": indices '" + indices.getDebugStr() +
                                 "' must be INT or UNSIGNED_INT, not " +
                                 it.toString().str());
  const auto et = encoded.elementType();
  if (et != poplar::FLOAT && et != poplar::HALF && et != poplar::INT &&
      et != poplar::UNSIGNED_INT)
    throw poputil::poplibs_error(op + ": encoding '" + encoded.getDebugStr() +
                                 "' has unsupported type " + et.toString().str());
  if (encoded.rank() != 2 || indices.numElements() != encoded.dim(0))
    throw poputil::poplibs_error(
        op + ": encoding '" + encoded.getDebugStr() +
        "' must be [number of indices, number of classes]; there are " +
        std::to_string(indices.numElements()) + " indices");
  if (on.numElements() != 1 || off.numElements() != 1 ||
      on.elementType() != et || off.elementType() != et)
    throw poputil::poplibs_error(op + ": on and off must be single elements "
                                      "of the encoding's type");
  const Tensor idx = indices.flatten();
  std::map<unsigned, std::vector<std::size_t>> rowsByTile;
  bool complete = false;
  const auto mapping = encoded.dim(1) == 0
                           ? poplar::Graph::TileToTensorMapping{}
                           : graph.getTileMapping(encoded.slice(0, 1, 1).flatten(),
                                                  &complete);
  if (!complete) {
    for (std::size_t r = 0; r != encoded.dim(0); ++r)
      rowsByTile[0].push_back(r);
  } else {
    for (unsigned tile = 0; tile != mapping.size(); ++tile)
      for (const auto &i : mapping[tile])
        for (std::size_t r = i.begin(); r != i.end(); ++r)
          rowsByTile[tile].push_back(r);
  }
  poplar::ComputeSet cs = graph.addComputeSet({op});
  const std::string type = poputil::templateVertex("popops::EncodeOneHot", it, et);
  for (const auto &[tile, rows] : rowsByTile) {
    std::vector<Tensor> rowTensors, rowIndices;
    for (auto r : rows) {
      rowTensors.push_back(encoded[r]);
      rowIndices.push_back(idx.slice(r, r + 1));
    }
    poplar::VertexRef v = graph.addVertex(cs, type);
    graph.connect(v["indices"], poplar::concat(rowIndices));
    graph.connect(v["rows"], rowTensors);
    graph.connect(v["on"], on.reshape({}));
    graph.connect(v["off"], off.reshape({}));
    graph.setTileMapping(v, tile);
    graph.setPerfEstimate(v, detail::oneHotCycles(rows.size(), encoded.dim(1)));
  }
  prog.add(poplar::program::Execute(cs));
}

Tensor constantOf(poplar::Graph &graph, const poplar::Type &type, int value,
                  const std::string &name) {
  Tensor c = graph.addConstant(type, {}, value, {name});
  graph.setTileMapping(c, 0);
  return c;
}

} // namespace

void encodeOneHot(poplar::Graph &graph, const Tensor &indices,
                  const Tensor &encoded, poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "encodeOneHot");
  encode(graph, indices, encoded, prog,
         constantOf(graph, encoded.elementType(), 1, op + "/on"),
         constantOf(graph, encoded.elementType(), 0, op + "/off"), op);
}

void encodeOneHot(poplar::Graph &graph, const Tensor &indices,
                  const Tensor &encoded, poplar::program::Sequence &prog,
                  const Tensor &on, const Tensor &off,
                  const poplar::DebugContext &debugContext) {
  encode(graph, indices, encoded, prog, on, off,
         opName(debugContext, "encodeOneHot"));
}

} // namespace popops
