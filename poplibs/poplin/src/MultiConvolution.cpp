// multiconv: each convolution of the set through the single-convolution
// functions with its own options; the call's options are the original's
// multi-plan options (planType, perConvReservedTiles, cycleBackOff).
#include <poplin/MultiConvolution.hpp>

#include <poplibs_support/logging.hpp>
#include <poputil/OptionParsing.hpp>
#include <poputil/exceptions.hpp>

#include <atomic>
#include <map>

using namespace poplar;
using namespace poplar::program;

namespace poplin {
namespace multiconv {
namespace {

enum class MultiPlanType { PARALLEL, SERIAL };

// The options of the call as a whole. A parallel plan (each convolution on
// its own tiles, all in the same compute sets) is not made here: every
// plan is the serial one, which is also what the original falls back to
// when it finds no parallel plan. perConvReservedTiles and cycleBackOff
// shape only the parallel plan: given, they are logged as having no
// effect.
struct MultiPlanOptions {
  MultiPlanType planType = MultiPlanType::PARALLEL;
  unsigned perConvReservedTiles = 50;
  double cycleBackOff = 0.1;
  bool parallelParametersGiven = false;

  MultiPlanOptions(const OptionFlags &options, std::size_t numConvs) {
    using poplibs::OptionHandler;
    const poplibs::OptionSpec spec{
        {"planType",
         OptionHandler::createWithEnum(
             planType, std::map<std::string, MultiPlanType>{
                           {"parallel", MultiPlanType::PARALLEL},
                           {"serial", MultiPlanType::SERIAL}})},
        {"perConvReservedTiles",
         OptionHandler::createWithInteger(perConvReservedTiles)},
        {"cycleBackOff", OptionHandler::createWithDouble(cycleBackOff)}};
    for (const auto &[key, value] : options) {
      spec.parse(key, value);
      parallelParametersGiven |= key != "planType";
    }
    if ((planType == MultiPlanType::PARALLEL && numConvs > 1) ||
        parallelParametersGiven)
      logParallelFallbackOnce();
  }

  void logParallelFallbackOnce() const {
    static std::atomic<bool> logged{false};
    if (logged.exchange(true))
      return;
    if (parallelParametersGiven)
      poplibs_support::logging::poplin::warn(
          "poplin::multiconv: no parallel multi-plan is made here; the "
          "convolutions are planned and run one after the other, so "
          "perConvReservedTiles ({}) and cycleBackOff ({}) have no effect",
          perConvReservedTiles, cycleBackOff);
    else
      poplibs_support::logging::poplin::info(
          "poplin::multiconv: no parallel multi-plan is made here; the "
          "convolutions are planned and run one after the other");
  }
};

template <class Args>
void checkOptions(const std::vector<Args> &args, const OptionFlags &options) {
  const MultiPlanOptions parsed(options, args.size());
  (void)parsed;
}

template <class Args>
const Args &argAt(const std::vector<Args> &args, unsigned index,
                  const char *op) {
  if (index >= args.size())
    throw poputil::poplibs_error(std::string("poplin::multiconv::") + op +
                                 ": index " + std::to_string(index) +
                                 " is out of range for " +
                                 std::to_string(args.size()) + " convolutions");
  return args[index];
}

DebugContext nth(const DebugContext &dc, std::size_t i) {
  return DebugContext(dc, "conv" + std::to_string(i));
}

} // namespace

Tensor createWeights(Graph &graph, const std::vector<CreateTensorArgs> &args,
                     unsigned weightsIndex, const OptionFlags &options,
                     PlanningCache *cache) {
  const auto &a = argAt(args, weightsIndex, "createWeights");
  checkOptions(args, options);
  return poplin::createWeights(graph, a.params, a.name,
                               a.options, cache);
}

Tensor createInput(Graph &graph, const std::vector<CreateTensorArgs> &args,
                   unsigned inputIndex, const OptionFlags &options,
                   PlanningCache *cache) {
  const auto &a = argAt(args, inputIndex, "createInput");
  checkOptions(args, options);
  return poplin::createInput(graph, a.params, a.name,
                             a.options, cache);
}

void weightsTransposeChansFlipXY(Graph &graph,
                                 std::vector<ConvolutionArgs> &args,
                                 const std::vector<Tensor> &weightsIn,
                                 Sequence &prog, const OptionFlags &options,
                                 const DebugContext &debugContext,
                                 PlanningCache *) {
  if (weightsIn.size() != args.size())
    throw poputil::poplibs_error(
        "poplin::multiconv::weightsTransposeChansFlipXY: " +
        std::to_string(weightsIn.size()) + " weights for " +
        std::to_string(args.size()) + " convolutions");
  checkOptions(args, options);
  for (std::size_t i = 0; i != args.size(); ++i)
    poplin::weightsTransposeChansFlipXY(graph, weightsIn[i], args[i].weights,
                                        prog, nth(debugContext, i));
}

std::vector<Tensor> convolution(Graph &graph,
                                const std::vector<ConvolutionArgs> &args,
                                bool transposeAndFlipWeights, Sequence &prog,
                                const DebugContext &debugContext,
                                const OptionFlags &options,
                                PlanningCache *cache) {
  checkOptions(args, options);
  std::vector<Tensor> outs;
  for (std::size_t i = 0; i != args.size(); ++i)
    outs.push_back(poplin::convolution(
        graph, args[i].inputs, args[i].weights, args[i].params,
        transposeAndFlipWeights, prog, nth(debugContext, i),
        args[i].options, cache));
  return outs;
}

std::vector<Tensor>
calculateWeightDeltas(Graph &graph,
                      const std::vector<CalculateWeightDeltasArgs> &args,
                      Sequence &prog, const DebugContext &debugContext,
                      const OptionFlags &options, PlanningCache *cache) {
  checkOptions(args, options);
  std::vector<Tensor> outs;
  for (std::size_t i = 0; i != args.size(); ++i)
    outs.push_back(poplin::calculateWeightDeltas(
        graph, args[i].zDeltas, args[i].activations, args[i].params, prog,
        nth(debugContext, i), args[i].options, cache));
  return outs;
}

namespace {

template <class Args>
void weightUpdates(Graph &graph, const std::vector<Args> &args, Sequence &prog,
                   const DebugContext &debugContext, const OptionFlags &options,
                   PlanningCache *cache) {
  checkOptions(args, options);
  for (std::size_t i = 0; i != args.size(); ++i)
    poplin::convolutionWeightUpdate(graph, args[i].zDeltas, args[i].weights,
                                    args[i].activations, args[i].params,
                                    args[i].scale, prog, nth(debugContext, i),
                                    args[i].options, cache);
}

} // namespace

void convolutionWeightUpdate(Graph &graph,
                             const std::vector<ConvWeightUpdateArgs> &args,
                             Sequence &prog, const DebugContext &debugContext,
                             const OptionFlags &options, PlanningCache *cache) {
  weightUpdates(graph, args, prog, debugContext, options, cache);
}

void convolutionWeightUpdate(
    Graph &graph, const std::vector<ConvWeightUpdateArgsScalar> &args,
    Sequence &prog, const DebugContext &debugContext,
    const OptionFlags &options, PlanningCache *cache) {
  weightUpdates(graph, args, prog, debugContext, options, cache);
}

} // namespace multiconv
} // namespace poplin
