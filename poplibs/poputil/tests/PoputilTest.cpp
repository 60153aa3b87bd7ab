// poputil: tile mappings checked against counts worked out by hand,
// broadcasting against numpy's rules, vertex names, index helpers.
#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poputil/Broadcast.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/Util.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

using namespace poplar;
using Catch::Matchers::Contains;

namespace {

std::vector<std::size_t> elementsPerTile(const Graph::TileToTensorMapping &m) {
  std::vector<std::size_t> counts;
  for (const auto &tile : m) {
    std::size_t n = 0;
    for (const auto &i : tile)
      n += i.size();
    counts.push_back(n);
  }
  return counts;
}

} // namespace

TEST_CASE("Linear tile mapping in whole grains", "[poputil][mapping]") {
  Device device = sdktest::createTestDevice(4);
  Graph graph(device.getTarget());
  const unsigned tiles = graph.getTarget().getNumTiles();
  if (tiles != 4)
    return; // the CPU target has one tile: nothing to spread

  // 10 elements, grain 2: 5 grains over 4 tiles = 2 grains (4 elements)
  // per tile, so tiles 0..2 get 4, 4, 2 and tile 3 none.
  auto m = poputil::calcLinearTileMapping(graph, {10}, 1, 2);
  CHECK(elementsPerTile(m) == std::vector<std::size_t>{4, 4, 2, 0});
  CHECK(m[1] == std::vector<Interval>{Interval(4, 8)});

  // The minimum per tile wins over an even spread.
  m = poputil::calcLinearTileMapping(graph, {10}, 6, 1);
  CHECK(elementsPerTile(m) == std::vector<std::size_t>{6, 4, 0, 0});

  // Offset and descending order move where the pieces go.
  m = poputil::calcLinearTileMapping(graph, {8}, 1, 1, 1);
  CHECK(elementsPerTile(m) == std::vector<std::size_t>{2, 2, 2, 2});
  CHECK(m[1].front() == Interval(0, 2));
  m = poputil::calcLinearTileMapping(graph, {8}, 1, 1, 0, false);
  CHECK(m[3].front() == Interval(0, 2));

  // The defaults: 128 bytes per tile, so 100 floats fill tiles of 32.
  Tensor t = graph.addVariable(FLOAT, {10, 10}, "t");
  poputil::mapTensorLinearly(graph, t);
  CHECK(elementsPerTile(graph.getTileMapping(t)) ==
        std::vector<std::size_t>{32, 32, 32, 4});
  CHECK(poputil::getTileImbalance(graph, t) == 7); // 32 - 25
  CHECK(poputil::dimIsSplitOverTiles(graph, t, 0));
  CHECK(poputil::dimIsSplitOverTiles(graph, t, 1)); // row 3 spans tiles 0, 1

  Tensor rows = graph.addVariable(FLOAT, {4, 8}, "rows");
  for (unsigned r = 0; r != 4; ++r)
    graph.setTileMapping(rows[r], r);
  CHECK_FALSE(poputil::dimIsSplitOverTiles(graph, rows, 1));
  CHECK(poputil::dimIsSplitOverTiles(graph, rows, 0));

  CHECK_THROWS_AS(poputil::calcLinearTileMapping(graph, {4}, 1, 0),
                  poputil::poplibs_error);
}

TEST_CASE("Broadcasting follows numpy", "[poputil][broadcast]") {
  Graph graph(Target::createCPUTarget());
  Tensor a = graph.addVariable(FLOAT, {3, 1}, "a");
  Tensor b = graph.addVariable(FLOAT, {4}, "b");
  CHECK(poputil::canBroadcastToMatch(a, b));
  poputil::broadcastToMatch(a, b);
  CHECK(a.shape() == std::vector<std::size_t>{3, 4});
  CHECK(b.shape() == std::vector<std::size_t>{3, 4});

  Tensor c = graph.addVariable(FLOAT, {2, 1, 1}, "c");
  Tensor d = graph.addVariable(FLOAT, {5, 1}, "d");
  Tensor e = graph.addVariable(FLOAT, {7}, "e");
  poputil::broadcastToMatch(c, d, e);
  for (const Tensor &x : {c, d, e})
    CHECK(x.shape() == std::vector<std::size_t>{2, 5, 7});

  Tensor f = graph.addVariable(FLOAT, {3}, "f");
  Tensor g = graph.addVariable(FLOAT, {4}, "g");
  CHECK_FALSE(poputil::canBroadcastToMatch(f, g));
  CHECK_THROWS_WITH(poputil::broadcastToMatch(f, g),
                    Contains("'f'") && Contains("{3}") && Contains("'g'"));

  Tensor h = graph.addVariable(FLOAT, {2}, "h");
  Tensor i = graph.addVariable(FLOAT, {3, 2}, "i");
  poputil::expandToMatchRanks(h, i);
  CHECK(h.shape() == std::vector<std::size_t>{1, 2});
}

