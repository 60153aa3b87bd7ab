// Every misuse of vertices gets an exception of the original's class whose
// message names the vertex, field, tensor or file at fault.
#include "../runtime/EngineTestUtil.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Program.hpp>
#include <poplar/exceptions.hpp>

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;
using sdktest::TestGraph;

namespace {

struct CodeletGraph : TestGraph {
  CodeletGraph() { graph.addCodelets(TEST_CODELETS); }
  /// Tile i of a four-tile IPU Model; the CPU target has only tile 0.
  unsigned tile(unsigned i) const { return i % graph.getTarget().getNumTiles(); }
};

bool isIpuModel(const Graph &g) {
  return g.getTarget().getTargetType() == TargetType::IPU_MODEL;
}

} // namespace

TEST_CASE("Unknown vertex types and fields", "[vertex][errors]") {
  CodeletGraph t;
  ComputeSet cs = t.graph.addComputeSet("cs");
  CHECK_THROWS_AS(t.graph.addVertex(cs, "NoSuchVertex"), unknown_vertex_type);
  CHECK_THROWS_WITH(t.graph.addVertex(cs, "NoSuchVertex"),
                    Contains("'NoSuchVertex'"));
  CHECK_THROWS_WITH(t.graph.addVertex(cs, "Scale<double>"),
                    Contains("'Scale<double>'"));
  VertexRef v = t.graph.addVertex(cs, "ScalarFields");
  Tensor x = t.variable(FLOAT, {1}, "x");
  CHECK_THROWS_AS(t.graph.connect(v["nope"], x), unknown_field);
  CHECK_THROWS_WITH(t.graph.connect(v["nope"], x),
                    Contains("no field 'nope'") && Contains("ScalarFields") &&
                        Contains("a, b, sum, counter"));
}

TEST_CASE("Connections of the wrong type, size or kind", "[vertex][errors]") {
  CodeletGraph t;
  ComputeSet cs = t.graph.addComputeSet("cs");
  VertexRef v = t.graph.addVertex(cs, "ScalarFields");
  Tensor ints = t.variable(INT, {3}, "ints");
  Tensor floats = t.variable(FLOAT, {2, 2}, "floats");
  Tensor c = t.graph.addConstant<float>(FLOAT, {1}, {1.0f});

  CHECK_THROWS_AS(t.graph.connect(v["a"], ints[0]), graph_connection_error);
  CHECK_THROWS_WITH(t.graph.connect(v["a"], ints[0]),
                    Contains("field 'a'") && Contains("float") &&
                        Contains("'ints") && Contains("int"));
  CHECK_THROWS_WITH(t.graph.connect(v["b"], ints.slice(0, 2)),
                    Contains("field 'b'") && Contains("one element"));
  CHECK_THROWS_WITH(t.graph.connect(v["sum"], c[0]),
                    Contains("field 'sum'") && Contains("constant"));
  CHECK_NOTHROW(t.graph.connect(v["a"], c[0])); // inputs may be constants

  VertexRef vec = t.graph.addVertex(cs, "VectorFields");
  CHECK_THROWS_WITH(t.graph.connect(vec["in"], floats),
                    Contains("field 'in'") && Contains("1-D") &&
                        Contains("{2,2}"));
  CHECK_THROWS_WITH(t.graph.connect(vec["out"], concat(floats[0], floats[0])),
                    Contains("field 'out'") && Contains("more than once"));

  VertexRef st = t.graph.addVertex(cs, "StateFields");
  CHECK_THROWS_WITH(t.graph.connect(st["scale"], floats[0][0]),
                    Contains("field 'scale'") && Contains("vertex state"));
  CHECK_THROWS_WITH(t.graph.setInitialValue(st["in"], 1.0f),
                    Contains("field 'in'") && Contains("connect a tensor"));
  CHECK_THROWS_WITH(t.graph.setInitialValue(st["weights"], 1.0f),
                    Contains("field 'weights'") && Contains("vector"));

  VertexRef list = t.graph.addVertex(cs, "ListFields");
  CHECK_THROWS_AS(t.graph.connect(list["rows"][0], floats[0]),
                  no_size_specified);
  t.graph.setFieldSize(list["rows"], 1);
  CHECK_THROWS_AS(t.graph.connect(list["rows"][1], floats[0]), index_error);
  CHECK_THROWS_WITH(t.graph.connect(list["rows"], floats[0]),
                    Contains("field 'rows'") && Contains("is a list"));
  CHECK_THROWS_WITH(t.graph.setFieldSize(vec["in"], 3),
                    Contains("field 'in'") && Contains("no size"));
}

