// getHwSeeds / setHwSeeds: the graph's random generator state, one small
// variable per top-level graph, created when first asked for.
#include <poplar/RandomSeed.hpp>

#include "graph/GraphImpl.hpp"

#include <poplar/exceptions.hpp>

#include <array>
#include <map>
#include <mutex>

namespace poplar {
namespace {

constexpr std::size_t stateWords = 4;
// The state of a new graph: a key from the digits of pi, counter 0.
constexpr std::array<unsigned, stateWords> initialState = {0x243F6A88u,
                                                           0x85A308D3u, 0u, 0u};

// The state variable of each graph, by the graph's process-unique id
// (virtual graphs share their top-level graph's id and state).
Tensor stateOf(Graph &graph) {
  static std::mutex mutex;
  static std::map<std::uint64_t, Tensor> states;
  const std::uint64_t id = graph.getImpl().id;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = states.find(id);
  if (it != states.end())
    return it->second;
  Graph top = graph.getTopLevelGraph();
  Tensor state =
      top.addVariable(UNSIGNED_INT, {stateWords}, {"poplar/hwSeeds"});
  top.setTileMapping(state, 0);
  top.setInitialValue(
      state, ArrayRef<unsigned>(initialState.data(), initialState.size()));
  graph.getImpl().variables.back().isHwSeedState = true;
  states.emplace(id, state);
  return state;
}

} // namespace

Tensor getHwSeeds(Graph &graph, program::Sequence &prog,
                  const DebugContext &debugContext) {
  const Tensor state = stateOf(graph);
  Tensor copy = graph.getTopLevelGraph().addVariable(UNSIGNED_INT, {stateWords},
                                                     {debugContext, "hwSeeds"});
  graph.getTopLevelGraph().setTileMapping(copy, 0);
  prog.add(program::Copy(state, copy, false, {debugContext, "getHwSeeds"}));
  return copy;
}

void setHwSeeds(Graph &graph, const Tensor &hwSeeds, program::Sequence &prog,
                const DebugContext &debugContext) {
  if (hwSeeds.elementType() != UNSIGNED_INT ||
      hwSeeds.numElements() != stateWords)
    throw tensor_creation_error(
        "setHwSeeds: tensor '" + hwSeeds.getDebugStr() +
        "' must hold 4 unsigned int words (from getHwSeeds), not " +
        std::to_string(hwSeeds.numElements()) + " of type " +
        hwSeeds.elementType().toString().str());
  graph.getImpl().checkOwnership(hwSeeds, "setHwSeeds");
  prog.add(program::Copy(hwSeeds.flatten(), stateOf(graph), false,
                         {debugContext, "setHwSeeds"}));
}

} // namespace poplar
