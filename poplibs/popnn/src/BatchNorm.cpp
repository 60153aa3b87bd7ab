// popnn::bn: batch normalisation, on the shared implementation of
// NormsCommon.cpp.
#include <popnn/BatchNorm.hpp>

#include "NormsCommon.hpp"

using namespace poplar;
using namespace poplar::program;

namespace popnn {
namespace bn {

std::pair<Tensor, Tensor> batchNormStatistics(
    Graph &graph, const Tensor acts, float eps, Sequence &prog,
    bool unbiasedVarEstimate, bool stableAlgo,
    const Type &partialsType, const DebugContext &debugContext) {
  const std::string op = "popnn::bn::batchNormStatistics";
  DebugContext dc(debugContext, "batchNormStatistics");
  return detail::normStatistics(graph, acts, eps, prog, unbiasedVarEstimate,
                                stableAlgo, partialsType, detail::batchLayout(op), dc);
}

Tensor batchNormWhiten(Graph &graph, const Tensor &acts, const Tensor &mean,
                 const Tensor &invStdDev, Sequence &prog,
                 const DebugContext &debugContext) {
  const std::string op = "popnn::bn::batchNormWhiten";
  DebugContext dc(debugContext, "batchNormWhiten");
  return detail::normWhiten(graph, acts, mean, invStdDev, prog, detail::batchLayout(op), dc);
}

std::pair<Tensor, Tensor> batchNormalise(Graph &graph, const Tensor &acts,
                                  const Tensor &gamma, const Tensor &beta,
                                  const Tensor &mean, const Tensor &invStdDev,
                                  Sequence &prog,
                                  const DebugContext &debugContext) {
  const std::string op = "popnn::bn::batchNormalise";
  DebugContext dc(debugContext, "batchNormalise");
  return detail::normalise(graph, acts, gamma, beta, mean, invStdDev, prog,
                           detail::batchLayout(op), dc);
}

Tensor batchNormalise(Graph &graph, const Tensor &acts,
                      const Tensor &combinedMultiplicand, const Tensor &addend,
                      Sequence &prog, const DebugContext &debugContext) {
  DebugContext dc(debugContext, "batchNormalise");
  return detail::scaleAndShift(graph, acts, combinedMultiplicand, addend, prog,
                               "popnn::bn::batchNormalise", dc);
}

std::pair<Tensor, Tensor> batchNormParamGradients(
    Graph &graph, const Tensor &acts, const Tensor &gradsIn, const Tensor &mean,
    const Tensor &iStdDev, Sequence &prog, const Type &partialsType,
    const DebugContext &debugContext) {
  DebugContext dc(debugContext, "batchNormParamGradients");
  const Tensor whitened = batchNormWhiten(graph, acts, mean, iStdDev, prog, dc);
  return detail::normParamGradients(graph, whitened, gradsIn, prog, partialsType,
                                    "popnn::bn::batchNormParamGradients", dc);
}

std::pair<Tensor, Tensor> batchNormParamGradients(
    Graph &graph, const Tensor &actsWhitened, const Tensor &gradsIn,
    Sequence &prog, const Type &partialsType,
    const DebugContext &debugContext) {
  DebugContext dc(debugContext, "batchNormParamGradients");
  return detail::normParamGradients(graph, actsWhitened, gradsIn, prog,
                                    partialsType,
                                    "popnn::bn::batchNormParamGradients", dc);
}

Tensor batchNormGradients(Graph &graph, const Tensor &acts, const Tensor &gradsIn,
                    const Tensor &mean, const Tensor &invStdDev,
                    const Tensor &gamma, Sequence &prog,
                    const Type &partialsType,
                    const DebugContext &debugContext) {
  DebugContext dc(debugContext, "batchNormGradients");
  const Tensor whitened = batchNormWhiten(graph, acts, mean, invStdDev, prog, dc);
  return batchNormGradients(graph, whitened, gradsIn, invStdDev, gamma, prog,
                      partialsType, dc);
}

Tensor batchNormGradients(Graph &graph, const Tensor &actsWhitened,
                    const Tensor &gradsIn, const Tensor &invStdDev,
                    const Tensor &gamma, Sequence &prog,
                    const Type &partialsType,
                    const DebugContext &debugContext) {
  const std::string op = "popnn::bn::batchNormGradients";
  DebugContext dc(debugContext, "batchNormGradients");
  return detail::normGradients(graph, actsWhitened, gradsIn, invStdDev, gamma,
                               prog, partialsType,
                               detail::batchLayout(op), dc);
}

void batchNormParamUpdate(Graph &graph, const Tensor &gammaDelta,
                    const Tensor &betaDelta, float scale, Tensor &gamma,
                    Tensor &beta, Sequence &prog,
                    const DebugContext &debugContext) {
  DebugContext dc(debugContext, "batchNormParamUpdate");
  detail::normParamUpdate(graph, gammaDelta, betaDelta, nullptr, scale, gamma,
                          beta, prog, "popnn::bn::batchNormParamUpdate", dc);
}

void batchNormParamUpdate(Graph &graph, const Tensor &gammaDelta,
                    const Tensor &betaDelta, const Tensor &scale, Tensor &gamma,
                    Tensor &beta, Sequence &prog,
                    const DebugContext &debugContext) {
  DebugContext dc(debugContext, "batchNormParamUpdate");
  detail::normParamUpdate(graph, gammaDelta, betaDelta, &scale, 0.0f, gamma,
                          beta, prog, "popnn::bn::batchNormParamUpdate", dc);
}

} // namespace bn
} // namespace popnn