TEST_CASE("Unconnected fields and missing state fail at compile time",
          "[vertex][errors]") {
  CodeletGraph t;
  Tensor x = t.variable(FLOAT, {4}, "x");
  Tensor y = t.variable(FLOAT, {4}, "y");

  ComputeSet unconnected = t.graph.addComputeSet("unconnected");
  VertexRef v = t.graph.addVertex(unconnected, "VectorFields",
                                  {{"in", x}, {"out", y}});
  t.graph.setTileMapping(v, t.tile(0));
  CHECK_THROWS_AS(Engine(t.graph, Execute(unconnected)), graph_connection_error);
  CHECK_THROWS_WITH(Engine(t.graph, Execute(unconnected)),
                    Contains("field 'acc'") && Contains("not connected") &&
                        Contains("VectorFields") && Contains("'unconnected'"));
}

TEST_CASE("State without a value and lists without a size", "[vertex][errors]") {
  CodeletGraph t;
  Tensor x = t.variable(FLOAT, {4}, "x");
  Tensor y = t.variable(FLOAT, {4}, "y");
  ComputeSet cs = t.graph.addComputeSet("state");
  VertexRef v = t.graph.addVertex(cs, "StateFields", {{"in", x}, {"out", y}});
  t.graph.setTileMapping(v, t.tile(0));
  t.graph.setInitialValue(v["scale"], 1.0f);
  t.graph.setInitialValue(v["offset"], 1u);
  CHECK_THROWS_WITH(Engine(t.graph, Execute(cs)),
                    Contains("field 'weights'") && Contains("no value"));

  CodeletGraph t2;
  ComputeSet cs2 = t2.graph.addComputeSet("lists");
  VertexRef l = t2.graph.addVertex(cs2, "ListFields");
  t2.graph.setTileMapping(l, t2.tile(0));
  CHECK_THROWS_AS(Engine(t2.graph, Execute(cs2)), no_size_specified);
}

TEST_CASE("A vertex without a tile on the IPU Model", "[vertex][errors]") {
  CodeletGraph t;
  if (!isIpuModel(t.graph))
    return; // the CPU target runs everything as one tile
  Tensor x = t.variable(FLOAT, {4}, "x");
  Tensor y = t.variable(FLOAT, {4}, "y");
  Tensor acc = t.variable(INT, {4}, "acc");
  ComputeSet cs = t.graph.addComputeSet("untiled");
  t.graph.addVertex(cs, "VectorFields", {{"in", x}, {"out", y}, {"acc", acc}});
  CHECK_THROWS_AS(Engine(t.graph, Execute(cs)), invalid_tile_mapping);
  CHECK_THROWS_WITH(Engine(t.graph, Execute(cs)),
                    Contains("VectorFields") && Contains("no tile"));
  VertexRef v = t.graph.addVertex(cs, "Reverse", {{"data", x}});
  CHECK_THROWS_AS(t.graph.setTileMapping(v, 99), invalid_tile_mapping);
}

TEST_CASE("Races inside one compute set", "[vertex][errors]") {
  CodeletGraph t;
  Tensor x = t.variable(FLOAT, {8}, "x");
  Tensor y = t.variable(FLOAT, {8}, "y");
  Tensor acc = t.variable(INT, {8}, "acc");

  SECTION("two vertices write one element") {
    ComputeSet cs = t.graph.addComputeSet("writeWrite");
    for (unsigned i = 0; i != 2; ++i) {
      VertexRef v = t.graph.addVertex(
          cs, "VectorFields",
          {{"in", x.slice(4 * i, 4 * i + 4)},
           {"out", y.slice(3 * i, 3 * i + 4)}, // elements 3 overlap
           {"acc", acc.slice(4 * i, 4 * i + 4)}});
      t.graph.setTileMapping(v, t.tile(i));
    }
    CHECK_THROWS_AS(Engine(t.graph, Execute(cs)), graph_connection_error);
    CHECK_THROWS_WITH(Engine(t.graph, Execute(cs)),
                      Contains("Race") && Contains("'writeWrite'") &&
                          Contains("element 3 of 'y'") && Contains("field 'out'"));
  }
  SECTION("one vertex writes what another reads") {
    ComputeSet cs = t.graph.addComputeSet("writeRead");
    VertexRef a = t.graph.addVertex(
        cs, "VectorFields",
        {{"in", x.slice(0, 4)}, {"out", y.slice(0, 4)}, {"acc", acc.slice(0, 4)}});
    VertexRef b = t.graph.addVertex(
        cs, "VectorFields",
        {{"in", y.slice(2, 6)}, {"out", x.slice(4, 8)}, {"acc", acc.slice(4, 8)}});
    t.graph.setTileMapping(a, t.tile(0));
    t.graph.setTileMapping(b, t.tile(1));
    CHECK_THROWS_WITH(Engine(t.graph, Execute(cs)),
                      Contains("Race") && Contains("element 2 of 'y'") &&
                          Contains("reads"));
  }
  SECTION("element edges t[i][j] name the element of the variable") {
    // Elements (1, 2) of a 2 x 4 view of y: y's element 6, written by the
    // second vertex and read by the first through another view of it.
    Tensor grid = y.reshape({2, 4});
    Tensor ints = acc.reshape({2, 4});
    ComputeSet cs = t.graph.addComputeSet("elements");
    VertexRef a = t.graph.addVertex(
        cs, "ScalarFields",
        {{"a", y[6]}, {"b", ints[0][0]}, {"sum", x[0]}, {"counter", ints[0][1]}});
    VertexRef b = t.graph.addVertex(
        cs, "ScalarFields",
        {{"a", x[1]}, {"b", ints[1][0]}, {"sum", grid[1][2]}, {"counter", ints[1][1]}});
    t.graph.setTileMapping(a, t.tile(0));
    t.graph.setTileMapping(b, t.tile(1));
    CHECK_THROWS_WITH(Engine(t.graph, Execute(cs)),
                      Contains("Race") && Contains("element 6 of 'y'") &&
                          Contains("field 'sum'") && Contains("field 'a'"));
  }
  SECTION("the same element in separate compute sets is fine") {
    ComputeSet first = t.graph.addComputeSet("first");
    ComputeSet second = t.graph.addComputeSet("second");
    VertexRef a = t.graph.addVertex(first, "Reverse", {{"data", x}});
    VertexRef b = t.graph.addVertex(second, "Reverse", {{"data", x}});
    t.graph.setTileMapping(a, t.tile(0));
    t.graph.setTileMapping(b, t.tile(1));
    CHECK_NOTHROW(Engine(t.graph, Sequence{Execute(first), Execute(second)}));
  }
}

