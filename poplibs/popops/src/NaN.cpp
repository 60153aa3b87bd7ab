// hasNaN and hasNaNOrInf: a fused map testing every element, then a
// LOGICAL_OR reduction to one BOOL.
#include <popops/ElementWise.hpp>
#include <popops/NaN.hpp>
#include <popops/Reduce.hpp>

#include "RowVertices.hpp"

#include <poputil/exceptions.hpp>

namespace popops {
namespace {

poplar::Tensor anyElement(poplar::Graph &graph, const poplar::Tensor &src,
                          const expr::Expr &test,
                          poplar::program::Sequence &prog,
                          const std::string &op) {
  const auto type = src.elementType();
  if (type != poplar::FLOAT && type != poplar::HALF)
    throw poputil::poplibs_error(op + ": tensor '" + src.getDebugStr() +
                                 "' has type " + type.toString().str() +
                                 "; only float and half are supported");
  if (src.numElements() == 0) {
    // Nothing to test: false, in a tensor the caller may write.
    poplar::Tensor result = graph.addVariable(poplar::BOOL, {}, {op});
    graph.setTileMapping(result, 0);
    poplar::Tensor no = graph.addConstant(poplar::BOOL, {}, false, {op + "/no"});
    graph.setTileMapping(no, 0);
    prog.add(poplar::program::Copy(no, result));
    return result;
  }
  const poplar::Tensor flags = map(graph, test, {src.flatten()}, prog, {op});
  return reduce(graph, flags, poplar::BOOL, {0},
                ReduceParams(Operation::LOGICAL_OR), prog, {op});
}

} // namespace

poplar::Tensor hasNaN(poplar::Graph &graph, const poplar::Tensor &src,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext) {
  return anyElement(graph, src, expr::IsNaN(expr::_1), prog,
                    opName(debugContext, "hasNaN"));
}

poplar::Tensor hasNaNOrInf(poplar::Graph &graph, const poplar::Tensor &src,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext) {
  return anyElement(graph, src, expr::Not(expr::IsFinite(expr::_1)), prog,
                    opName(debugContext, "hasNaNOrInf"));
}

} // namespace popops
