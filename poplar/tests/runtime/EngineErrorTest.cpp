// Every error the Engine reports, with the class of the original and a
// message naming what is at fault. A failed call leaves the engine usable.
#include <catch2/catch.hpp>

#include "EngineTestUtil.hpp"

#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include <cstdlib>
#include <sstream>

using namespace poplar;
using namespace poplar::program;
using sdktest::readBack;
using sdktest::writeTo;
using Catch::Matchers::Contains;

TEST_CASE("An unmapped variable fails compilation on the IPU Model only",
          "[poplar][engine][error]") {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  Tensor v = graph.addVariable(FLOAT, {6}, "weights");
  graph.setTileMapping(v.slice(0, 4), 0);
  CHECK_THROWS_AS(Engine(graph, Sequence()), invalid_tile_mapping);
  CHECK_THROWS_WITH(Engine(graph, Sequence()), Contains(
                           "'weights' has 2 of its 6 elements without a tile "
                           "mapping (the first is element 4)"));
  graph.setTileMapping(v.slice(4, 6), 1);
  CHECK_NOTHROW(Engine(graph, Sequence()));

  Graph cpuGraph(Target::createCPUTarget());
  cpuGraph.addVariable(FLOAT, {6}, "unmapped");
  CHECK_NOTHROW(Engine(cpuGraph, Sequence()));
}

TEST_CASE("Out-of-range tiles are rejected naming the tensor",
          "[poplar][engine][error]") {
  sdktest::TestGraph g;
  Tensor v = g.graph.addVariable(FLOAT, {2}, "v");
  const unsigned tiles = g.graph.getTarget().getNumTiles();
  CHECK_THROWS_AS(g.graph.setTileMapping(v, tiles), invalid_tile_mapping);
  CHECK_THROWS_WITH(g.graph.setTileMapping(v, tiles), Contains(
                           "tile " + std::to_string(tiles) +
                           " is out of range for tensor 'v'"));
  CHECK_THROWS_AS(g.graph.setTileMapping(v, Graph::TileToTensorMapping{{{0, 3}}}),
                  invalid_tile_mapping);
}

TEST_CASE("Ill-formed copies fail compilation naming both tensors",
          "[poplar][engine][error]") {
  sdktest::TestGraph g;
  Tensor a = g.variable(FLOAT, {4}, "a");
  Tensor b = g.variable(FLOAT, {3}, "b");
  Tensor i = g.variable(INT, {4}, "i");
  Tensor c = g.graph.addConstant<float>(FLOAT, {4}, {1, 2, 3, 4}, "c");
  g.graph.setTileMapping(c, 0);
  CHECK_THROWS_AS(
      Engine(g.graph, Copy(a, b, false, "badCopy")), graph_program_compilation_error);
  CHECK_THROWS_WITH(
      Engine(g.graph, Copy(a, b, false, "badCopy")), Contains(
          "Copy 'badCopy': the source 'a' has 4 elements but the destination "
          "'b' has 3"));
  CHECK_THROWS_WITH(Engine(g.graph, Copy(a, i)), Contains("is float") &&
                                                     Contains("'i' is int"));
  CHECK_THROWS_WITH(Engine(g.graph, Copy(a, c)), Contains("'c' is a constant"));
  CHECK_THROWS_WITH(Engine(g.graph, Copy(a, b.slice(0, 1).broadcast(4, 0))),
                    Contains("more than once"));
  DataStream s = g.graph.addHostToDeviceFIFO("s", FLOAT, 5);
  CHECK_THROWS_WITH(Engine(g.graph, Copy(s, a)),
                    Contains("stream 's' carries 5 elements but tensor 'a' has 4"));
  DataStream out = g.graph.addDeviceToHostFIFO("out", FLOAT, 4);
  CHECK_THROWS_WITH(Engine(g.graph, Copy(out, a)),
                    Contains("device-to-host stream"));
  CHECK_THROWS_WITH(Engine(g.graph, If(a, Sequence(), Sequence())),
                    Contains("predicate 'a' must have exactly one element"));
  CHECK_THROWS_WITH(Engine(g.graph, Switch(c[0])), Contains("must be an integer"));
  CHECK_THROWS_WITH(Engine(g.graph, Call(Function(3))),
                    Contains("function 3 does not exist"));
  CHECK_THROWS_WITH(Engine(g.graph, Execute(ComputeSet(9))),
                    Contains("compute set 9 does not exist"));
  CHECK_THROWS_AS(Engine(g.graph, Copy(a, Tensor())),
                  graph_program_compilation_error);

  Graph other(g.device.getTarget());
  Tensor foreign = other.addVariable(FLOAT, {4}, "foreign");
  CHECK_THROWS_WITH(Engine(g.graph, Copy(a, foreign)),
                    Contains("'foreign' belongs to a different graph"));
}

