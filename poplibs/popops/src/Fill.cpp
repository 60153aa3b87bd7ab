// fill and zero: Fill2D vertices where the tensor's elements are.
#include <popops/Fill.hpp>
#include <popops/Zero.hpp>

#include "CycleEstimates.hpp"
#include "ExprOpInfo.hpp"
#include "TileRegions.hpp"
#include "TypedExpr.hpp"

#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;

namespace popops {
namespace detail {
namespace {

const char *const fillName = "popops::fill";

void checkFillable(const Tensor &t) {
  if (!isCastType(t.elementType()))
    throw poputil::poplibs_error(
        std::string(fillName) + ": cannot fill tensor '" + t.getDebugStr() +
        "' of type " + t.elementType().toString().str() + " (fill supports " +
        typeList(castTypes()) + ")");
  if (!t.isParallelWriteable())
    throw poputil::poplibs_error(
        std::string(fillName) + ": tensor '" + t.getDebugStr() +
        "' cannot be written in parallel (it is a constant or refers to some "
        "elements more than once)");
}

// One Fill2D vertex per group of regions (of the flattened t) on `tile`.
void addFillVertices(Graph &graph, const Tensor &flat,
                     const std::vector<Interval> &regions, unsigned tile,
                     ComputeSet cs, const FillValue &value) {
  const Type type = flat.elementType();
  ExprNode node;
  node.kind = ExprNode::Kind::Constant;
  node.type = type;
  node.constFloating = value.isFloating;
  node.constDouble = value.floating;
  node.constInteger = value.integer;
  node.constNegative = value.isNegative;
  const ConstValue v = constValue(node);
  const std::string vertexType =
      poputil::templateVertex("popops::Fill2D", type);
  const VectorCost cost = fillCost(graph.getTarget(), type);
  for (const auto &group : groupRegions(regions, maxElementsPerVertex)) {
    VertexRef vertex = graph.addVertex(cs, vertexType);
    graph.connect(vertex["out"], regionSlices(flat, group));
    if (type == FLOAT || type == HALF)
      graph.setInitialValue(vertex["in"], static_cast<float>(v.floating));
    else if (type == UNSIGNED_INT)
      graph.setInitialValue(vertex["in"], static_cast<unsigned>(v.integer));
    else if (type == BOOL)
      graph.setInitialValue(vertex["in"], v.integer != 0);
    else
      graph.setInitialValue(vertex["in"], static_cast<int>(v.integer));
    graph.setTileMapping(vertex, tile);
    graph.setPerfEstimate(
        vertex, multiVertexCycles(graph.getTarget(), regionSizes(group), cost));
  }
}

} // namespace

void fill(Graph &graph, const Tensor &t,
          const std::vector<Interval> &tileRegions, unsigned tile,
          ComputeSet fillCS, const FillValue &value) {
  checkFillable(t);
  const Tensor flat = t.flatten();
  for (const auto &r : tileRegions)
    if (r.end() > flat.numElements())
      throw poputil::poplibs_error(
          std::string(fillName) + ": region [" + std::to_string(r.begin()) +
          ", " + std::to_string(r.end()) + ") is beyond the " +
          std::to_string(flat.numElements()) + " elements of tensor '" +
          t.getDebugStr() + "'");
  addFillVertices(graph, flat, splitAtDiscontinuities(flat, tileRegions), tile,
                  fillCS, value);
}

void fill(Graph &graph, const Tensor &t, unsigned tile, ComputeSet fillCS,
          const FillValue &value) {
  checkFillable(t);
  const Tensor flat = t.flatten();
  const auto mapping = tileContiguousRegions(graph, flat, fillName);
  if (tile < mapping.size() && !mapping[tile].empty())
    addFillVertices(graph, flat, mapping[tile], tile, fillCS, value);
}

void fill(Graph &graph, const Tensor &t,
          const std::vector<std::vector<Interval>> &mapping, ComputeSet fillCS,
          const FillValue &value) {
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    if (!mapping[tile].empty())
      fill(graph, t, mapping[tile], tile, fillCS, value);
}

void fill(Graph &graph, const Tensor &t, Sequence &prog, const FillValue &value,
          const DebugContext &debugContext) {
  checkFillable(t);
  const DebugContext dc(debugContext, "fill");
  const ComputeSet cs = graph.addComputeSet(dc);
  const Tensor flat = t.flatten();
  const auto mapping = tileContiguousRegions(graph, flat, fillName);
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    if (!mapping[tile].empty())
      addFillVertices(graph, flat, mapping[tile], tile, cs, value);
  prog.add(Execute(cs, dc));
}

} // namespace detail

void zero(Graph &graph, Tensor t, const std::vector<Interval> &tileRegions,
          unsigned tile, ComputeSet zeroCS) {
  detail::fill(graph, t, tileRegions, tile, zeroCS, 0);
}

void zero(Graph &graph, const Tensor &t, unsigned tile, ComputeSet zeroCS) {
  detail::fill(graph, t, tile, zeroCS, 0);
}

void zero(Graph &graph, const Tensor &t,
          const std::vector<std::vector<Interval>> &mapping,
          ComputeSet zeroCS) {
  detail::fill(graph, t, mapping, zeroCS, 0);
}

void zero(Graph &graph, const Tensor &t, Sequence &prog,
          const DebugContext &debugContext) {
  detail::fill(graph, t, prog, 0, {debugContext, "zero"});
}

} // namespace popops
