// iota: Iota2D vertices where the tensor's elements are, each region given
// the value of its first element.
#include <popops/Encoding.hpp>

#include "CycleEstimates.hpp"
#include "TileRegions.hpp"

#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <cstdint>

using namespace poplar;
using namespace poplar::program;

namespace popops {
namespace {

template <class T>
void iotaImpl(Graph &graph, const Tensor &t, T start, const Type &type,
              Sequence &prog, const DebugContext &debugContext) {
  const std::string what = "popops::iota";
  if (t.rank() != 1)
    throw poputil::poplibs_error(what + ": tensor '" + t.getDebugStr() +
                                 "' must have rank 1, not " +
                                 std::to_string(t.rank()));
  if (t.elementType() != type)
    throw poputil::poplibs_error(
        what + ": tensor '" + t.getDebugStr() + "' has type " +
        t.elementType().toString().str() + " but a start of type " +
        type.toString().str() + " needs a tensor of that type");
  if (!t.isParallelWriteable())
    throw poputil::poplibs_error(
        what + ": tensor '" + t.getDebugStr() +
        "' cannot be written in parallel (it is a constant or refers to some "
        "elements more than once)");
  const DebugContext dc(debugContext, "iota");
  const ComputeSet cs = graph.addComputeSet(dc);
  const std::string vertexType =
      poputil::templateVertex("popops::Iota2D", type);
  const Target &target = graph.getTarget();
  detail::forEachVertexGroup(
      graph, t, what, [&](unsigned tile, const std::vector<Interval> &regions) {
        VertexRef v = graph.addVertex(cs, vertexType);
        graph.connect(v["out"], detail::regionSlices(t, regions));
        std::vector<T> offsets;
        for (const auto &r : regions)
          offsets.push_back(
              static_cast<T>(static_cast<std::uint64_t>(start) + r.begin()));
        graph.setInitialValue(v["offsets"], ArrayRef<T>(offsets));
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(
            v, detail::multiVertexCycles(target, detail::regionSizes(regions),
                                         detail::iotaCost()));
      });
  prog.add(Execute(cs, dc));
}

} // namespace

void iota(Graph &graph, const Tensor &t, unsigned startInteger, Sequence &prog,
          const DebugContext &debugContext) {
  iotaImpl(graph, t, startInteger, UNSIGNED_INT, prog, debugContext);
}

void iota(Graph &graph, const Tensor &t, int startInteger, Sequence &prog,
          const DebugContext &debugContext) {
  iotaImpl(graph, t, startInteger, INT, prog, debugContext);
}

} // namespace popops
