// CTC loss and gradient: popnn::CTCLoss / CTCLossGradient vertices, one
// per batch entry on the entry's tile (codelets/CTC.cpp).
#include "CTCPlanImpl.hpp"
#include "TileWork.hpp"

#include <popnn/CTCLoss.hpp>
#include <popnn/LogSoftmax.hpp>

#include <poputil/OptionParsing.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {
namespace ctc {
namespace {

using poplar::Tensor;

struct LossOptions {
  bool includeSoftmaxGradient = true;
  bool zeroInfinity = false;
};

LossOptions parseLossOptions(const poplar::OptionFlags &options) {
  LossOptions o;
  double tolerance = 0.01; // accepted for the original's callers; exact here
  const poplibs::OptionSpec spec{
      {"includeSoftmaxGradient",
       poplibs::OptionHandler::createWithBool(o.includeSoftmaxGradient)},
      {"zeroInfinity", poplibs::OptionHandler::createWithBool(o.zeroInfinity)},
      {"zeroInfinityRelTolerance",
       poplibs::OptionHandler::createWithDouble(tolerance, 0.0, false)}};
  for (const auto &option : options)
    spec.parse(option.first, option.second);
  return o;
}

const Plan::Impl &lossPlan(const Plan &plan, const std::string &opName) {
  const Plan::Impl &p = plan.getImpl();
  if (p.kind != Plan::Impl::Kind::Loss)
    throw poputil::poplibs_error(opName + ": the plan is an inference plan "
                                          "(ctc_infer::plan); use ctc::plan");
  return p;
}

void checkInputs(const Plan::Impl &p, const Tensor &data, const Tensor &labels,
                 const Tensor &dataLengths, const Tensor &labelLengths,
                 unsigned blankClass, const std::string &opName) {
  checkCtcTensor(data, {p.maxTime, p.batchSize, p.numClasses},
                 {poplar::FLOAT, poplar::HALF}, "data", opName);
  checkCtcTensor(labels, {p.batchSize, p.maxLabelLength}, {poplar::UNSIGNED_INT},
                 "labels", opName);
  checkCtcTensor(dataLengths, {p.batchSize}, {poplar::UNSIGNED_INT},
                 "dataLengths", opName);
  checkCtcTensor(labelLengths, {p.batchSize}, {poplar::UNSIGNED_INT},
                 "labelLengths", opName);
  if (blankClass >= p.numClasses)
    throw poputil::poplibs_error(opName + ": blankClass " +
                                 std::to_string(blankClass) +
                                 " is not one of the " +
                                 std::to_string(p.numClasses) + " classes");
}

// The loss (and, with `gradient`, its gradient) of every entry.
std::pair<Tensor, Tensor>
lossImpl(poplar::Graph &graph, const poplar::Type &outType, const Tensor &data,
         const Tensor &labels, const Tensor &dataLengths,
         const Tensor &labelLengths, poplar::program::Sequence &prog,
         unsigned blankClass, const Plan &plan, bool gradient,
         const poplar::DebugContext &dc, const poplar::OptionFlags &options,
         const std::string &opName) {
  const Plan::Impl &p = lossPlan(plan, opName);
  if (outType != poplar::FLOAT && outType != poplar::HALF)
    throw poputil::poplibs_error(opName + ": outType " +
                                 outType.toString().str() +
                                 " is not FLOAT or HALF");
  const LossOptions o = parseLossOptions(options);
  Tensor loss = graph.addVariable(outType, {p.batchSize}, {dc, "loss"});
  Tensor grad;
  if (gradient)
    grad = graph.addVariable(outType, data.shape(), {dc, "gradient"});
  poplar::ComputeSet cs = graph.addComputeSet({dc, gradient ? "ctcGradient"
                                                            : "ctcLoss"});
  const std::string vertexName = poputil::templateVertex(
      gradient ? "popnn::CTCLossGradient" : "popnn::CTCLoss",
      data.elementType(), outType);
  const std::size_t S = 2 * std::size_t(p.maxLabelLength) + 1;
  for (unsigned b = 0; b != p.batchSize; ++b) {
    const unsigned tile = p.tileOf(b);
    poplar::VertexRef v = graph.addVertex(cs, vertexName);
    graph.connect(v["logProbs"], data.slice(b, b + 1, 1).flatten());
    graph.connect(v["label"], labels[b]);
    graph.connect(v["dataLength"], dataLengths[b]);
    graph.connect(v["labelLength"], labelLengths[b]);
    graph.connect(v["loss"], loss[b]);
    graph.setTileMapping(loss[b], tile);
    graph.setInitialValue(v["numClasses"], p.numClasses);
    graph.setInitialValue(v["blankClass"], blankClass);
    graph.setInitialValue(v["zeroInfinity"], o.zeroInfinity);
    if (gradient) {
      Tensor g = grad.slice(b, b + 1, 1);
      graph.connect(v["gradient"], g.flatten());
      graph.setTileMapping(g, tile);
      graph.setInitialValue(v["includeSoftmaxGradient"],
                            o.includeSoftmaxGradient);
    }
    graph.setTileMapping(v, tile);
    // Forward and backward over the extended label, then the gradient.
    const std::uint64_t steps = std::uint64_t(p.maxTime) * S;
    graph.setPerfEstimate(v, 50 + steps * (gradient ? 2 * 12 : 12) +
                                 (gradient ? std::uint64_t(p.maxTime) *
                                                 p.numClasses * 8
                                           : 0));
  }
  prog.add(poplar::program::Execute(cs, {dc}));
  return {loss, grad};
}

Tensor logSoftmaxOf(poplar::Graph &graph, const Tensor &logits,
                    poplar::program::Sequence &prog,
                    const poplar::DebugContext &dc) {
  return popnn::logSoftmax(graph, logits, prog, {dc, "logSoftmax"});
}

} // namespace

Plan plan(const poplar::Graph &graph, const poplar::Type &inType,
          const poplar::Type &outType, unsigned batchSize, unsigned maxTime,
          unsigned maxLabelLength, unsigned numClasses,
          const poplar::OptionFlags &options) {
  std::unique_ptr<Plan::Impl> impl(new Plan::Impl);
  impl->kind = Plan::Impl::Kind::Loss;
  impl->inType = inType;
  impl->outType = outType;
  impl->batchSize = batchSize;
  impl->maxTime = maxTime;
  impl->maxLabelLength = maxLabelLength;
  impl->numClasses = numClasses;
  impl->numTiles = graph.getTarget().getNumTiles();
  parsePlanOptions(*impl, options, "ctc::plan");
  checkPlanSizes(*impl, graph.getTarget().getMemoryBytes(), "ctc::plan");
  return Plan(std::move(impl));
}

Tensor createDataInput(poplar::Graph &graph, const poplar::Type &type,
                       const std::size_t batchSize, const std::size_t maxTime,
                       const std::size_t numClasses, const Plan &plan,
                       const poplar::DebugContext &debugContext) {
  return createPlannedData(graph, type, batchSize, maxTime, numClasses,
                           lossPlan(plan, "ctc::createDataInput"),
                           debugContext, "ctc::createDataInput");
}

Tensor createLabelsInput(poplar::Graph &graph, const poplar::Type &type,
                         const std::size_t batchSize,
                         const std::size_t maxLabelLength, const Plan &plan,
                         const poplar::DebugContext &debugContext) {
  const Plan::Impl &p = lossPlan(plan, "ctc::createLabelsInput");
  if (batchSize != p.batchSize || maxLabelLength != p.maxLabelLength)
    throw poputil::poplibs_error(
        "ctc::createLabelsInput: the labels shape [" +
        std::to_string(batchSize) + "," + std::to_string(maxLabelLength) +
        "] is not the plan's [" + std::to_string(p.batchSize) + "," +
        std::to_string(p.maxLabelLength) + "]");
  if (type != poplar::UNSIGNED_INT)
    throw poputil::poplibs_error("ctc::createLabelsInput: labels must be "
                                 "UNSIGNED_INT, not " +
                                 type.toString().str());
  Tensor t = graph.addVariable(type, {batchSize, maxLabelLength},
                               {debugContext, "labels"});
  for (unsigned b = 0; b != batchSize; ++b)
    graph.setTileMapping(t[b], p.tileOf(b));
  return t;
}

namespace {

// One public operation: its debug record, the log softmax of logits, the
// loss (and gradient) of every entry, the outputs recorded.
std::pair<Tensor, Tensor>
recordedLoss(poplar::Graph &graph, const poplar::Type &outType,
             const Tensor &data, bool fromLogits, const Tensor &labels,
             const Tensor &dataLengths, const Tensor &labelLengths,
             poplar::program::Sequence &prog, unsigned blankClass,
             const Plan &plan, bool gradient,
             const poplar::DebugContext &debugContext,
             const poplar::OptionFlags &options, const std::string &api) {
  poputil::PoplibsOpDebugInfo di(
      debugContext, DI_ARGS(outType, data, labels, dataLengths, labelLengths,
                            blankClass, plan, options),
      api);
  const std::string opName = "ctc::" + api;
  checkInputs(lossPlan(plan, opName), data, labels, dataLengths, labelLengths,
              blankClass, opName);
  const Tensor logProbs =
      fromLogits ? logSoftmaxOf(graph, data, prog, {di}) : data;
  auto result = lossImpl(graph, outType, logProbs, labels, dataLengths,
                         labelLengths, prog, blankClass, plan, gradient, {di},
                         options, opName);
  if (gradient)
    di.addOutputs({{"loss", poputil::toProfileValue(result.first)},
                   {"gradient", poputil::toProfileValue(result.second)}});
  else
    di.addOutput(result.first);
  return result;
}

} // namespace

std::pair<Tensor, Tensor> calcLossAndGradientLogProbabilities(
    poplar::Graph &graph, const poplar::Type &outType, const Tensor &logProbs,
    const Tensor &labels, const Tensor &dataLengths, const Tensor &labelLengths,
    poplar::program::Sequence &prog, const unsigned blankClass,
    const Plan &plan, const poplar::DebugContext &debugContext,
    const poplar::OptionFlags &options) {
  return recordedLoss(graph, outType, logProbs, false, labels, dataLengths,
                      labelLengths, prog, blankClass, plan, true, debugContext,
                      options, "calcLossAndGradientLogProbabilities");
}

std::pair<Tensor, Tensor> calcLossAndGradientLogits(
    poplar::Graph &graph, const poplar::Type &outType, const Tensor &logits,
    const Tensor &labels, const Tensor &dataLengths, const Tensor &labelLengths,
    poplar::program::Sequence &prog, const unsigned blankClass,
    const Plan &plan, const poplar::DebugContext &debugContext,
    const poplar::OptionFlags &options) {
  return recordedLoss(graph, outType, logits, true, labels, dataLengths,
                      labelLengths, prog, blankClass, plan, true, debugContext,
                      options, "calcLossAndGradientLogits");
}

Tensor calcCTCLossLogProbabilities(
    poplar::Graph &graph, const poplar::Type &outType, const Tensor &logProbs,
    const Tensor &labels, const Tensor &dataLengths, const Tensor &labelLengths,
    poplar::program::Sequence &prog, const unsigned blankClass,
    const Plan &plan, const poplar::DebugContext &debugContext,
    const poplar::OptionFlags &options) {
  return recordedLoss(graph, outType, logProbs, false, labels, dataLengths,
                      labelLengths, prog, blankClass, plan, false,
                      debugContext, options, "calcCTCLossLogProbabilities")
      .first;
}

Tensor calcCTCLossLogits(poplar::Graph &graph, const poplar::Type &outType,
                         const Tensor &logits, const Tensor &labels,
                         const Tensor &dataLengths, const Tensor &labelLengths,
                         poplar::program::Sequence &prog,
                         const unsigned blankClass, const Plan &plan,
                         const poplar::DebugContext &debugContext,
                         const poplar::OptionFlags &options) {
  return recordedLoss(graph, outType, logits, true, labels, dataLengths,
                      labelLengths, prog, blankClass, plan, false,
                      debugContext, options, "calcCTCLossLogits")
      .first;
}

} // namespace ctc
} // namespace popnn
