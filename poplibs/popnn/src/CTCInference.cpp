// CTC beam search decoding: a popnn::CTCBeamSearch vertex per batch entry
// on the entry's tile (codelets/CTC.cpp).
#include "CTCPlanImpl.hpp"
#include "TileWork.hpp"

#include <popnn/CTCInference.hpp>
#include <popnn/LogSoftmax.hpp>

#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {
namespace ctc_infer {
namespace {

using poplar::Tensor;
using ctc::Plan;

const Plan::Impl &inferencePlan(const Plan &plan, const std::string &opName) {
  const Plan::Impl &p = plan.getImpl();
  if (p.kind != Plan::Impl::Kind::Inference)
    throw poputil::poplibs_error(opName + ": the plan is a loss plan "
                                          "(ctc::plan); use ctc_infer::plan");
  return p;
}

void checkInputs(const Plan::Impl &p, const Tensor &data,
                 const Tensor &dataLengths, unsigned blankClass,
                 unsigned beamwidth, unsigned topPaths,
                 const std::string &opName) {
  ctc::checkCtcTensor(data, {p.maxTime, p.batchSize, p.numClasses},
                      {poplar::FLOAT, poplar::HALF}, "data", opName);
  ctc::checkCtcTensor(dataLengths, {p.batchSize}, {poplar::UNSIGNED_INT},
                      "dataLengths", opName);
  if (blankClass >= p.numClasses)
    throw poputil::poplibs_error(opName + ": blankClass " +
                                 std::to_string(blankClass) +
                                 " is not one of the " +
                                 std::to_string(p.numClasses) + " classes");
  if (beamwidth != p.beamWidth)
    throw poputil::poplibs_error(opName + ": beamwidth " +
                                 std::to_string(beamwidth) +
                                 " is not the plan's " +
                                 std::to_string(p.beamWidth));
  if (topPaths == 0 || topPaths > beamwidth)
    throw poputil::poplibs_error(opName + ": topPaths " +
                                 std::to_string(topPaths) +
                                 " must be from 1 to the beamwidth " +
                                 std::to_string(beamwidth));
}

std::tuple<Tensor, Tensor, Tensor>
decode(poplar::Graph &graph, const Tensor &logProbs, const Tensor &dataLengths,
       poplar::program::Sequence &prog, unsigned blankClass,
       unsigned beamwidth, unsigned topPaths, const Plan::Impl &p,
       const poplar::DebugContext &dc) {
  const poplar::Type type = logProbs.elementType();
  Tensor probs = graph.addVariable(type, {p.batchSize, topPaths},
                                   {dc, "labelProbs"});
  Tensor lengths = graph.addVariable(poplar::UNSIGNED_INT,
                                     {p.batchSize, topPaths},
                                     {dc, "labelLengths"});
  Tensor labels = graph.addVariable(poplar::UNSIGNED_INT,
                                    {p.batchSize, topPaths, p.maxTime},
                                    {dc, "decodedLabels"});
  poplar::ComputeSet cs = graph.addComputeSet({dc, "beamSearch"});
  const std::string vertexName =
      poputil::templateVertex("popnn::CTCBeamSearch", type);
  for (unsigned b = 0; b != p.batchSize; ++b) {
    const unsigned tile = p.tileOf(b);
    poplar::VertexRef v = graph.addVertex(cs, vertexName);
    graph.connect(v["logProbs"], logProbs.slice(b, b + 1, 1).flatten());
    graph.connect(v["dataLength"], dataLengths[b]);
    graph.connect(v["labelProbs"], probs[b]);
    graph.connect(v["labelLengths"], lengths[b]);
    graph.connect(v["decodedLabels"], labels[b].flatten());
    for (const Tensor &t : {probs[b], lengths[b], labels[b]})
      graph.setTileMapping(t, tile);
    graph.setInitialValue(v["numClasses"], p.numClasses);
    graph.setInitialValue(v["blankClass"], blankClass);
    graph.setInitialValue(v["beamWidth"], beamwidth);
    graph.setTileMapping(v, tile);
    // Per step, every beam extended by every class, then sorted.
    const std::uint64_t candidates = std::uint64_t(beamwidth) * p.numClasses;
    graph.setPerfEstimate(v, 50 + std::uint64_t(p.maxTime) *
                                      (candidates * (10 + beamwidth) +
                                       candidates * 4));
  }
  prog.add(poplar::program::Execute(cs, {dc}));
  return std::make_tuple(probs, lengths, labels);
}

} // namespace

Plan plan(const poplar::Graph &graph, const poplar::Type &inType,
          unsigned batchSize, unsigned maxTime, unsigned numClasses,
          unsigned beamwidth, const poplar::OptionFlags &options) {
  std::unique_ptr<Plan::Impl> impl(new Plan::Impl);
  impl->kind = Plan::Impl::Kind::Inference;
  impl->inType = inType;
  impl->outType = inType;
  impl->batchSize = batchSize;
  impl->maxTime = maxTime;
  impl->numClasses = numClasses;
  impl->beamWidth = beamwidth;
  impl->numTiles = graph.getTarget().getNumTiles();
  ctc::parsePlanOptions(*impl, options, "ctc_infer::plan");
  ctc::checkPlanSizes(*impl, graph.getTarget().getMemoryBytes(),
                      "ctc_infer::plan");
  return Plan(std::move(impl));
}

Tensor createDataInput(poplar::Graph &graph, const poplar::Type &type,
                       const std::size_t batchSize, const std::size_t maxTime,
                       const std::size_t numClasses, const Plan &plan,
                       const poplar::DebugContext &debugContext) {
  return ctc::createPlannedData(
      graph, type, batchSize, maxTime, numClasses,
      inferencePlan(plan, "ctc_infer::createDataInput"), debugContext,
      "ctc_infer::createDataInput");
}

namespace {

// One public operation: its debug record, the log softmax of logits, the
// decoding, the outputs recorded.
std::tuple<Tensor, Tensor, Tensor>
recordedDecode(poplar::Graph &graph, const Tensor &data, bool fromLogits,
               const Tensor &dataLengths, poplar::program::Sequence &prog,
               unsigned blankClass, unsigned beamwidth, unsigned topPaths,
               const Plan &plan, const poplar::DebugContext &debugContext,
               const poplar::OptionFlags &options, const std::string &api) {
  poputil::PoplibsOpDebugInfo di(debugContext,
                                 DI_ARGS(data, dataLengths, blankClass,
                                         beamwidth, topPaths, plan, options),
                                 api);
  const std::string opName = "ctc_infer::" + api;
  const Plan::Impl &p = inferencePlan(plan, opName);
  checkInputs(p, data, dataLengths, blankClass, beamwidth, topPaths, opName);
  const Tensor logProbs =
      fromLogits ? popnn::logSoftmax(graph, data, prog, {di, "logSoftmax"})
                 : data;
  auto result = decode(graph, logProbs, dataLengths, prog, blankClass,
                       beamwidth, topPaths, p, {di});
  di.addOutputs({{"labelProbs", poputil::toProfileValue(std::get<0>(result))},
                 {"labelLengths", poputil::toProfileValue(std::get<1>(result))},
                 {"decodedLabels",
                  poputil::toProfileValue(std::get<2>(result))}});
  return result;
}

} // namespace

std::tuple<Tensor, Tensor, Tensor> beamSearchDecoderLogProbabilities(
    poplar::Graph &graph, const Tensor &logProbs, const Tensor &dataLengths,
    poplar::program::Sequence &prog, unsigned blankClass, unsigned beamwidth,
    unsigned topPaths, const Plan &plan,
    const poplar::DebugContext &debugContext,
    const poplar::OptionFlags &options) {
  return recordedDecode(graph, logProbs, false, dataLengths, prog, blankClass,
                        beamwidth, topPaths, plan, debugContext, options,
                        "beamSearchDecoderLogProbabilities");
}

std::tuple<Tensor, Tensor, Tensor> beamSearchDecoderLogits(
    poplar::Graph &graph, const Tensor &logits, const Tensor &dataLengths,
    poplar::program::Sequence &prog, unsigned blankClass, unsigned beamwidth,
    unsigned topPaths, const Plan &plan,
    const poplar::DebugContext &debugContext,
    const poplar::OptionFlags &options) {
  return recordedDecode(graph, logits, true, dataLengths, prog, blankClass,
                        beamwidth, topPaths, plan, debugContext, options,
                        "beamSearchDecoderLogits");
}

} // namespace ctc_infer
} // namespace popnn
