// selectScalarFromRows gathers each row whole onto the tile of its result;
// updateScalarInRows works in place on the row pieces each tile holds, so
// that no element is written by two vertices.
#include <popops/SelectScalarFromRows.hpp>
#include <popops/UpdateScalarInRows.hpp>

#include "DataMovementEstimates.hpp"
#include "RowVertices.hpp"

#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <map>

namespace popops {
namespace {

using poplar::Tensor;

void checkArgs(const std::string &op, const Tensor &params,
               const Tensor &indices) {
  const auto type = params.elementType();
  if (type != poplar::FLOAT && type != poplar::HALF)
    throw poputil::poplibs_error(op + ": tensor '" + params.getDebugStr() +
                                 "' has type " + type.toString().str() +
                                 "; only float and half are supported");
  if (params.rank() != 2)
    throw poputil::poplibs_error(op + ": tensor '" + params.getDebugStr() +
                                 "' must have 2 dimensions, not " +
                                 std::to_string(params.rank()));
  if (indices.elementType() != poplar::UNSIGNED_INT || indices.rank() != 1 ||
      indices.dim(0) != params.dim(0))
    throw poputil::poplibs_error(
        op + ": indices '" + indices.getDebugStr() + "' must be " +
        std::to_string(params.dim(0)) + " UNSIGNED_INT (one per row)");
}

struct Piece {
  std::size_t row, firstColumn;
  Tensor elements;
};

// The row pieces of `params` each tile holds (all on tile 0 without a
// complete mapping, as on the CPU).
std::map<unsigned, std::vector<Piece>> piecesByTile(const poplar::Graph &graph,
                                                    const Tensor &params) {
  std::map<unsigned, std::vector<Piece>> result;
  const std::size_t width = params.dim(1);
  if (params.numElements() == 0)
    return result;
  bool complete = false;
  auto mapping = graph.getTileMapping(params, &complete);
  if (!complete)
    mapping.assign(1, {poplar::Interval(0, params.numElements())});
  const Tensor flat = params.flatten();
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    for (const auto &interval : mapping[tile])
      for (std::size_t at = interval.begin(); at < interval.end();) {
        const std::size_t row = at / width;
        const std::size_t end = std::min(interval.end(), (row + 1) * width);
        result[tile].push_back({row, at - row * width, flat.slice(at, end)});
        at = end;
      }
  return result;
}

} // namespace

Tensor selectScalarFromRows(poplar::Graph &graph, const Tensor &params,
                            const Tensor &indices,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "selectScalarFromRows");
  checkArgs(op, params, indices);
  const std::size_t rows = params.dim(0), width = params.dim(1);
  if (width == 0 && rows != 0)
    throw poputil::poplibs_error(op + ": tensor '" + params.getDebugStr() +
                                 "' has rows of no elements");
  Tensor out = graph.addVariable(params.elementType(), {rows}, {op + "/out"});
  poputil::mapTensorLinearly(graph, out, 1, 1);
  if (rows == 0)
    return out;
  bool complete = false;
  auto mapping = graph.getTileMapping(out, &complete);
  if (!complete)
    mapping.assign(1, {poplar::Interval(0, rows)});
  poplar::ComputeSet cs = graph.addComputeSet({op});
  const std::string type =
      poputil::templateVertex("popops::SelectFromRows", params.elementType());
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    for (const auto &interval : mapping[tile]) {
      std::vector<Tensor> rowTensors;
      for (std::size_t r = interval.begin(); r != interval.end(); ++r)
        rowTensors.push_back(params[r]);
      poplar::VertexRef v = graph.addVertex(cs, type);
      graph.connect(v["indices"],
                    indices.slice(interval.begin(), interval.end()));
      graph.connect(v["rows"], rowTensors);
      graph.connect(v["out"], out.slice(interval.begin(), interval.end()));
      graph.setInitialValue(v["width"], static_cast<unsigned>(width));
      graph.setTileMapping(v, tile);
      graph.setPerfEstimate(v, detail::selectFromRowsCycles(interval.size()));
    }
  prog.add(poplar::program::Execute(cs));
  return out;
}

void updateScalarInRows(poplar::Graph &graph, const Tensor &params,
                        const Tensor &indices,
                        poplar::program::Sequence &program,
                        const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "updateScalarInRows");
  checkArgs(op, params, indices);
  if (!params.isParallelWriteable())
    throw poputil::poplibs_error(op + ": tensor '" + params.getDebugStr() +
                                 "' cannot be written in place");
  const auto byTile = piecesByTile(graph, params);
  if (byTile.empty())
    return;
  poplar::ComputeSet cs = graph.addComputeSet({op});
  const std::string type =
      poputil::templateVertex("popops::UpdateInRows", params.elementType());
  for (const auto &[tile, pieces] : byTile) {
    std::vector<Tensor> elements, pieceIndices;
    std::vector<unsigned> firstColumns;
    for (const auto &p : pieces) {
      elements.push_back(p.elements);
      pieceIndices.push_back(indices.slice(p.row, p.row + 1));
      firstColumns.push_back(static_cast<unsigned>(p.firstColumn));
    }
    poplar::VertexRef v = graph.addVertex(cs, type);
    graph.connect(v["indices"], poplar::concat(pieceIndices));
    graph.connect(v["pieces"], elements);
    graph.setInitialValue(v["firstColumn"],
                          poplar::ArrayRef<unsigned>(firstColumns));
    graph.setInitialValue(v["width"], static_cast<unsigned>(params.dim(1)));
    graph.setTileMapping(v, tile);
    graph.setPerfEstimate(v, detail::updateInRowsCycles(pieces.size()));
  }
  program.add(poplar::program::Execute(cs));
}

} // namespace popops