TEST_CASE("A vertex returning false stops the run", "[vertex][errors]") {
  CodeletGraph t;
  Tensor x = t.variable(INT, {2}, "x");
  ComputeSet cs = t.graph.addComputeSet("checks");
  for (unsigned i = 0; i != 2; ++i) {
    VertexRef v = t.graph.addVertex(cs, "Check", {{"x", x[i]}});
    t.graph.setTileMapping(v, t.tile(i));
  }
  Engine engine(t.graph, Execute(cs));
  engine.load(t.device);
  sdktest::writeTo<int>(engine, "x", {1, 1});
  CHECK_NOTHROW(engine.run());
  sdktest::writeTo<int>(engine, "x", {1, 0});
  CHECK_THROWS_AS(engine.run(), application_runtime_error);
  CHECK_THROWS_WITH(engine.run(), Contains("Check") && Contains("'checks'") &&
                                      Contains("returned false"));
}

TEST_CASE("Codelet files that cannot be used", "[vertex][errors]") {
  TestGraph t;
  CHECK_THROWS_AS(t.graph.addCodelets("no-such-codelets.gp"), file_load_error);
  CHECK_THROWS_WITH(t.graph.addCodelets("no-such-codelets.gp"),
                    Contains("no-such-codelets.gp"));
  CHECK_THROWS_WITH(t.graph.addCodelets("codelets.unknown"),
                    Contains("codelets.unknown") && Contains("extension"));

  // A file that is not a graph program object.
  // One file per process: the test runs for several targets at once.
  const std::string junk =
      "vertex_error_junk_" + std::to_string(::getpid()) + ".gp";
  std::ofstream(junk) << "this is not an object file";
  CHECK_THROWS_AS(t.graph.addCodelets(junk), file_load_error);
  CHECK_THROWS_WITH(t.graph.addCodelets(junk), Contains(junk));
  std::remove(junk.c_str());

  // Source that does not compile: the compiler's message names the line.
  std::ostringstream messages;
  CHECK_THROWS_AS(t.graph.addCodelets(TEST_BROKEN_CODELET,
                                      CodeletFileType::Auto, "", messages),
                  graph_program_compilation_error);
  CHECK_THAT(messages.str(), Contains("BrokenCodelet.cpp:8"));
  CHECK_THROWS_WITH(t.graph.addCodelets(TEST_BROKEN_CODELET),
                    Contains("BrokenCodelet.cpp:8") &&
                        Contains("undefinedName"));

  CHECK_THROWS_AS(t.graph.addCodelets("codelets.S"),
                  graph_program_compilation_error);
}

TEST_CASE("Adding codelets twice, and two definitions of one vertex type",
          "[vertex][errors]") {
  TestGraph t;
  CHECK(t.graph.addCodelets(TEST_CODELETS));
  CHECK_FALSE(t.graph.addCodelets(TEST_CODELETS));
  CHECK_THROWS_AS(t.graph.addCodelets(TEST_OTHER_CODELETS), link_error);
  CHECK_THROWS_WITH(t.graph.addCodelets(TEST_OTHER_CODELETS),
                    Contains("'ScalarFields'") && Contains("already defined"));
  // The failed add registered nothing.
  CHECK(t.graph.hasCodelet("ScalarFields"));
}
