// popnn's losses, accuracy and arg max/min. Each row is processed on the
// tile that holds its first element, a few rows per vertex.
#include <popnn/Loss.hpp>
#include <fmt/ranges.h>
#include <poplibs_support/logging.hpp>

#include "CycleEstimates.hpp"
#include "TileWork.hpp"

#include <popops/TopK.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <map>

using namespace poplar;
using namespace poplar::program;

namespace popnn {
namespace {

// The most rows one vertex takes.
constexpr std::size_t rowsPerVertex = 16;

// The tile of the first element of each row of a 2-D tensor (tile 0 for
// rows without a mapping on the CPU target).
std::vector<unsigned> rowTiles(const Graph &graph, const Tensor &t,
                               const std::string &opName) {
  const std::size_t rows = t.dim(0), cols = t.dim(1);
  std::vector<unsigned> tiles(rows, 0);
  if (cols == 0)
    return tiles;
  bool complete = true;
  const auto mapping = graph.getTileMapping(t, &complete);
  if (!complete && graph.getTarget().getTargetType() != TargetType::CPU)
    throw poputil::poplibs_error(opName + ": tensor " + detail::describe(t) +
                                 " has elements without a tile mapping");
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    for (const auto &interval : mapping[tile])
      for (std::size_t r = (interval.begin() + cols - 1) / cols;
           r * cols < interval.end(); ++r)
        tiles[r] = tile;
  return tiles;
}

// Calls fn(tile, rows) for groups of at most rowsPerVertex rows on a tile.
void forEachRowGroup(
    const Graph &graph, const Tensor &t, const std::string &opName,
    const std::function<void(unsigned, const std::vector<std::size_t> &)> &fn) {
  std::map<unsigned, std::vector<std::size_t>> byTile;
  const auto tiles = rowTiles(graph, t, opName);
  for (std::size_t r = 0; r != tiles.size(); ++r)
    byTile[tiles[r]].push_back(r);
  for (const auto &[tile, rows] : byTile)
    for (std::size_t b = 0; b < rows.size(); b += rowsPerVertex)
      fn(tile, std::vector<std::size_t>(
                   rows.begin() + b,
                   rows.begin() + std::min(rows.size(), b + rowsPerVertex)));
}

std::vector<Tensor> rowsOf(const Tensor &t, const std::vector<std::size_t> &rows) {
  std::vector<Tensor> v;
  for (auto r : rows)
    v.push_back(t[r]);
  return v;
}

Tensor elementsOf(const Tensor &t, const std::vector<std::size_t> &rows) {
  std::vector<Tensor> v;
  for (auto r : rows)
    v.push_back(t.slice(r, r + 1));
  return concat(v);
}

void check2D(const Tensor &t, const std::string &what, const std::string &opName) {
  if (t.rank() != 2)
    throw poputil::poplibs_error(opName + ": " + what + " " + detail::describe(t) +
                                 " must have two dimensions ([batch][classes])");
}

void checkLabels(const Tensor &modelOutputs, const Tensor &expected,
                 const std::string &opName) {
  check2D(modelOutputs, "modelOutputs", opName);
  detail::checkFloatingPoint(modelOutputs, opName, "modelOutputs");
  const Type lt = expected.elementType();
  if (lt != UNSIGNED_INT && lt != INT)
    throw poputil::poplibs_error(opName + ": expected " + detail::describe(expected) +
                                 " has element type " + lt.toString().str() +
                                 "; UNSIGNED_INT or INT expected");
  if (expected.rank() != 1 || expected.dim(0) != modelOutputs.dim(0))
    throw poputil::poplibs_error(
        opName + ": expected " + detail::describe(expected) +
        " must hold one label per row of modelOutputs " +
        detail::describe(modelOutputs));
}

void checkScalar(const Tensor &t, const Type &type, const std::string &what,
                 const std::string &opName) {
  if (t.numElements() != 1 || t.elementType() != type)
    throw poputil::poplibs_error(opName + ": " + what + " " + detail::describe(t) +
                                 " must be a single element of type " +
                                 type.toString().str());
}

std::pair<Tensor, Tensor> argMinMax(Graph &graph, const Tensor &input, bool isMax,
                                    Sequence &prog, const DebugContext &dc,
                                    const std::string &opName) {
  check2D(input, "input", opName);
  const Type type = input.elementType();
  if (type != FLOAT && type != HALF && type != INT && type != UNSIGNED_INT)
    throw poputil::poplibs_error(opName + ": input " + detail::describe(input) +
                                 " has element type " + type.toString().str() +
                                 "; FLOAT, HALF, INT or UNSIGNED_INT expected");
  if (input.dim(1) == 0)
    throw poputil::poplibs_error(opName + ": input " + detail::describe(input) +
                                 " has empty rows");
  const std::size_t rows = input.dim(0), cols = input.dim(1);
  Tensor value = graph.addVariable(type, {rows}, {dc, "value"});
  Tensor index = graph.addVariable(UNSIGNED_INT, {rows}, {dc, "index"});
  ComputeSet cs = graph.addComputeSet({dc, isMax ? "argMax" : "argMin"});
  const std::string vertexName =
      poputil::templateVertex("popnn::ArgMinMaxRows", type, isMax);
  forEachRowGroup(graph, input, opName,
                  [&](unsigned tile, const std::vector<std::size_t> &rs) {
                    const Tensor v = elementsOf(value, rs), i = elementsOf(index, rs);
                    graph.setTileMapping(v, tile);
                    graph.setTileMapping(i, tile);
                    VertexRef vx = graph.addVertex(cs, vertexName);
                    graph.connect(vx["in"], rowsOf(input, rs));
                    graph.connect(vx["value"], v);
                    graph.connect(vx["index"], i);
                    graph.setTileMapping(vx, tile);
                    graph.setPerfEstimate(
                        vx, detail::windowLoopCycles(rs.size(), cols, 2));
                  });
  prog.add(Execute(cs, {dc}));
  return {value, index};
}

// The default scale of one: a constant of modelOutputs' type.
Tensor one(Graph &graph, const Type &type, const DebugContext &dc) {
  Tensor t = graph.addConstant(type, {}, 1.0f, dc);
  graph.setTileMapping(t, 0);
  return t;
}

} // namespace

Program calcLoss(Graph &graph, const Tensor &modelOutputs, const Tensor &expected,
                 const Tensor &loss, const Tensor &deltas,
                 const Tensor &deltasScale, const Tensor &modelOutputScaling,
                 LossType lossType, const DebugContext &debugContext) {
  const std::string opName = "popnn::calcLoss";
  DebugContext dc(debugContext, "Loss");
  checkLabels(modelOutputs, expected, opName);
  const Type type = modelOutputs.elementType();
  if (deltas.shape() != modelOutputs.shape() || deltas.elementType() != type)
    throw poputil::poplibs_error(opName + ": deltas " + detail::describe(deltas) +
                                 " must have the shape and type of modelOutputs " +
                                 detail::describe(modelOutputs));
  if (loss.numElements() != modelOutputs.dim(0) || loss.elementType() != type)
    throw poputil::poplibs_error(opName + ": loss " + detail::describe(loss) +
                                 " must have one element per row of modelOutputs " +
                                 detail::describe(modelOutputs) + ", of its type");
  checkScalar(deltasScale, type, "deltasScale", opName);
  checkScalar(modelOutputScaling, type, "modelOutputScaling", opName);
  if (lossType != SUM_SQUARED_LOSS && lossType != CROSS_ENTROPY_LOSS)
    throw poputil::poplibs_error(opName + ": unknown loss type " +
                                 std::to_string(int(lossType)));

  const bool crossEntropy = lossType == CROSS_ENTROPY_LOSS;
  const std::string vertexName = poputil::templateVertex(
      "popnn::LossTransform", type, expected.elementType(), crossEntropy);
  const Tensor lossFlat = loss.flatten();
  Sequence prog({}, {dc});
  ComputeSet cs = graph.addComputeSet({dc, crossEntropy ? "crossEntropy"
                                                        : "sumSquared"});
  forEachRowGroup(
      graph, modelOutputs, opName,
      [&](unsigned tile, const std::vector<std::size_t> &rs) {
        VertexRef v = graph.addVertex(cs, vertexName);
        graph.connect(v["probs"], rowsOf(modelOutputs, rs));
        graph.connect(v["deltas"], rowsOf(deltas, rs));
        graph.connect(v["label"], elementsOf(expected, rs));
        graph.connect(v["loss"], elementsOf(lossFlat, rs));
        graph.connect(v["deltasScale"], deltasScale.flatten()[0]);
        graph.connect(v["modelOutputScaling"], modelOutputScaling.flatten()[0]);
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(
            v, detail::rowLoopCycles(rs.size(), modelOutputs.dim(1),
                                     graph.getTarget().getVectorWidth(type),
                                     crossEntropy ? 4 : 5));
      });
  prog.add(Execute(cs, {dc}));
  return prog;
}

Program calcLoss(Graph &graph, const Tensor &modelOutputs, const Tensor &expected,
                 const Tensor &loss, const Tensor &deltas, LossType lossType,
                 const DebugContext &debugContext) {
  detail::checkFloatingPoint(modelOutputs, "popnn::calcLoss", "modelOutputs");
  const Type type = modelOutputs.elementType();
  return calcLoss(graph, modelOutputs, expected, loss, deltas,
                  one(graph, type, {debugContext, "deltasScale"}),
                  one(graph, type, {debugContext, "modelOutputScaling"}),
                  lossType, debugContext);
}

Program calcLoss(Graph &graph, const Tensor &modelOutputs, const Tensor &expected,
                 const Tensor &loss, const Tensor &deltas,
                 const Tensor &deltasScale, const Tensor &modelOutputScaling,
                 const Tensor &numCorrect, LossType lossType,
                 const DebugContext &debugContext) {
  Sequence prog({}, {debugContext});
  prog.add(calcLoss(graph, modelOutputs, expected, loss, deltas, deltasScale,
                    modelOutputScaling, lossType, debugContext));
  prog.add(calcAccuracy(graph, modelOutputs, expected, numCorrect, debugContext));
  return prog;
}

Program calcLoss(Graph &graph, const Tensor &modelOutputs, const Tensor &expected,
                 const Tensor &loss, const Tensor &deltas,
                 const Tensor &numCorrect, LossType lossType,
                 const DebugContext &debugContext) {
  Sequence prog({}, {debugContext});
  prog.add(calcLoss(graph, modelOutputs, expected, loss, deltas, lossType,
                    debugContext));
  prog.add(calcAccuracy(graph, modelOutputs, expected, numCorrect, debugContext));
  return prog;
}

Program calcAccuracy(Graph &graph, const Tensor &modelOutputs,
                     const Tensor &expected, const Tensor &numCorrect,
                     const DebugContext &debugContext) {
  const std::string opName = "popnn::calcAccuracy";
  DebugContext dc(debugContext, "Accuracy");
  checkLabels(modelOutputs, expected, opName);
  checkScalar(numCorrect, UNSIGNED_INT, "numCorrect", opName);
  poplibs_support::logging::popnn::info(
      "calcAccuracy {}: outputs [{}], labels [{}], adding to numCorrect",
      dc.getPathName(), fmt::join(modelOutputs.shape(), ", "),
      fmt::join(expected.shape(), ", "));
  Sequence prog({}, {dc});
  const Tensor predicted =
      argMinMax(graph, modelOutputs, true, prog, dc, opName).second;
  ComputeSet cs = graph.addComputeSet({dc, "count"});
  VertexRef v = graph.addVertex(
      cs, poputil::templateVertex("popnn::CalcAccuracy", expected.elementType()));
  graph.connect(v["predicted"], predicted);
  graph.connect(v["label"], expected);
  graph.connect(v["numCorrect"], numCorrect.flatten()[0]);
  bool complete = true;
  const auto mapping = graph.getTileMapping(numCorrect, &complete);
  unsigned tile = 0;
  for (unsigned t = 0; t != mapping.size(); ++t)
    if (!mapping[t].empty())
      tile = t;
  graph.setTileMapping(v, tile);
  graph.setPerfEstimate(v, detail::rowLoopCycles(1, predicted.numElements(), 1, 4));
  prog.add(Execute(cs, {dc}));
  return prog;
}

Tensor argMax(Graph &graph, const Tensor &input, Sequence &prog,
              const DebugContext &debugContext) {
  return argMinMax(graph, input, true, prog, {debugContext, "argMax"},
                   "popnn::argMax")
      .second;
}

Tensor argMin(Graph &graph, const Tensor &input, Sequence &prog,
              const DebugContext &debugContext) {
  return argMinMax(graph, input, false, prog, {debugContext, "argMin"},
                   "popnn::argMin")
      .second;
}

std::pair<Tensor, Tensor> maxAndArgMax(Graph &graph, const Tensor &input,
                                       Sequence &prog,
                                       const DebugContext &debugContext) {
  return argMinMax(graph, input, true, prog, {debugContext, "maxAndArgMax"},
                   "popnn::maxAndArgMax");
}

std::pair<Tensor, Tensor> minAndArgMin(Graph &graph, const Tensor &input,
                                       Sequence &prog,
                                       const DebugContext &debugContext) {
  return argMinMax(graph, input, false, prog, {debugContext, "minAndArgMin"},
                   "popnn::minAndArgMin");
}

Tensor topK(Graph &graph, const Tensor &input, Tensor &indices, unsigned K,
            bool sort, Sequence &prog, const DebugContext &debugContext) {
  const std::string opName = "popnn::topK";
  check2D(input, "input", opName);
  if (K > input.dim(1))
    throw poputil::poplibs_error(opName + ": K (" + std::to_string(K) +
                                 ") is larger than the rows of input " +
                                 detail::describe(input));
  auto [values, positions] = popops::topKWithPermutation(
      graph, prog, input,
      popops::TopKParams(K, true,
                         sort ? popops::SortOrder::DESCENDING
                              : popops::SortOrder::NONE),
      {debugContext, "topK"});
  indices = positions;
  return values;
}

} // namespace popnn
