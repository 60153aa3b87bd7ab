#include <popops/Cast.hpp>

#include "ElementwiseVertices.hpp"
#include "ExprOpInfo.hpp"

#include <poputil/Util.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;

namespace popops {
namespace {

const char *const castName = "popops::cast";

void checkCastTypes(const Tensor &src, const Type &dstType) {
  for (const Type &t : {src.elementType(), dstType})
    if (!detail::isCastType(t))
      throw poputil::poplibs_error(
          std::string(castName) + ": cannot cast tensor '" + src.getDebugStr() +
          "' from " + src.elementType().toString().str() + " to " +
          dstType.toString().str() + " (casts support " +
          detail::typeList(detail::castTypes()) + ")");
}

void checkDestination(const Tensor &src, const Tensor &dst) {
  checkCastTypes(src, dst.elementType());
  if (src.shape() != dst.shape())
    throw poputil::poplibs_error(
        std::string(castName) + ": tensor '" + src.getDebugStr() + "' of " +
        std::to_string(src.numElements()) +
        " elements cannot be cast into tensor '" + dst.getDebugStr() +
        "' of another shape (" + src.shapeToString() + " and " +
        dst.shapeToString() + ")");
  if (!dst.isParallelWriteable())
    throw poputil::poplibs_error(
        std::string(castName) + ": the destination tensor '" +
        dst.getDebugStr() +
        "' cannot be written in parallel (it is a constant or refers to some "
        "elements more than once)");
}

} // namespace

void cast(Graph &graph, Tensor src, Tensor dst, ComputeSet cs) {
  checkDestination(src, dst);
  if (src.intersectsWith(dst) &&
      !(src.elementType() == dst.elementType() && src == dst))
    throw poputil::poplibs_error(
        std::string(castName) + ": tensors '" + src.getDebugStr() + "' and '" +
        dst.getDebugStr() +
        "' share elements, which one compute set cannot cast");
  // In the destination's storage order, so that its regions stay long.
  graph.reorderToSimplify(&dst, {&src}, false);
  detail::addCastVertices(graph, cs, src, dst, castName);
}

Tensor cast(Graph &graph, Tensor src, const Type &dstType, ComputeSet cs,
            const DebugContext &debugContext) {
  checkCastTypes(src, dstType);
  Tensor dst = graph.clone(dstType, src, {debugContext, "cast"});
  cast(graph, src, dst, cs);
  return dst;
}

void castWithOutput(Graph &graph, const Tensor &src, const Tensor &dst,
                    Sequence &prog, const DebugContext &debugContext) {
  const DebugContext dc(debugContext, "cast");
  checkDestination(src, dst);
  if (src.elementType() == dst.elementType()) {
    if (!(src == dst))
      prog.add(Copy(src, dst, false, dc));
    return;
  }
  Tensor from = src;
  if (from.intersectsWith(dst))
    from = poputil::duplicate(graph, src, prog, {dc, "source"});
  const ComputeSet cs = graph.addComputeSet(dc);
  cast(graph, from, dst, cs);
  prog.add(Execute(cs, dc));
}

Tensor cast(Graph &graph, const Tensor &src, const Type &dstType,
            Sequence &prog, const DebugContext &debugContext) {
  checkCastTypes(src, dstType);
  Tensor dst = graph.clone(dstType, src, {debugContext, "cast"});
  castWithOutput(graph, src, dst, prog, debugContext);
  return dst;
}

Program cast(Graph &graph, Tensor src, Tensor dst,
             const DebugContext &debugContext) {
  Sequence prog(debugContext);
  castWithOutput(graph, src, dst, prog, debugContext);
  return prog;
}

} // namespace popops
