// scaledAddTo and scaledSubtractFrom: ScaledAdd2D vertices where A is.
#include <popops/ScaledAdd.hpp>

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>

#include "CycleEstimates.hpp"
#include "TileRegions.hpp"

#include <poputil/Util.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include <cstdlib>

using namespace poplar;
using namespace poplar::program;

namespace popops {
namespace {

struct Scaling {
  bool subtract;
  bool xMinusAx;
};

void checkOptions(const OptionFlags &options, const std::string &what) {
  for (const auto &[key, value] : options) {
    if (key == "optimizeForSpeed") {
      if (value != "true" && value != "false")
        throw poplar::invalid_option(what +
                                     ": option 'optimizeForSpeed' must "
                                     "be true or false, not '" +
                                     value + "'");
    } else if (key == "scaleFloatToHalfTolerance") {
      char *end = nullptr;
      std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0')
        throw poplar::invalid_option(
            what +
            ": option 'scaleFloatToHalfTolerance' must be a number, "
            "not '" +
            value + "'");
    } else {
      throw poplar::invalid_option(what + ": unknown option '" + key + "'");
    }
  }
}

// The type the scales have in the vertex: FLOAT for a HALF A whose scale is
// FLOAT, else the type of A.
Type scaleTypeFor(const Type &dataType, const Type &givenScaleType) {
  if (dataType == HALF && givenScaleType == FLOAT)
    return FLOAT;
  return dataType;
}

// A scale tensor checked and converted to scaleType; a copy if it shares
// elements with A.
Tensor prepareScale(Graph &graph, Tensor scale, const Tensor &A,
                    const Type &scaleType, const char *role, Sequence &prog,
                    const DebugContext &dc, const std::string &what) {
  if (scale.numElements() != 1)
    throw poputil::poplibs_error(
        what + ": " + role + " (tensor '" + scale.getDebugStr() +
        "') must have one element, not " + std::to_string(scale.numElements()));
  if (scale.elementType() != scaleType)
    scale = cast(graph, scale, scaleType, prog, {dc, role});
  else if (scale.intersectsWith(A))
    scale = poputil::duplicate(graph, scale, prog, {dc, role});
  return scale.flatten();
}

void scaledArithmetic(Graph &graph, Tensor A, Tensor scaleA, Tensor B,
                      Tensor scaleB, Scaling scaling, Sequence &prog,
                      const char *name, const DebugContext &debugContext,
                      const OptionFlags &options) {
  const std::string what = std::string("popops::") + name;
  checkOptions(options, what);
  const DebugContext dc(debugContext, name);
  const Type dataType = A.elementType();
  if (dataType != FLOAT && dataType != HALF && dataType != INT &&
      dataType != UNSIGNED_INT)
    throw poputil::poplibs_error(
        what + ": tensor '" + A.getDebugStr() + "' has type " +
        dataType.toString().str() +
        "; scaled additions support float, half, int or unsigned int");
  if (A.shape() != B.shape())
    throw poputil::poplibs_error(
        what + ": tensors '" + A.getDebugStr() + "' and '" + B.getDebugStr() +
        "' must have the same shape, not " + A.shapeToString() + " and " +
        B.shapeToString());
  if (!A.isParallelWriteable())
    throw poputil::poplibs_error(
        what + ": tensor '" + A.getDebugStr() +
        "' cannot be written in parallel (it is a constant or refers to some "
        "elements more than once)");
  if (B.elementType() != dataType)
    B = cast(graph, B, dataType, prog, {dc, "B"});
  else if (B.intersectsWith(A) && !(B == A))
    B = poputil::duplicate(graph, B, prog, {dc, "B"});
  const Type scaleType = scaleTypeFor(dataType, scaleB.elementType());
  scaleA = prepareScale(graph, scaleA, A, scaleType, "scaleA", prog, dc, what);
  scaleB = prepareScale(graph, scaleB, A, scaleType, "scaleB", prog, dc, what);

  const ComputeSet cs = graph.addComputeSet(dc);
  const std::string vertexType =
      poputil::templateVertex("popops::ScaledAdd2D", dataType, scaleType,
                              scaling.subtract, scaling.xMinusAx);
  const Tensor aFlat = A.flatten(), bFlat = B.flatten();
  const Target &target = graph.getTarget();
  detail::forEachVertexGroup(
      graph, aFlat, what,
      [&](unsigned tile, const std::vector<Interval> &regions) {
        VertexRef v = graph.addVertex(cs, vertexType);
        graph.connect(v["A"], detail::regionSlices(aFlat, regions));
        graph.connect(v["B"], detail::regionSlices(bFlat, regions));
        graph.connect(v["scaleA"], scaleA);
        graph.connect(v["scaleB"], scaleB);
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(v, detail::multiVertexCycles(
                                     target, detail::regionSizes(regions),
                                     detail::scaledAddCost(target, dataType)));
      });
  prog.add(Execute(cs, dc));
}

// Constant scales: FLOAT for a floating-point A (exact also for HALF),
// the type of A otherwise.
Tensor constantScale(Graph &graph, const Tensor &A, float value,
                     const DebugContext &dc) {
  const Type type = A.elementType() == HALF ? FLOAT : A.elementType();
  return detail::constantTensor(graph, type, static_cast<double>(value), dc);
}

} // namespace

void scaledAddTo(Graph &graph, Tensor A, Tensor B, float scaleB, Sequence &prog,
                 const DebugContext &debugContext, const OptionFlags &options) {
  scaledAddTo(graph, A, 1.0f, B, scaleB, prog, debugContext, options);
}

void scaledAddTo(Graph &graph, Tensor A, Tensor B, Tensor scaleB,
                 Sequence &prog, const DebugContext &debugContext,
                 const OptionFlags &options) {
  const Type scaleType = scaleTypeFor(A.elementType(), scaleB.elementType());
  const Tensor one =
      detail::constantTensor(graph, scaleType, 1.0, {debugContext, "one"});
  scaledArithmetic(graph, A, one, B, scaleB, {false, false}, prog,
                   "scaledAddTo", debugContext, options);
}

void scaledSubtractFrom(Graph &graph, Tensor A, Tensor B, float scaleB,
                        Sequence &prog, const DebugContext &debugContext,
                        const OptionFlags &options) {
  scaledSubtractFrom(graph, A, 1.0f, B, scaleB, prog, debugContext, options);
}

void scaledSubtractFrom(Graph &graph, Tensor A, Tensor B, Tensor scaleB,
                        Sequence &prog, const DebugContext &debugContext,
                        const OptionFlags &options) {
  const Type scaleType = scaleTypeFor(A.elementType(), scaleB.elementType());
  const Tensor one =
      detail::constantTensor(graph, scaleType, 1.0, {debugContext, "one"});
  scaledArithmetic(graph, A, one, B, scaleB, {true, false}, prog,
                   "scaledSubtractFrom", debugContext, options);
}

void scaledAddTo(Graph &graph, Tensor A, Tensor scaleA, Tensor B, Tensor scaleB,
                 Sequence &prog, const DebugContext &debugContext,
                 const OptionFlags &options) {
  scaledAddTo(graph, A, scaleA, B, scaleB, prog,
              ScaledAddSpecialisation::DEFAULT, debugContext, options);
}

void scaledAddTo(Graph &graph, Tensor A, Tensor scaleA, Tensor B, Tensor scaleB,
                 Sequence &prog, const ScaledAddSpecialisation speciality,
                 const DebugContext &debugContext, const OptionFlags &options) {
  scaledArithmetic(
      graph, A, scaleA, B, scaleB,
      {false, speciality == ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY}, prog,
      "scaledAddTo", debugContext, options);
}

void scaledAddTo(Graph &graph, Tensor A, float scaleA, Tensor B, float scaleB,
                 Sequence &prog, const DebugContext &debugContext,
                 const OptionFlags &options) {
  scaledAddTo(graph, A, scaleA, B, scaleB, prog,
              ScaledAddSpecialisation::DEFAULT, debugContext, options);
}

void scaledAddTo(Graph &graph, Tensor A, float scaleA, Tensor B, float scaleB,
                 Sequence &prog, const ScaledAddSpecialisation speciality,
                 const DebugContext &debugContext, const OptionFlags &options) {
  scaledArithmetic(
      graph, A, constantScale(graph, A, scaleA, {debugContext, "scaleA"}), B,
      constantScale(graph, A, scaleB, {debugContext, "scaleB"}),
      {false, speciality == ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY}, prog,
      "scaledAddTo", debugContext, options);
}

void scaledSubtractFrom(Graph &graph, Tensor A, Tensor scaleA, Tensor B,
                        Tensor scaleB, Sequence &prog,
                        const DebugContext &debugContext,
                        const OptionFlags &options) {
  scaledArithmetic(graph, A, scaleA, B, scaleB, {true, false}, prog,
                   "scaledSubtractFrom", debugContext, options);
}

void scaledSubtractFrom(Graph &graph, Tensor A, float scaleA, Tensor B,
                        float scaleB, Sequence &prog,
                        const DebugContext &debugContext,
                        const OptionFlags &options) {
  scaledArithmetic(
      graph, A, constantScale(graph, A, scaleA, {debugContext, "scaleA"}), B,
      constantScale(graph, A, scaleB, {debugContext, "scaleB"}), {true, false},
      prog, "scaledSubtractFrom", debugContext, options);
}

} // namespace popops
