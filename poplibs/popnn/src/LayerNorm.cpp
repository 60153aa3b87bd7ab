// popnn::ln: layer normalisation, on the shared implementation of
// NormsCommon.cpp.
#include <popnn/LayerNorm.hpp>

#include "NormsCommon.hpp"

using namespace poplar;
using namespace poplar::program;

namespace popnn {
namespace ln {

std::pair<Tensor, Tensor> layerNormStatistics(
    Graph &graph, const Tensor acts, float eps, Sequence &prog,
    bool unbiasedVarEstimate, bool stableAlgo,
    const Type &partialsType, const DebugContext &debugContext,
    const OptionFlags &options) {
  const std::string op = "popnn::ln::layerNormStatistics";
  DebugContext dc(debugContext, "layerNormStatistics");
  return detail::normStatistics(graph, acts, eps, prog, unbiasedVarEstimate,
                                stableAlgo, partialsType, detail::groupLayout(acts, 1, nullptr, options, op), dc);
}

Tensor layerNormWhiten(Graph &graph, const Tensor &acts, const Tensor &mean,
                 const Tensor &invStdDev, Sequence &prog,
                 const DebugContext &debugContext,
    const OptionFlags &options) {
  const std::string op = "popnn::ln::layerNormWhiten";
  DebugContext dc(debugContext, "layerNormWhiten");
  return detail::normWhiten(graph, acts, mean, invStdDev, prog, detail::groupLayout(acts, 1, nullptr, options, op), dc);
}

std::pair<Tensor, Tensor> layerNormalise(Graph &graph, const Tensor &acts,
                                  const Tensor &gamma, const Tensor &beta,
                                  const Tensor &mean, const Tensor &invStdDev,
                                  Sequence &prog,
                                  const DebugContext &debugContext,
    const OptionFlags &options) {
  const std::string op = "popnn::ln::layerNormalise";
  DebugContext dc(debugContext, "layerNormalise");
  return detail::normalise(graph, acts, gamma, beta, mean, invStdDev, prog,
                           detail::groupLayout(acts, 1, nullptr, options, op), dc);
}

std::pair<Tensor, Tensor> layerNormParamGradients(
    Graph &graph, const Tensor &acts, const Tensor &gradsIn, const Tensor &mean,
    const Tensor &iStdDev, Sequence &prog, const Type &partialsType,
    const DebugContext &debugContext,
    const OptionFlags &options) {
  DebugContext dc(debugContext, "layerNormParamGradients");
  const Tensor whitened = layerNormWhiten(graph, acts, mean, iStdDev, prog, dc, options);
  return detail::normParamGradients(graph, whitened, gradsIn, prog, partialsType,
                                    "popnn::ln::layerNormParamGradients", dc);
}

std::pair<Tensor, Tensor> layerNormParamGradients(
    Graph &graph, const Tensor &actsWhitened, const Tensor &gradsIn,
    Sequence &prog, const Type &partialsType,
    const DebugContext &debugContext,
    const OptionFlags &options) {
  DebugContext dc(debugContext, "layerNormParamGradients");
  return detail::normParamGradients(graph, actsWhitened, gradsIn, prog,
                                    partialsType,
                                    "popnn::ln::layerNormParamGradients", dc);
}

Tensor layerNormGradients(Graph &graph, const Tensor &acts, const Tensor &gradsIn,
                    const Tensor &mean, const Tensor &invStdDev,
                    const Tensor &gamma, Sequence &prog,
                    const Type &partialsType,
                    const DebugContext &debugContext,
    const OptionFlags &options) {
  DebugContext dc(debugContext, "layerNormGradients");
  const Tensor whitened = layerNormWhiten(graph, acts, mean, invStdDev, prog, dc, options);
  return layerNormGradients(graph, whitened, gradsIn, invStdDev, gamma, prog,
                      partialsType, dc, options);
}

Tensor layerNormGradients(Graph &graph, const Tensor &actsWhitened,
                    const Tensor &gradsIn, const Tensor &invStdDev,
                    const Tensor &gamma, Sequence &prog,
                    const Type &partialsType,
                    const DebugContext &debugContext,
    const OptionFlags &options) {
  const std::string op = "popnn::ln::layerNormGradients";
  DebugContext dc(debugContext, "layerNormGradients");
  return detail::normGradients(graph, actsWhitened, gradsIn, invStdDev, gamma,
                               prog, partialsType,
                               detail::groupLayout(actsWhitened, 1, nullptr, options, op), dc);
}

void layerNormParamUpdate(Graph &graph, const Tensor &gammaDelta,
                    const Tensor &betaDelta, float scale, Tensor &gamma,
                    Tensor &beta, Sequence &prog,
                    const DebugContext &debugContext,
    const OptionFlags &options) {
  DebugContext dc(debugContext, "layerNormParamUpdate");
  detail::normParamUpdate(graph, gammaDelta, betaDelta, nullptr, scale, gamma,
                          beta, prog, "popnn::ln::layerNormParamUpdate", dc);
}

void layerNormParamUpdate(Graph &graph, const Tensor &gammaDelta,
                    const Tensor &betaDelta, const Tensor &scale, Tensor &gamma,
                    Tensor &beta, Sequence &prog,
                    const DebugContext &debugContext,
    const OptionFlags &options) {
  DebugContext dc(debugContext, "layerNormParamUpdate");
  detail::normParamUpdate(graph, gammaDelta, betaDelta, &scale, 0.0f, gamma,
                          beta, prog, "popnn::ln::layerNormParamUpdate", dc);
}

} // namespace ln
} // namespace popnn
