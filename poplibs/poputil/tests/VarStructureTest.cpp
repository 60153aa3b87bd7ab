// Groupings detected from storage and tile mapping, and partitionable
// tensors, on every device.
#include "TestDevice.hpp"

#include <poplar/Graph.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VarStructure.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

using namespace poplar;
using poputil::GroupingInfo;

TEST_CASE("detectDimGroupings follows storage order", "[poputil][varstructure]") {
  Device device = sdktest::createTestDevice(4);
  Graph graph(device.getTarget());
  Tensor t = graph.addVariable(FLOAT, {4, 6}, "t");
  graph.setTileMapping(t, 0);
  CHECK(poputil::detectDimGroupings(graph, t) ==
        std::vector<GroupingInfo>{{1, 6}, {0, 4}});
  CHECK(poputil::detectInnermostGrouping(graph, t) == 6);
  // Transposed, the rows of t are the columns: dimension 0 is innermost.
  CHECK(poputil::detectDimGroupings(graph, t.transpose()) ==
        std::vector<GroupingInfo>{{0, 6}, {1, 4}});
  CHECK(poputil::detectInnermostGrouping(graph, t.transpose()) == 0);
  // A row per tile (where there are 4 tiles): groups never span tiles.
  Tensor u = graph.addVariable(FLOAT, {4, 6}, "u");
  poputil::mapTensorLinearly(graph, u, 6, 6);
  const auto perTile = poputil::detectDimGroupings(graph, u);
  REQUIRE(!perTile.empty());
  CHECK(perTile[0] == GroupingInfo{1, 6});
  if (graph.getTarget().getNumTiles() >= 4)
    CHECK(perTile.size() == 1);
  // Groups of 4 along dimension 1 stored innermost: [2, 3, 4] storage
  // seen as [2, 12] with each run of 4 columns contiguous.
  Tensor s = graph.addVariable(HALF, {3, 2, 4}, "s");
  graph.setTileMapping(s, 0);
  Tensor grouped = s.dimShuffle({1, 0, 2}).reshape({2, 12});
  const auto g = poputil::detectDimGroupings(graph, grouped);
  REQUIRE(!g.empty());
  CHECK(g[0] == GroupingInfo{1, 4});
  CHECK_THROWS_AS(poputil::detectDimGroupings(graph, t[0][0]),
                  poputil::poplibs_error);
}

TEST_CASE("createPartitionableTensor makes each partition contiguous",
          "[poputil][varstructure]") {
  Device device = sdktest::createTestDevice(4);
  Graph graph(device.getTarget());
  Tensor t = poputil::createPartitionableTensor(graph, FLOAT, {5, 7}, {2, 3},
                                                "p");
  CHECK(t.shape() == std::vector<std::size_t>{5, 7});
  std::size_t partitions = 0, elements = 0;
  poputil::iterateTensorPartitions(
      t, {2, 3}, [&](const std::vector<std::size_t> &i, const Tensor &s) {
        INFO("partition " << i[0] << "," << i[1]);
        CHECK(s.getVarRegions().size() == 1);
        // ceil(5/2) = 3 rows then 2; ceil(7/3) = 3 columns, 3, then 1.
        CHECK(s.dim(0) == (i[0] == 0 ? 3u : 2u));
        CHECK(s.dim(1) == (i[1] == 2 ? 1u : 3u));
        ++partitions;
        elements += s.numElements();
      });
  CHECK(partitions == 6);
  CHECK(elements == 35);
  CHECK_THROWS_AS(poputil::createPartitionableTensor(graph, FLOAT, {5}, {2, 3}),
                  poputil::poplibs_error);
}
