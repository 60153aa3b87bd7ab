// popnn::in: instance normalisation, on the shared implementation of
// NormsCommon.cpp.
#include <popnn/InstanceNorm.hpp>

#include "NormsCommon.hpp"

using namespace poplar;
using namespace poplar::program;

namespace popnn {
namespace in {

std::pair<Tensor, Tensor> instanceNormStatistics(
    Graph &graph, const Tensor acts, float eps, Sequence &prog,
    bool unbiasedVarEstimate, bool stableAlgo,
    const Type &partialsType, const DebugContext &debugContext,
    const OptionFlags &options) {
  const std::string op = "popnn::in::instanceNormStatistics";
  DebugContext dc(debugContext, "instanceNormStatistics");
  return detail::normStatistics(graph, acts, eps, prog, unbiasedVarEstimate,
                                stableAlgo, partialsType, detail::groupLayout(acts, acts.rank() >= 2 ? acts.dim(1) : 0, nullptr, options, op), dc);
}

Tensor instanceNormWhiten(Graph &graph, const Tensor &acts, const Tensor &mean,
                 const Tensor &invStdDev, Sequence &prog,
                 const DebugContext &debugContext,
    const OptionFlags &options) {
  const std::string op = "popnn::in::instanceNormWhiten";
  DebugContext dc(debugContext, "instanceNormWhiten");
  return detail::normWhiten(graph, acts, mean, invStdDev, prog, detail::groupLayout(acts, acts.rank() >= 2 ? acts.dim(1) : 0, nullptr, options, op), dc);
}

std::pair<Tensor, Tensor> instanceNormalise(Graph &graph, const Tensor &acts,
                                  const Tensor &gamma, const Tensor &beta,
                                  const Tensor &mean, const Tensor &invStdDev,
                                  Sequence &prog,
                                  const DebugContext &debugContext,
    const OptionFlags &options) {
  const std::string op = "popnn::in::instanceNormalise";
  DebugContext dc(debugContext, "instanceNormalise");
  return detail::normalise(graph, acts, gamma, beta, mean, invStdDev, prog,
                           detail::groupLayout(acts, acts.rank() >= 2 ? acts.dim(1) : 0, nullptr, options, op), dc);
}

std::pair<Tensor, Tensor> instanceNormParamGradients(
    Graph &graph, const Tensor &acts, const Tensor &gradsIn, const Tensor &mean,
    const Tensor &iStdDev, Sequence &prog, const Type &partialsType,
    const DebugContext &debugContext,
    const OptionFlags &options) {
  DebugContext dc(debugContext, "instanceNormParamGradients");
  const Tensor whitened = instanceNormWhiten(graph, acts, mean, iStdDev, prog, dc, options);
  return detail::normParamGradients(graph, whitened, gradsIn, prog, partialsType,
                                    "popnn::in::instanceNormParamGradients", dc);
}

std::pair<Tensor, Tensor> instanceNormParamGradients(
    Graph &graph, const Tensor &actsWhitened, const Tensor &gradsIn,
    Sequence &prog, const Type &partialsType,
    const DebugContext &debugContext,
    const OptionFlags &options) {
  DebugContext dc(debugContext, "instanceNormParamGradients");
  return detail::normParamGradients(graph, actsWhitened, gradsIn, prog,
                                    partialsType,
                                    "popnn::in::instanceNormParamGradients", dc);
}

Tensor instanceNormGradients(Graph &graph, const Tensor &acts, const Tensor &gradsIn,
                    const Tensor &mean, const Tensor &invStdDev,
                    const Tensor &gamma, Sequence &prog,
                    const Type &partialsType,
                    const DebugContext &debugContext,
    const OptionFlags &options) {
  DebugContext dc(debugContext, "instanceNormGradients");
  const Tensor whitened = instanceNormWhiten(graph, acts, mean, invStdDev, prog, dc, options);
  return instanceNormGradients(graph, whitened, gradsIn, invStdDev, gamma, prog,
                      partialsType, dc, options);
}

Tensor instanceNormGradients(Graph &graph, const Tensor &actsWhitened,
                    const Tensor &gradsIn, const Tensor &invStdDev,
                    const Tensor &gamma, Sequence &prog,
                    const Type &partialsType,
                    const DebugContext &debugContext,
    const OptionFlags &options) {
  const std::string op = "popnn::in::instanceNormGradients";
  DebugContext dc(debugContext, "instanceNormGradients");
  return detail::normGradients(graph, actsWhitened, gradsIn, invStdDev, gamma,
                               prog, partialsType,
                               detail::groupLayout(actsWhitened, actsWhitened.rank() >= 2 ? actsWhitened.dim(1) : 0, nullptr, options, op), dc);
}

void instanceNormParamUpdate(Graph &graph, const Tensor &gammaDelta,
                    const Tensor &betaDelta, float scale, Tensor &gamma,
                    Tensor &beta, Sequence &prog,
                    const DebugContext &debugContext,
    const OptionFlags &options) {
  DebugContext dc(debugContext, "instanceNormParamUpdate");
  detail::normParamUpdate(graph, gammaDelta, betaDelta, nullptr, scale, gamma,
                          beta, prog, "popnn::in::instanceNormParamUpdate", dc);
}

void instanceNormParamUpdate(Graph &graph, const Tensor &gammaDelta,
                    const Tensor &betaDelta, const Tensor &scale, Tensor &gamma,
                    Tensor &beta, Sequence &prog,
                    const DebugContext &debugContext,
    const OptionFlags &options) {
  DebugContext dc(debugContext, "instanceNormParamUpdate");
  detail::normParamUpdate(graph, gammaDelta, betaDelta, &scale, 0.0f, gamma,
                          beta, prog, "popnn::in::instanceNormParamUpdate", dc);
}

} // namespace in
} // namespace popnn
