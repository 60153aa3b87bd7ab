#include <popops/AllTrue.hpp>
#include <popops/Reduce.hpp>

#include "RowVertices.hpp"

#include <poputil/exceptions.hpp>

namespace popops {

poplar::Tensor allTrue(poplar::Graph &graph, poplar::Tensor A,
                       poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "allTrue");
  if (A.elementType() != poplar::BOOL)
    throw poputil::poplibs_error(op + ": tensor '" + A.getDebugStr() +
                                 "' has type " +
                                 A.elementType().toString().str() +
                                 "; allTrue needs bool");
  return reduce(graph, A.flatten(), poplar::BOOL, {0},
                ReduceParams(Operation::LOGICAL_AND), prog, {op});
}

} // namespace popops
