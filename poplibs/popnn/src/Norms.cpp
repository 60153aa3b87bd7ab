#include <popnn/Norms.hpp>

#include "TileWork.hpp"

#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;

namespace popnn {
namespace {

Tensor createPerChannel(Graph &graph, const Tensor &acts, const Type &type,
                        const DebugContext &dc, const std::string &opName) {
  if (acts.rank() < 2)
    throw poputil::poplibs_error(opName + ": acts " + detail::describe(acts) +
                                 " must have at least two dimensions "
                                 "([batch][channels][field...])");
  Tensor t = graph.addVariable(type, {acts.dim(1)}, dc);
  poputil::mapTensorLinearly(graph, t);
  return t;
}

} // namespace

Tensor createNormGamma(Graph &graph, const Tensor &acts, const Type &type,
                       const DebugContext &debugContext) {
  return createPerChannel(graph, acts, type, {debugContext, "gamma"},
                          "popnn::createNormGamma");
}
Tensor createNormGamma(Graph &graph, const Tensor &acts,
                       const DebugContext &debugContext) {
  return createNormGamma(graph, acts, acts.elementType(), debugContext);
}
Tensor createNormBeta(Graph &graph, const Tensor &acts, const Type &type,
                      const DebugContext &debugContext) {
  return createPerChannel(graph, acts, type, {debugContext, "beta"},
                          "popnn::createNormBeta");
}
Tensor createNormBeta(Graph &graph, const Tensor &acts,
                      const DebugContext &debugContext) {
  return createNormBeta(graph, acts, acts.elementType(), debugContext);
}
std::pair<Tensor, Tensor> createNormParams(Graph &graph, const Tensor &acts,
                                           const DebugContext &debugContext) {
  return {createNormGamma(graph, acts, debugContext),
          createNormBeta(graph, acts, debugContext)};
}

} // namespace popnn
