// The floating-point behaviour of tiles (CSRFunctions.hpp): compute sets of
// Poplar's own vertices (codelet/FloatingPointVertices.cpp), one per tile,
// which the runtime applies after the compute set (runtime/VertexExecution).
#include "codelet/CodeletLibrary.hpp"
#include "graph/GraphImpl.hpp"

#include <poplar/CSRFunctions.hpp>
#include <poplar/detail/HalfBits.hpp>
#include <poplar/exceptions.hpp>

namespace poplar {
namespace {

constexpr std::uint64_t vertexCycles = 10;

std::uint32_t toBits(const FloatingPointBehaviour &b) {
  return (b.inv ? detail::fpInvalidException : 0u) |
         (b.div0 ? detail::fpDivideByZeroException : 0u) |
         (b.oflo ? detail::fpOverflowException : 0u) |
         (b.esr ? detail::fpStochasticRounding : 0u) |
         (b.nanoo ? detail::fpNanOnOverflow : 0u);
}

void addFloatingPointVertices(Graph &graph) {
  if (graph.getImpl().vertexTypeIndex.count(floatingPointVertexNames[0]))
    return;
  registerCodeletLibrary(
      graph.getImpl(),
      CodeletLibrary::builtin(floatingPointCodelets(), "<poplar built-in>"),
      "<poplar built-in>");
}

/// A vertex on every tile of the graph: `first` (given `firstField`
/// connected to `firstTensor`) on tile 0, `rest` on the others, each with
/// `field` connected to `input`.
void addToEveryTile(Graph &graph, program::Sequence &prog, const char *rest,
                    const Tensor &input, const char *field,
                    const DebugContext &dc, const char *first = nullptr,
                    const Tensor *output = nullptr) {
  addFloatingPointVertices(graph);
  ComputeSet cs = graph.addComputeSet({dc, "setFloatingPointBehaviour"});
  const unsigned numTiles = graph.getTarget().getNumTiles();
  for (unsigned tile = 0; tile != numTiles; ++tile) {
    const bool special = tile == 0 && first;
    VertexRef v = graph.addVertex(cs, special ? first : rest);
    graph.connect(v[field], input);
    if (special)
      graph.connect(v["previous"], *output);
    graph.setTileMapping(v, tile);
    graph.setPerfEstimate(v, vertexCycles);
  }
  prog.add(program::Execute(cs, dc));
}

Tensor masksConstant(Graph &graph, std::uint32_t clear, std::uint32_t set,
                     const DebugContext &dc) {
  const unsigned values[2] = {clear, set};
  Tensor masks = graph.addConstant<unsigned>(
      UNSIGNED_INT, {2}, ArrayRef<unsigned>(values, 2), {dc, "masks"});
  graph.setTileMapping(masks, 0);
  return masks;
}

} // namespace

void setFloatingPointBehaviour(Graph &graph, program::Sequence &prog,
                               const FloatingPointBehaviour &behaviour,
                               const DebugContext &debugContext) {
  Tensor masks = masksConstant(graph, detail::fpAllBehaviourBits,
                               toBits(behaviour), debugContext);
  addToEveryTile(graph, prog, floatingPointVertexNames[0], masks, "masks",
                 debugContext);
}

void setFloatingPointBehaviour(Graph &graph, program::Sequence &prog,
                               const Tensor &behaviour,
                               const DebugContext &debugContext) {
  if (behaviour.elementType() != UNSIGNED_INT || behaviour.numElements() != 1)
    throw poplar_error(
        "setFloatingPointBehaviour: the behaviour tensor '" +
        behaviour.getDebugStr() +
        "' must be the UNSIGNED_INT scalar getAndModifyFloatingPointBehaviour "
        "returns");
  addToEveryTile(graph, prog, floatingPointVertexNames[2],
                 behaviour.flatten()[0], "value", debugContext);
}

void setStochasticRounding(Graph &graph, program::Sequence &prog,
                           bool behaviour, const DebugContext &debugContext) {
  Tensor masks =
      masksConstant(graph, detail::fpStochasticRounding,
                    behaviour ? detail::fpStochasticRounding : 0u, debugContext);
  addToEveryTile(graph, prog, floatingPointVertexNames[0], masks, "masks",
                 debugContext);
}

Tensor getAndModifyFloatingPointBehaviour(Graph &graph, program::Sequence &prog,
                                          const FloatingPointBehaviour &clear,
                                          const FloatingPointBehaviour &set,
                                          const DebugContext &debugContext) {
  Tensor masks = masksConstant(graph, toBits(clear), toBits(set), debugContext);
  Tensor previous =
      graph.addVariable(UNSIGNED_INT, {}, {debugContext, "previousBehaviour"});
  graph.setTileMapping(previous, 0);
  addToEveryTile(graph, prog, floatingPointVertexNames[0], masks, "masks",
                 debugContext, floatingPointVertexNames[1], &previous);
  return previous;
}

} // namespace poplar
