// getHwSeeds / setHwSeeds: a new graph's state, a state set and read back,
// virtual graphs sharing their top-level graph's state, and the errors.
#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/RandomSeed.hpp>
#include <poplar/exceptions.hpp>

#include <catch2/catch.hpp>

#include <vector>

using namespace poplar;

TEST_CASE("getHwSeeds and setHwSeeds", "[poplar][seeds]") {
  Device device = sdktest::createTestDevice(4);
  Graph graph(device.getTarget());
  program::Sequence prog;
  const Tensor initial = getHwSeeds(graph, prog, "initial");
  CHECK(initial.shape() == std::vector<std::size_t>{4});
  CHECK(initial.elementType() == UNSIGNED_INT);
  Tensor mine = graph.addVariable(UNSIGNED_INT, {4}, "mine");
  graph.setTileMapping(mine, 0);
  graph.createHostWrite("mine", mine);
  setHwSeeds(graph, mine, prog);
  // A virtual graph sees the state its top-level graph set.
  Graph virt = graph.createVirtualGraph(0, 1);
  const Tensor after = getHwSeeds(virt, prog, "after");
  graph.createHostRead("initial", initial);
  graph.createHostRead("after", after);
  Engine engine(graph, prog);
  engine.load(device);
  const std::vector<unsigned> words{1, 2, 3, 4};
  engine.writeTensor("mine", words.data(), words.data() + 4);
  engine.run();
  std::vector<unsigned> got(4);
  engine.readTensor("initial", got.data(), got.data() + 4);
  CHECK(got == std::vector<unsigned>{0x243F6A88u, 0x85A308D3u, 0u, 0u});
  engine.readTensor("after", got.data(), got.data() + 4);
  CHECK(got == words);

  Tensor wrong = graph.addVariable(INT, {4}, "wrong");
  CHECK_THROWS_AS(setHwSeeds(graph, wrong, prog), tensor_creation_error);
  Tensor shortSeeds = graph.addVariable(UNSIGNED_INT, {3}, "short");
  CHECK_THROWS_WITH(setHwSeeds(graph, shortSeeds, prog),
                    Catch::Matchers::Contains("'short'"));
}