TEST_CASE("Streams must be connected before a program uses them",
          "[poplar][engine][error]") {
  sdktest::TestGraph g;
  Tensor v = g.variable(INT, {4}, "v");
  DataStream in = g.graph.addHostToDeviceFIFO("feed", INT, 4);
  Function f = g.graph.addFunction(Copy(in, v));
  Engine engine(g.graph, {Sequence(), Sequence{Call(f)}});
  engine.load(g.device);
  engine.run(0); // does not use the stream
  writeTo(engine, "v", std::vector<int>{1, 2, 3, 4});
  CHECK_THROWS_AS(engine.run(1), stream_connection_error);
  CHECK_THROWS_WITH(engine.run(1), Contains(
                           "stream 'feed' is used by the program but is not "
                           "connected"));
  // Nothing ran: v is unchanged.
  CHECK(readBack<int>(engine, "v", 4) == std::vector<int>{1, 2, 3, 4});

  std::vector<int> data(6);
  CHECK_THROWS_WITH(engine.connectStream("feed", data.data(), data.data() + 6),
                    Contains("not a whole number of the 16-byte transfers"));
  CHECK_THROWS_WITH(engine.connectStream("nofeed", data.data()),
                    Contains("no stream named 'nofeed'"));
  CHECK_THROWS_AS(engine.connectStreamToCallback("feed", 1, [](void *) {}),
                  stream_connection_error);
  engine.connectStream("feed", data.data(), data.data() + 4);
  CHECK_NOTHROW(engine.run(1));
}

TEST_CASE("Handles, program indices, loading and options are checked",
          "[poplar][engine][error]") {
  sdktest::TestGraph g;
  Tensor v = g.variable(FLOAT, {2}, "v");
  Engine engine(g.graph, Sequence());
  std::vector<float> data(2);
  CHECK_THROWS_WITH(engine.run(0), Contains("not loaded"));
  CHECK_THROWS_AS(engine.writeTensor("v-write", data.data(), data.data() + 2),
                  poplar::runtime_error);
  engine.load(g.device);
  CHECK_THROWS_WITH(engine.writeTensor("nope", data.data(), data.data() + 2),
                    Contains("no host write handle named 'nope'"));
  CHECK_THROWS_WITH(engine.readTensor("v-write", data.data(), data.data() + 2),
                    Contains("no host read handle named 'v-write'"));
  CHECK_THROWS_WITH(engine.readTensor("v-read", data.data(), data.data() + 1),
                    Contains("needs 8"));
  CHECK_THROWS_AS(engine.run(1), index_error);
  CHECK_THROWS_AS(g.graph.createHostRead("v-read", v), poplar_error);

  Device other = IPUModel("ipu1").createDevice();
  CHECK_THROWS_WITH(engine.load(other), Contains("does not have the target"));

  CHECK_THROWS_WITH(Engine(g.graph, Sequence(), {{"debug.nosuch", "true"}}),
                    Contains("Unrecognised engine option 'debug.nosuch'"));
  CHECK_THROWS_WITH(Engine(g.graph, Sequence(), {{"debug.instrument", "yes"}}),
                    Contains("expected true or false"));
  CHECK_NOTHROW(Engine(g.graph, Sequence(), {{"debug.instrument", "true"}}));

  ::setenv("POPLAR_ENGINE_OPTIONS", R"({"autoReport.bogus":"true"})", 1);
  CHECK_THROWS_WITH(Engine(g.graph, Sequence()), Contains("autoReport.bogus"));
  ::setenv("POPLAR_ENGINE_OPTIONS", "{broken", 1);
  CHECK_THROWS_WITH(Engine(g.graph, Sequence()),
                    Contains("POPLAR_ENGINE_OPTIONS"));
  ::setenv("POPLAR_ENGINE_OPTIONS", R"({"debug.retainDebugInformation":"true"})", 1);
  Engine withEnv(g.graph, Sequence());
  CHECK(withEnv.getEngineOptions().at("debug.retainDebugInformation") == "true");
  ::unsetenv("POPLAR_ENGINE_OPTIONS");

  Executable exe = compileGraph(g.graph, {Sequence()});
  Engine fromExe(std::move(exe));
  fromExe.load(g.device);
  CHECK_NOTHROW(fromExe.run(0));
}
