// linspace and meshgrid2d against numpy's definitions, worked by host loops.
#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplin/MeshGrid.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using namespace poplar;
using Catch::Matchers::Contains;

TEST_CASE("linspace and meshgrid2d", "[poplin][meshgrid]") {
  Device device = sdktest::createTestDevice(4);
  Graph graph(device.getTarget());
  Tensor x = poplin::linspace(graph, FLOAT, -1.0f, 2.0f, 7);
  Tensor y = poplin::linspace(graph, HALF, 0.0f, 1.0f, 3);
  Tensor one = poplin::linspace(graph, FLOAT, 5.0f, 9.0f, 1);
  auto grids = poplin::meshgrid2d(graph, x, y);
  REQUIRE(grids.size() == 2);
  CHECK(grids[0].shape() == std::vector<std::size_t>{3, 7});
  CHECK(grids[1].shape() == std::vector<std::size_t>{3, 7});
  program::Sequence prog;
  Tensor gridX = graph.clone(grids[0], "gridX");
  Tensor gridY = graph.clone(grids[1], "gridY");
  prog.add(program::Copy(grids[0], gridX));
  prog.add(program::Copy(grids[1], gridY));
  graph.createHostRead("gridX", gridX);
  graph.createHostRead("gridY", gridY);
  graph.createHostRead("one", one);
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  std::vector<float> gx(21), first(1);
  std::vector<std::uint16_t> gyBits(21);
  std::vector<float> gy(21);
  engine.readTensor("gridX", gx.data(), gx.data() + 21);
  engine.readTensor("gridY", gyBits.data(), gyBits.data() + 21);
  copyDeviceHalfToFloat(graph.getTarget(), gyBits.data(), gy.data(), 21);
  engine.readTensor("one", first.data(), first.data() + 1);
  for (unsigned i = 0; i != 3; ++i)
    for (unsigned j = 0; j != 7; ++j) {
      CHECK(gx[i * 7 + j] == Approx(-1.0 + 3.0 * j / 6).margin(1e-6));
      CHECK(gy[i * 7 + j] == Approx(0.5 * i).margin(1e-3));
    }
  CHECK(first[0] == 5.0f);
}

TEST_CASE("linspace and meshgrid2d errors", "[poplin][meshgrid]") {
  Device device = sdktest::createTestDevice(4);
  Graph graph(device.getTarget());
  CHECK_THROWS_WITH(poplin::linspace(graph, INT, 0, 1, 3),
                    Contains("FLOAT or HALF") && Contains("int"));
  Tensor m = graph.addVariable(FLOAT, {2, 2}, "m");
  Tensor v = graph.addVariable(FLOAT, {2}, "v");
  CHECK_THROWS_WITH(poplin::meshgrid2d(graph, m, v), Contains("x must be of rank 1"));
  CHECK_THROWS_WITH(poplin::meshgrid2d(graph, v, m), Contains("y must be of rank 1"));
}
