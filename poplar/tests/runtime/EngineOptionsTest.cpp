// Engine options: the profiling and debug options take only their values,
// and an error names the option, whether given to the Engine or through
// POPLAR_ENGINE_OPTIONS.
#include <catch2/catch.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include <cstdlib>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;

namespace {
Graph smallGraph() {
  IPUModel m("ipu2");
  m.tilesPerIPU = 2;
  return Graph(m.createTarget());
}
} // namespace

TEST_CASE("Boolean debug options take true or false", "[engine][options]") {
  Graph graph = smallGraph();
  for (const char *name :
       {"debug.instrument", "debug.instrumentCompute",
        "debug.instrumentExternalExchange", "debug.retainDebugInformation",
        "debug.allowOutOfMemory", "debug.instrumentControlFlow"}) {
    INFO(name);
    CHECK_NOTHROW(Engine(graph, Sequence{}, {{name, "true"}}));
    CHECK_NOTHROW(Engine(graph, Sequence{}, {{name, "false"}}));
    for (const char *bad : {"yes", "1", "TRUE", ""}) {
      CHECK_THROWS_AS(Engine(graph, Sequence{}, {{name, bad}}), invalid_option);
      CHECK_THROWS_WITH(Engine(graph, Sequence{}, {{name, bad}}),
                        Contains(std::string("'") + name + "'"));
    }
  }
}

TEST_CASE("debug.computeInstrumentationLevel takes tile, vertex, device or ipu",
          "[engine][options]") {
  Graph graph = smallGraph();
  for (const char *level : {"tile", "vertex", "device", "ipu"})
    CHECK_NOTHROW(Engine(graph, Sequence{},
                         {{"debug.computeInstrumentationLevel", level}}));
  CHECK_THROWS_WITH(
      Engine(graph, Sequence{}, {{"debug.computeInstrumentationLevel", "tiles"}}),
      Contains("'debug.computeInstrumentationLevel'") &&
          Contains("tile, vertex, device or ipu"));
  CHECK_THROWS_AS(compileGraph(graph, {Sequence{}},
                               {{"debug.computeInstrumentationLevel", "cs"}}),
                  invalid_option);
}

TEST_CASE("Stack sizes are unsigned integers", "[engine][options]") {
  Graph graph = smallGraph();
  CHECK_NOTHROW(Engine(graph, Sequence{}, {{"target.workerStackSizeInBytes", "0x200"}}));
  CHECK_THROWS_WITH(
      Engine(graph, Sequence{}, {{"target.supervisorStackSizeInBytes", "big"}}),
      Contains("'target.supervisorStackSizeInBytes'"));
}

TEST_CASE("POPLAR_ENGINE_OPTIONS values are checked too", "[engine][options]") {
  Graph graph = smallGraph();
  ::setenv("POPLAR_ENGINE_OPTIONS", R"({"debug.allowOutOfMemory": "maybe"})", 1);
  CHECK_THROWS_WITH(Engine(graph, Sequence{}), Contains("'debug.allowOutOfMemory'"));
  ::setenv("POPLAR_ENGINE_OPTIONS", R"({"debug.computeInstrumentationLevel": "x"})", 1);
  CHECK_THROWS_WITH(Engine(graph, Sequence{}),
                    Contains("'debug.computeInstrumentationLevel'"));
  ::unsetenv("POPLAR_ENGINE_OPTIONS");
  CHECK_NOTHROW(Engine(graph, Sequence{}));
}
