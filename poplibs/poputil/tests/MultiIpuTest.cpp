// Moving tensors between the IPUs of a four-IPU graph: the clones' tile
// mappings and the values the copies move.
#include <catch2/catch.hpp>

#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {

// The IPU of every element of t, in flattened order.
std::vector<unsigned> ipuOfElements(const Graph &graph, const Tensor &t) {
  std::vector<unsigned> ipu(t.numElements(), ~0u);
  const auto mapping = graph.getTileMapping(t);
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    for (const auto &interval : mapping[tile])
      for (std::size_t e = interval.begin(); e != interval.end(); ++e)
        ipu[e] = tile / graph.getTarget().getTilesPerIPU();
  return ipu;
}

} // namespace

TEST_CASE("copyToIpu and createIpuCopy move a tensor to another IPU",
          "[poputil][multiipu]") {
  Device device = sdktest::createTestDevice(sdktest::deviceTypeFromEnvironment(), 4, 4);
  Graph graph(device.getTarget());
  const unsigned perIpu = graph.getTarget().getTilesPerIPU();
  Tensor t = graph.addVariable(INT, {2, 3}, "t");
  for (unsigned i = 0; i != 6; ++i)
    graph.setTileMapping(t.flatten()[i], i % perIpu); // all on IPU 0
  graph.createHostWrite("t", t);
  Sequence prog;
  Tensor on2 = poputil::copyToIpu(graph, t, prog, 2, "on2");
  CHECK(on2.shape() == t.shape());
  CHECK(ipuOfElements(graph, on2) == std::vector<unsigned>(6, 2));
  // Tile numbers within the IPU are kept.
  const auto before = graph.getTileMapping(t);
  const auto after = graph.getTileMapping(on2);
  for (unsigned tile = 0; tile != perIpu; ++tile)
    CHECK(before[tile] == after[2 * perIpu + tile]);
  // A tensor that names some elements twice is copied element by element.
  Tensor aliased = concat(t[0], t[0]);
  Tensor src, dst;
  Tensor on3 = poputil::createIpuCopy(graph, aliased, 3, src, dst, "on3");
  CHECK(on3.numElements() == 6);
  CHECK(dst.numElements() == 3);
  CHECK_FALSE(dst.containsAliases());
  prog.add(Copy(src, dst));
  graph.createHostRead("on2", on2);
  graph.createHostRead("on3", on3);
  CHECK(poputil::dimIsSplitOverIPUs(graph, concat(t, on2), 0));
  CHECK_FALSE(poputil::dimIsSplitOverIPUs(graph, concat(t, on2), 1));
  CHECK_THROWS_AS(poputil::cloneToIpu(graph, t, 4), poputil::poplibs_error);

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<int> values = {1, 2, 3, 4, 5, 6};
  engine.writeTensor("t", values.data(), values.data() + 6);
  engine.run();
  std::vector<int> got(6);
  engine.readTensor("on2", got.data(), got.data() + 6);
  CHECK(got == values);
  engine.readTensor("on3", got.data(), got.data() + 6);
  CHECK(got == std::vector<int>{1, 2, 3, 1, 2, 3});
}

TEST_CASE("cloneToGraph keeps tile numbers between virtual graphs",
          "[poputil][multiipu]") {
  Device device = sdktest::createTestDevice(sdktest::deviceTypeFromEnvironment(), 2, 4);
  Graph graph(device.getTarget());
  const unsigned perIpu = graph.getTarget().getTilesPerIPU();
  Graph ipu0 = graph.createVirtualGraph(0, perIpu);
  Graph ipu1 = graph.createVirtualGraph(perIpu, 2 * perIpu);
  Tensor t = ipu0.addVariable(FLOAT, {perIpu}, "t");
  for (unsigned i = 0; i != perIpu; ++i)
    ipu0.setTileMapping(t[i], i);
  Tensor c = poputil::cloneToGraph(ipu0, ipu1, t, "c");
  CHECK(ipu1.getTileMapping(c) == ipu0.getTileMapping(t));
  CHECK(ipuOfElements(graph, c) == std::vector<unsigned>(perIpu, 1));
  if (perIpu > 1) {
    Graph small = graph.createVirtualGraph(0, 1);
    CHECK_THROWS_AS(poputil::cloneToGraph(ipu0, small, t),
                    poputil::poplibs_error);
  }
}
