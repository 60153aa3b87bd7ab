// popnn::nonLinearity and its gradient. The element-wise types run as
// popnn's vertices (codelets/NonLinearity.cpp), one compute set per call,
// placed where the result lives; the softmax types are made of popops'
// reductions and maps over the innermost dimension.
#include <popnn/NonLinearity.hpp>
#include <popnn/NonLinearityDefUtil.hpp>

#include "CycleEstimates.hpp"
#include "TileWork.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <cmath>
#include <optional>

using namespace poplar;
using namespace poplar::program;

namespace popnn {
namespace {

// SOFTMAX_SCALED's outputs sum to this rather than 1: close to the largest
// HALF (65504) with room for the rounding of exp.
constexpr float softmaxScaling = 62000.0f;

bool isSoftmax(NonLinearityType type) {
  return type == NonLinearityType::SOFTMAX ||
         type == NonLinearityType::SOFTMAX_STABLE ||
         type == NonLinearityType::SOFTMAX_SCALED;
}

float scalingOf(NonLinearityType type) {
  return type == NonLinearityType::SOFTMAX_SCALED ? softmaxScaling : 1.0f;
}

// Adds the vertices computing f(in) into out (in place when out is empty).
void addElementwiseVertices(Graph &graph, NonLinearityType type, const Tensor &in,
                            const std::optional<Tensor> &out, ComputeSet &cs,
                            const std::string &opName) {
  detail::checkFloatingPoint(in, opName, "tensor");
  const Tensor &written = out ? *out : in;
  if (!written.isParallelWriteable())
    throw poputil::poplibs_error(opName + ": tensor " + detail::describe(written) +
                                 " cannot be written in parallel (it has "
                                 "aliased or constant elements)");
  const Type dType = in.elementType();
  const Tensor inFlat = in.flatten();
  const Tensor outFlat = written.flatten();
  const std::string vertexName = poputil::templateVertex(
      out ? "popnn::NonLinearity2D" : "popnn::NonLinearity2DInPlace", dType, type);
  detail::forEachVertexGroup(
      graph, written, opName,
      [&](unsigned tile, const std::vector<Interval> &intervals) {
        VertexRef v = graph.addVertex(cs, vertexName);
        if (out) {
          graph.connect(v["in"], detail::regionSlices(inFlat, intervals));
          graph.connect(v["out"], detail::regionSlices(outFlat, intervals));
        } else {
          graph.connect(v["data"], detail::regionSlices(outFlat, intervals));
        }
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(v, detail::nonLinearityCycles(
                                     graph.getTarget(), dType, type, false,
                                     detail::regionSizes(intervals)));
      });
}

// The innermost dimension as columns, every other dimension as rows.
Tensor asRows(const Tensor &t) {
  return t.rank() == 1 ? t.expand({0}) : t.flatten(0, t.rank() - 1);
}

// softmax over the innermost dimension: exp(x - max) / sum, the max taken
// only by the stable types; the reciprocal of the sum is taken once per
// row (in float) and multiplied in.
Tensor softmax(Graph &graph, Tensor t, NonLinearityType type, bool inPlace,
               Sequence &prog, const DebugContext &dnai) {
  const std::string opName = "popnn::nonLinearity(" +
                             std::string(asString(type)) + ")";
  detail::checkFloatingPoint(t, opName, "tensor");
  if (t.rank() < 1)
    throw poputil::poplibs_error(opName + ": tensor " + detail::describe(t) +
                                 " must have at least one dimension");
  using namespace popops::expr;
  const Tensor x = asRows(t);
  Tensor e;
  if (type == NonLinearityType::SOFTMAX) {
    if (inPlace) {
      popops::expInPlace(graph, x, prog, {dnai, "exp"});
      e = x;
    } else {
      e = popops::exp(graph, x, prog, {dnai, "exp"});
    }
  } else {
    const Tensor max = popops::reduce(graph, x, {1}, {popops::Operation::MAX},
                                      prog, {dnai, "max"})
                           .expand({1});
    if (inPlace) {
      popops::mapInPlace(graph, Exp(_1 - _2), {x, max}, prog, {dnai, "exp"});
      e = x;
    } else {
      e = popops::map(graph, Exp(_1 - _2), {x, max}, prog, {dnai, "exp"});
    }
  }
  Tensor scale = popops::reduce(graph, e, FLOAT, {1}, {popops::Operation::ADD},
                                prog, {dnai, "sum"});
  popops::mapInPlace(graph, Const(scalingOf(type)) / _1, {scale}, prog,
                     {dnai, "scale"});
  if (e.elementType() != FLOAT)
    scale = popops::cast(graph, scale, e.elementType(), prog, {dnai, "scale"});
  popops::mulInPlace(graph, e, scale.expand({1}), prog, {dnai, "normalise"});
  return e.reshape(t.shape());
}

// d x = y * (g - sum(g * y)) over the innermost dimension.
Tensor softmaxGradient(Graph &graph, const Tensor &out, const Tensor &outGradient,
                       Sequence &prog, const DebugContext &dnai) {
  const std::string opName = "popnn::nonLinearityInputGradient(softmax)";
  if (out.rank() < 1)
    throw poputil::poplibs_error(opName + ": tensor " + detail::describe(out) +
                                 " must have at least one dimension");
  using namespace popops::expr;
  const Tensor y = asRows(out), g = asRows(outGradient);
  const Tensor gy = popops::mul(graph, g, y, prog, {dnai, "gy"});
  const Tensor sum = popops::reduce(graph, gy, FLOAT, {1},
                                    {popops::Operation::ADD}, prog, {dnai, "sum"})
                         .expand({1});
  const Tensor sumT = y.elementType() == FLOAT
                          ? sum
                          : popops::cast(graph, sum, y.elementType(), prog,
                                         {dnai, "sum"});
  popops::mapInPlace(graph, _1 - _2 * _3, {gy, y, sumT}, prog, {dnai, "grad"});
  return gy.reshape(out.shape());
}

} // namespace

void nonLinearityInPlace(Graph &graph, NonLinearityType nonLinearityType,
                         Tensor t, ComputeSet &cs,
                         const DebugContext &debugContext) {
  if (isSoftmax(nonLinearityType))
    throw poputil::poplibs_error(
        std::string("popnn::nonLinearityInPlace: the ComputeSet form is not "
                    "available for ") +
        asString(nonLinearityType));
  addElementwiseVertices(graph, nonLinearityType, t, std::nullopt, cs,
                         "popnn::nonLinearityInPlace(" +
                             std::string(asString(nonLinearityType)) + ")");
}

void nonLinearityInPlace(Graph &graph, NonLinearityType nonLinearityType,
                         Tensor t, Sequence &prog,
                         const DebugContext &debugContext) {
  DebugContext dnai(debugContext, "Nonlinearity");
  if (isSoftmax(nonLinearityType)) {
    if (!t.isParallelWriteable())
      throw poputil::poplibs_error(
          "popnn::nonLinearityInPlace: tensor " + detail::describe(t) +
          " cannot be written in parallel");
    softmax(graph, t, nonLinearityType, true, prog, dnai);
    return;
  }
  ComputeSet cs = graph.addComputeSet({dnai, asString(nonLinearityType)});
  nonLinearityInPlace(graph, nonLinearityType, t, cs, {dnai});
  prog.add(Execute(cs, {dnai}));
}

void nonLinearityInPlace(Graph &graph, NonLinearityType nonLinearityType,
                         Tensor t, float &nonLinearityScaling, Sequence &prog,
                         const DebugContext &debugContext) {
  nonLinearityScaling = scalingOf(nonLinearityType);
  nonLinearityInPlace(graph, nonLinearityType, t, prog, debugContext);
}

void nonLinearityInPlace(Graph &graph, NonLinearityType nonLinearityType,
                         Tensor t, ComputeSet &cs, float &nonLinearityScaling,
                         const DebugContext &debugContext) {
  nonLinearityScaling = scalingOf(nonLinearityType);
  nonLinearityInPlace(graph, nonLinearityType, t, cs, debugContext);
}

Tensor nonLinearity(Graph &graph, NonLinearityType nonLinearityType, Tensor t,
                    Sequence &prog, const DebugContext &debugContext) {
  DebugContext dnai(debugContext, "Nonlinearity");
  if (isSoftmax(nonLinearityType))
    return softmax(graph, t, nonLinearityType, false, prog, dnai);
  const std::string opName =
      "popnn::nonLinearity(" + std::string(asString(nonLinearityType)) + ")";
  detail::checkFloatingPoint(t, opName, "tensor");
  Tensor out = graph.clone(t, {dnai, "out"});
  ComputeSet cs = graph.addComputeSet({dnai, asString(nonLinearityType)});
  addElementwiseVertices(graph, nonLinearityType, t, out, cs, opName);
  prog.add(Execute(cs, {dnai}));
  return out;
}

Tensor nonLinearity(Graph &graph, NonLinearityType nonLinearityType, Tensor t,
                    float &nonLinearityScaling, Sequence &prog,
                    const DebugContext &debugContext) {
  nonLinearityScaling = scalingOf(nonLinearityType);
  return nonLinearity(graph, nonLinearityType, t, prog, debugContext);
}

Tensor nonLinearityInputGradient(Graph &graph, NonLinearityType nonLinearityType,
                                 Tensor act, Tensor outGradient, ComputeSet &cs,
                                 const DebugContext &debugContext) {
  const std::string opName = "popnn::nonLinearityInputGradient(" +
                             std::string(asString(nonLinearityType)) + ")";
  if (isSoftmax(nonLinearityType))
    throw poputil::poplibs_error(opName + ": the ComputeSet form is not "
                                          "available for softmax");
  detail::checkFloatingPoint(act, opName, "act");
  detail::checkSameShape(act, "act", outGradient, "outGradient", opName);
  DebugContext dnai(debugContext, "NonLinearityGrad");
  const Type dType = act.elementType();
  Tensor inGradient = graph.clone(act, {dnai, "inGradient"});
  const Tensor actFlat = act.flatten(), gradFlat = outGradient.flatten(),
               inGradFlat = inGradient.flatten();
  const std::string vertexName =
      poputil::templateVertex("popnn::NonLinearityGrad2D", dType, nonLinearityType);
  detail::forEachVertexGroup(
      graph, inGradient, opName,
      [&](unsigned tile, const std::vector<Interval> &intervals) {
        VertexRef v = graph.addVertex(cs, vertexName);
        graph.connect(v["act"], detail::regionSlices(actFlat, intervals));
        graph.connect(v["outGrad"], detail::regionSlices(gradFlat, intervals));
        graph.connect(v["inGrad"], detail::regionSlices(inGradFlat, intervals));
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(v, detail::nonLinearityCycles(
                                     graph.getTarget(), dType, nonLinearityType,
                                     true, detail::regionSizes(intervals)));
      });
  return inGradient;
}

Tensor nonLinearityInputGradient(Graph &graph, NonLinearityType nonLinearityType,
                                 Tensor act, Tensor outGradient, Sequence &prog,
                                 const DebugContext &debugContext) {
  DebugContext dnai(debugContext, "NonLinearityGrad");
  if (isSoftmax(nonLinearityType)) {
    const std::string opName = "popnn::nonLinearityInputGradient(softmax)";
    detail::checkFloatingPoint(act, opName, "act");
    detail::checkSameShape(act, "act", outGradient, "outGradient", opName);
    return softmaxGradient(graph, act, outGradient, prog, dnai);
  }
  ComputeSet cs = graph.addComputeSet({dnai, asString(nonLinearityType)});
  Tensor t = nonLinearityInputGradient(graph, nonLinearityType, act, outGradient,
                                       cs, {dnai});
  prog.add(Execute(cs, {dnai}));
  return t;
}

} // namespace popnn
