// hasNaN and hasNaNOrInf against std::isnan / std::isfinite on the host.
#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <popops/NaN.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace poplar;
using namespace popops;
using Catch::Matchers::Contains;

TEST_CASE("hasNaN and hasNaNOrInf", "[popops][nan]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<std::vector<float>> inputs{
      {1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
      {1, 2, 3, 4, 5, 6, 7, 8, 9, nan},
      {nan, 2, 3, 4, 5, 6, 7, 8, 9, 10},
      {1, 2, 3, -inf, 5, 6, 7, 8, 9, 10},
      {1, 2, 3, 4, 5, 6, inf, 8, nan, 10}};
  for (const Type type : {FLOAT, HALF}) {
    INFO(type.toString().str());
    Device device = sdktest::createTestDevice(4);
    Graph graph(device.getTarget());
    popops::addCodelets(graph);
    program::Sequence prog;
    Tensor x = graph.addVariable(type, {2, 5}, "x");
    poputil::mapTensorLinearly(graph, x, 1, 1);
    graph.createHostWrite("x", x);
    // A transposed view: the test does not depend on the layout.
    Tensor nanFound = hasNaN(graph, x.transpose(), prog, "nan");
    Tensor nonFinite = hasNaNOrInf(graph, x, prog, "inf");
    CHECK(nanFound.elementType() == BOOL);
    CHECK(nanFound.numElements() == 1);
    Tensor none = graph.addVariable(type, {0, 3}, "none");
    Tensor emptyNaN = hasNaN(graph, none, prog, "empty");
    Tensor emptyInf = hasNaNOrInf(graph, none, prog, "emptyInf");
    graph.createHostRead("nan", nanFound);
    graph.createHostRead("inf", nonFinite);
    graph.createHostRead("emptyNaN", emptyNaN);
    graph.createHostRead("emptyInf", emptyInf);
    Engine e(graph, prog);
    e.load(device);
    for (const auto &in : inputs) {
      if (type == FLOAT) {
        e.writeTensor("x", in.data(), in.data() + in.size());
      } else {
        std::vector<std::uint16_t> h(in.size());
        copyFloatToDeviceHalf(graph.getTarget(), in.data(), h.data(), h.size());
        e.writeTensor("x", h.data(), h.data() + h.size());
      }
      e.run();
      bool wantNaN = false, wantInf = false;
      for (float v : in) {
        wantNaN = wantNaN || std::isnan(v);
        wantInf = wantInf || !std::isfinite(v);
      }
      char got = 2;
      e.readTensor("nan", &got, &got + 1);
      CHECK(bool(got) == wantNaN);
      e.readTensor("inf", &got, &got + 1);
      CHECK(bool(got) == wantInf);
      e.readTensor("emptyNaN", &got, &got + 1);
      CHECK(got == 0);
      e.readTensor("emptyInf", &got, &got + 1);
      CHECK(got == 0);
    }
  }
}

TEST_CASE("hasNaN needs floating point", "[popops][nan]") {
  Device device = sdktest::createTestDevice(4);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  program::Sequence prog;
  Tensor i = graph.addVariable(INT, {3}, "ints");
  CHECK_THROWS_WITH(hasNaN(graph, i, prog),
                    Contains("'ints'") && Contains("int"));
  CHECK_THROWS_AS(hasNaNOrInf(graph, i, prog), poputil::poplibs_error);
}
