// popnn::gn: group normalisation, on the shared implementation of
// NormsCommon.cpp.
#include <popnn/GroupNorm.hpp>

#include "NormsCommon.hpp"

using namespace poplar;
using namespace poplar::program;

namespace popnn {
namespace gn {

std::pair<Tensor, Tensor> groupNormStatistics(
    Graph &graph, const Tensor acts, float eps, Sequence &prog,
    unsigned numGroups, bool unbiasedVarEstimate, bool stableAlgo,
    const Type &partialsType, const DebugContext &debugContext,
    const OptionFlags &options) {
  const std::string op = "popnn::gn::groupNormStatistics";
  DebugContext dc(debugContext, "groupNormStatistics");
  return detail::normStatistics(graph, acts, eps, prog, unbiasedVarEstimate,
                                stableAlgo, partialsType, detail::groupLayout(acts, numGroups, nullptr, options, op), dc);
}

Tensor groupNormWhiten(Graph &graph, const Tensor &acts, const Tensor &mean,
                 const Tensor &invStdDev, Sequence &prog,
                 const DebugContext &debugContext,
    const OptionFlags &options) {
  const std::string op = "popnn::gn::groupNormWhiten";
  DebugContext dc(debugContext, "groupNormWhiten");
  return detail::normWhiten(graph, acts, mean, invStdDev, prog, detail::groupLayout(acts, 0, &mean, options, op), dc);
}

std::pair<Tensor, Tensor> groupNormalise(Graph &graph, const Tensor &acts,
                                  const Tensor &gamma, const Tensor &beta,
                                  const Tensor &mean, const Tensor &invStdDev,
                                  Sequence &prog,
                                  const DebugContext &debugContext,
    const OptionFlags &options) {
  const std::string op = "popnn::gn::groupNormalise";
  DebugContext dc(debugContext, "groupNormalise");
  return detail::normalise(graph, acts, gamma, beta, mean, invStdDev, prog,
                           detail::groupLayout(acts, 0, &mean, options, op), dc);
}

std::pair<Tensor, Tensor> groupNormParamGradients(
    Graph &graph, const Tensor &acts, const Tensor &gradsIn, const Tensor &mean,
    const Tensor &iStdDev, Sequence &prog, const Type &partialsType,
    const DebugContext &debugContext,
    const OptionFlags &options) {
  DebugContext dc(debugContext, "groupNormParamGradients");
  const Tensor whitened = groupNormWhiten(graph, acts, mean, iStdDev, prog, dc, options);
  return detail::normParamGradients(graph, whitened, gradsIn, prog, partialsType,
                                    "popnn::gn::groupNormParamGradients", dc);
}

std::pair<Tensor, Tensor> groupNormParamGradients(
    Graph &graph, const Tensor &actsWhitened, const Tensor &gradsIn,
    Sequence &prog, const Type &partialsType,
    const DebugContext &debugContext,
    const OptionFlags &options) {
  DebugContext dc(debugContext, "groupNormParamGradients");
  return detail::normParamGradients(graph, actsWhitened, gradsIn, prog,
                                    partialsType,
                                    "popnn::gn::groupNormParamGradients", dc);
}

Tensor groupNormGradients(Graph &graph, const Tensor &acts, const Tensor &gradsIn,
                    const Tensor &mean, const Tensor &invStdDev,
                    const Tensor &gamma, Sequence &prog,
                    const Type &partialsType,
                    const DebugContext &debugContext,
    const OptionFlags &options) {
  DebugContext dc(debugContext, "groupNormGradients");
  const Tensor whitened = groupNormWhiten(graph, acts, mean, invStdDev, prog, dc, options);
  return groupNormGradients(graph, whitened, gradsIn, invStdDev, gamma, prog,
                      partialsType, dc, options);
}

Tensor groupNormGradients(Graph &graph, const Tensor &actsWhitened,
                    const Tensor &gradsIn, const Tensor &invStdDev,
                    const Tensor &gamma, Sequence &prog,
                    const Type &partialsType,
                    const DebugContext &debugContext,
    const OptionFlags &options) {
  const std::string op = "popnn::gn::groupNormGradients";
  DebugContext dc(debugContext, "groupNormGradients");
  return detail::normGradients(graph, actsWhitened, gradsIn, invStdDev, gamma,
                               prog, partialsType,
                               detail::groupLayout(actsWhitened, 0, &invStdDev, options, op), dc);
}

void groupNormParamUpdate(Graph &graph, const Tensor &gammaDelta,
                    const Tensor &betaDelta, float scale, Tensor &gamma,
                    Tensor &beta, Sequence &prog,
                    const DebugContext &debugContext,
    const OptionFlags &options) {
  DebugContext dc(debugContext, "groupNormParamUpdate");
  detail::normParamUpdate(graph, gammaDelta, betaDelta, nullptr, scale, gamma,
                          beta, prog, "popnn::gn::groupNormParamUpdate", dc);
}

void groupNormParamUpdate(Graph &graph, const Tensor &gammaDelta,
                    const Tensor &betaDelta, const Tensor &scale, Tensor &gamma,
                    Tensor &beta, Sequence &prog,
                    const DebugContext &debugContext,
    const OptionFlags &options) {
  DebugContext dc(debugContext, "groupNormParamUpdate");
  detail::normParamUpdate(graph, gammaDelta, betaDelta, &scale, 0.0f, gamma,
                          beta, prog, "popnn::gn::groupNormParamUpdate", dc);
}

} // namespace gn
} // namespace popnn
