// multiconv: each convolution of the set through the single-convolution
// functions, with the call's options under each argument's own.
#include <poplin/MultiConvolution.hpp>

#include <poputil/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;

namespace poplin {
namespace multiconv {
namespace {

OptionFlags merged(const OptionFlags &common, const OptionFlags &own) {
  OptionFlags result = common;
  for (const auto &[key, value] : own)
    result.set(key, value);
  return result;
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
  return poplin::createWeights(graph, a.params, a.name,
                               merged(options, a.options), cache);
}

Tensor createInput(Graph &graph, const std::vector<CreateTensorArgs> &args,
                   unsigned inputIndex, const OptionFlags &options,
                   PlanningCache *cache) {
  const auto &a = argAt(args, inputIndex, "createInput");
  return poplin::createInput(graph, a.params, a.name,
                             merged(options, a.options), cache);
}

void weightsTransposeChansFlipXY(Graph &graph,
                                 std::vector<ConvolutionArgs> &args,
                                 const std::vector<Tensor> &weightsIn,
                                 Sequence &prog, const OptionFlags &,
                                 const DebugContext &debugContext,
                                 PlanningCache *) {
  if (weightsIn.size() != args.size())
    throw poputil::poplibs_error(
        "poplin::multiconv::weightsTransposeChansFlipXY: " +
        std::to_string(weightsIn.size()) + " weights for " +
        std::to_string(args.size()) + " convolutions");
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
  std::vector<Tensor> outs;
  for (std::size_t i = 0; i != args.size(); ++i)
    outs.push_back(poplin::convolution(
        graph, args[i].inputs, args[i].weights, args[i].params,
        transposeAndFlipWeights, prog, nth(debugContext, i),
        merged(options, args[i].options), cache));
  return outs;
}

std::vector<Tensor>
calculateWeightDeltas(Graph &graph,
                      const std::vector<CalculateWeightDeltasArgs> &args,
                      Sequence &prog, const DebugContext &debugContext,
                      const OptionFlags &options, PlanningCache *cache) {
  std::vector<Tensor> outs;
  for (std::size_t i = 0; i != args.size(); ++i)
    outs.push_back(poplin::calculateWeightDeltas(
        graph, args[i].zDeltas, args[i].activations, args[i].params, prog,
        nth(debugContext, i), merged(options, args[i].options), cache));
  return outs;
}

namespace {

template <class Args>
void weightUpdates(Graph &graph, const std::vector<Args> &args, Sequence &prog,
                   const DebugContext &debugContext, const OptionFlags &options,
                   PlanningCache *cache) {
  for (std::size_t i = 0; i != args.size(); ++i)
    poplin::convolutionWeightUpdate(graph, args[i].zDeltas, args[i].weights,
                                    args[i].activations, args[i].params,
                                    args[i].scale, prog, nth(debugContext, i),
                                    merged(options, args[i].options), cache);
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