TEST_CASE("Broadcast views read the right elements", "[poputil][broadcast]") {
  Device device = sdktest::createTestDevice(4);
  Graph graph(device.getTarget());
  Tensor row = graph.addVariable(INT, {3}, "row");
  Tensor col = graph.addVariable(INT, {2, 1}, "col");
  Tensor out = graph.addVariable(INT, {2, 3}, "out");
  Tensor out2 = graph.addVariable(INT, {2, 3}, "out2");
  for (const Tensor &t : {row, col, out, out2})
    poputil::mapTensorLinearly(graph, t, 1, 1);
  Tensor r = row, c = col;
  poputil::broadcastToMatch(r, c);
  program::Sequence prog{program::Copy(r, out), program::Copy(c, out2)};
  graph.createHostWrite("row", row);
  graph.createHostWrite("col", col);
  graph.createHostRead("out", out);
  graph.createHostRead("out2", out2);
  Engine engine(graph, prog);
  engine.load(device);
  std::vector<int> rv{1, 2, 3}, cv{10, 20};
  engine.writeTensor("row", rv.data(), rv.data() + 3);
  engine.writeTensor("col", cv.data(), cv.data() + 2);
  engine.run();
  std::vector<int> o(6), o2(6);
  engine.readTensor("out", o.data(), o.data() + 6);
  engine.readTensor("out2", o2.data(), o2.data() + 6);
  CHECK(o == std::vector<int>{1, 2, 3, 1, 2, 3});
  CHECK(o2 == std::vector<int>{10, 10, 10, 20, 20, 20});
}

TEST_CASE("Vertex names from templates", "[poputil][templates]") {
  CHECK(poputil::templateVertex("popops::ScaledAdd", FLOAT, true) ==
        "popops::ScaledAdd<float,true>");
  CHECK(poputil::templateVertex("poplin::WgdReduce", HALF, 4, 4u) ==
        "poplin::WgdReduce<half,4,4>");
  CHECK(poputil::templateVertex("V", UNSIGNED_INT, std::string("x")) ==
        "V<unsigned int,x>");
  CHECK(poputil::templateVertex("V") == "V<>");
}

TEST_CASE("Index and region helpers", "[poputil][util]") {
  const std::vector<std::size_t> shape{2, 3, 4};
  for (std::size_t i = 0; i != 24; ++i)
    CHECK(poputil::flattenIndex(shape, poputil::unflattenIndex(shape, i)) == i);
  CHECK(poputil::unflattenIndex(shape, 23) == std::vector<std::size_t>{1, 2, 3});
  CHECK_THROWS_AS(poputil::flattenIndex(shape, {0, 3, 0}), poputil::poplibs_error);

  std::vector<Interval> regions{{0, 2}, {2, 5}, {7, 8}, {8, 8}};
  poputil::mergeAdjacentRegions(regions);
  CHECK(regions == std::vector<Interval>{{0, 5}, {7, 8}});

  // 10 elements in grains of 2 over at most 3 partitions: 5 grains, 2 per
  // partition, so partitions of 4, 4 and 2 elements.
  const auto parts = poputil::splitRegions({{0, 6}, {10, 14}}, 2, 3);
  REQUIRE(parts.size() == 3);
  CHECK(parts[0] == std::vector<Interval>{{0, 4}});
  CHECK(parts[1] == std::vector<Interval>{{4, 6}, {10, 12}});
  CHECK(parts[2] == std::vector<Interval>{{12, 14}});

  Graph graph(Target::createCPUTarget());
  CHECK(poputil::castToDeviceHalfValue(graph.getTarget(), 0.1) ==
        Approx(0.0999755859375));
}

TEST_CASE("duplicate and cloneN", "[poputil][util]") {
  Device device = sdktest::createTestDevice(4);
  Graph graph(device.getTarget());
  Tensor t = graph.addVariable(FLOAT, {2, 3}, "t");
  poputil::mapTensorLinearly(graph, t, 1, 1);
  program::Sequence prog;
  Tensor copy = poputil::duplicate(graph, t, prog, "copy");
  CHECK(copy.shape() == t.shape());
  CHECK(graph.getTileMapping(copy) == graph.getTileMapping(t));
  Tensor many = poputil::cloneN(graph, t, 3, "many");
  CHECK(many.shape() == std::vector<std::size_t>{3, 2, 3});
  graph.createHostWrite("t", t);
  graph.createHostRead("copy", copy);
  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> in{1, 2, 3, 4, 5, 6}, out(6);
  engine.writeTensor("t", in.data(), in.data() + 6);
  engine.run();
  engine.readTensor("copy", out.data(), out.data() + 6);
  CHECK(out == in);
}
