// popnn's normalisation parameters are poplin's (poplin/Norms.hpp).
#include <popnn/Norms.hpp>

#include <poplin/Norms.hpp>

using namespace poplar;

namespace popnn {

Tensor createNormGamma(Graph &graph, const Tensor &acts, const Type &type,
                       const DebugContext &debugContext) {
  return poplin::createNormGamma(graph, acts, type, debugContext);
}
Tensor createNormGamma(Graph &graph, const Tensor &acts,
                       const DebugContext &debugContext) {
  return poplin::createNormGamma(graph, acts, debugContext);
}
Tensor createNormBeta(Graph &graph, const Tensor &acts, const Type &type,
                      const DebugContext &debugContext) {
  return poplin::createNormBeta(graph, acts, type, debugContext);
}
Tensor createNormBeta(Graph &graph, const Tensor &acts,
                      const DebugContext &debugContext) {
  return poplin::createNormBeta(graph, acts, debugContext);
}
std::pair<Tensor, Tensor> createNormParams(Graph &graph, const Tensor &acts,
                                           const DebugContext &debugContext) {
  return poplin::createNormParams(graph, acts, debugContext);
}

} // namespace popnn
