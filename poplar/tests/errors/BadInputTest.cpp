// Bad input to the public functions of poplar that take it, in one list:
// each call fails with the original's exception class and a message naming
// what is at fault, and the graph or engine it was made on is still usable
// afterwards: a program built on it after every error compiles, runs and
// gives the values a host loop gives.
#include "ExpectError.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Program.hpp>
#include <poplar/exceptions.hpp>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

using sdktest::expectError;

namespace {

constexpr unsigned tiles = 4;

Device smallModel() {
  IPUModel model;
  model.tilesPerIPU = tiles;
  return model.createDevice();
}


// A vertex adding its input to its in-out field (built from source, so the
// graph has a real vertex type to be wrong about).
const char *const accumulateCodelet = R"(
#include <poplar/Vertex.hpp>
class Accumulate : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::InOut<poplar::Vector<float>> acc;
  bool compute() {
    for (unsigned i = 0; i < acc.size(); ++i)
      acc[i] += in[i];
    return true;
  }
};
)";

// After the errors: acc += in on every tile, run twice, read back.
void checkStillUsable(Graph &graph, Device &device) {
  Tensor in = graph.addVariable(FLOAT, {tiles, 4}, "after-in");
  Tensor acc = graph.addVariable(FLOAT, {tiles, 4}, "after-acc");
  ComputeSet cs = graph.addComputeSet("after");
  for (unsigned t = 0; t != tiles; ++t) {
    graph.setTileMapping(in[t], t);
    graph.setTileMapping(acc[t], t);
    VertexRef v = graph.addVertex(cs, "Accumulate", {{"in", in[t]}, {"acc", acc[t]}});
    graph.setTileMapping(v, t);
  }
  std::vector<float> inValues(tiles * 4), accValues(tiles * 4);
  for (unsigned i = 0; i != tiles * 4; ++i) {
    inValues[i] = float(i) * 0.5f;
    accValues[i] = float(100 - i);
  }
  graph.setInitialValue(in, ArrayRef<float>(inValues));
  graph.setInitialValue(acc, ArrayRef<float>(accValues));
  graph.createHostRead("after-acc", acc);
  Engine engine(graph, Sequence{Execute(cs), Execute(cs)});
  engine.load(device);
  engine.run();
  std::vector<float> out(tiles * 4);
  engine.readTensor("after-acc", out.data(), out.data() + out.size());
  for (unsigned i = 0; i != tiles * 4; ++i)
    CHECK(out[i] == accValues[i] + 2 * inValues[i]);
}

} // namespace

TEST_CASE("Bad graph construction is refused naming the culprit, and the "
          "graph stays usable",
          "[poplar][errors]") {
  Device device = smallModel();
  Graph graph(device.getTarget());
  std::stringstream codelet(accumulateCodelet);
  graph.addCodelets(codelet);
  Tensor v = graph.addVariable(FLOAT, {8}, "v");
  graph.setTileMapping(v, 0);
  ComputeSet cs = graph.addComputeSet("cs");

  expectError<tensor_creation_error>(
      "a shape whose element count overflows",
      [&] { graph.addVariable(FLOAT, {1ull << 40, 1ull << 40}, "huge"); },
      {"huge"});
  expectError<type_error>("an unsupported type",
                          [&] { graph.addVariable(DOUBLE, {2}, "dbl"); },
                          {"dbl"});
  expectError<poplar_error>(
      "a constant with too few values",
      [&] { graph.addConstant<float>(FLOAT, {3}, {1.0f, 2.0f}, "few"); },
      {"few"});
  expectError<invalid_tile_mapping>("a tile past the last",
                                    [&] { graph.setTileMapping(v, tiles); },
                                    {"'v'", std::to_string(tiles)});
  expectError<invalid_tile_mapping>(
      "a mapping with more tiles than the target",
      [&] {
        Graph::TileToTensorMapping m(tiles + 1);
        m[tiles] = {{0, 8}};
        graph.setTileMapping(v, m);
      },
      {"'v'"});
  expectError<invalid_tile_mapping>(
      "a mapping past the end of the tensor",
      [&] { graph.setTileMapping(v, Graph::TileToTensorMapping{{{0, 9}}}); },
      {"'v'"});
  Tensor unmapped = graph.addVariable(FLOAT, {3}, "unmapped");
  expectError<invalid_tile_mapping>("the mapping of an unmapped tensor",
                                    [&] { graph.getTileMapping(unmapped); },
                                    {"'unmapped'"});
  graph.setTileMapping(unmapped, 1);
  expectError<unknown_vertex_type>(
      "a vertex type no codelet defines",
      [&] { graph.addVertex(cs, "NoSuchVertex"); }, {"NoSuchVertex"});
  expectError<unknown_field>(
      "a field the vertex lacks",
      [&] { graph.addVertex(cs, "Accumulate", {{"nofield", v}}); },
      {"nofield", "Accumulate"});
  VertexRef vertex = graph.addVertex(cs, "Accumulate");
  graph.setTileMapping(vertex, 0);
  Tensor ints = graph.addVariable(INT, {8}, "ints");
  graph.setTileMapping(ints, 0);
  expectError<graph_connection_error>("a tensor of the wrong type",
                                      [&] { graph.connect(vertex["in"], ints); },
                                      {"in", "'ints'"});
  expectError<unknown_field>("connecting a field the vertex lacks",
                             [&] { graph.connect(vertex["nofield"], v); },
                             {"nofield"});
  expectError<invalid_tile_mapping>(
      "a vertex on a tile past the last",
      [&] { graph.setTileMapping(vertex, 99); }, {"99"});
  graph.connect(vertex["in"], v);
  Tensor acc0 = graph.addVariable(FLOAT, {8}, "acc0");
  graph.setTileMapping(acc0, 0);
  graph.connect(vertex["acc"], acc0);
  graph.createHostWrite("v-write", v);
  expectError<poplar_error>("a host write handle used twice",
                            [&] { graph.createHostWrite("v-write", v); },
                            {"v-write"});
  graph.addHostToDeviceFIFO("feed", FLOAT, 8);
  expectError<poplar_error>(
      "a stream handle used twice",
      [&] { graph.addHostToDeviceFIFO("feed", FLOAT, 8); }, {"feed"});
  expectError<poplar_error>(
      "a stream option that does not exist",
      [&] {
        graph.addHostToDeviceFIFO("feed2", FLOAT, 8,
                                  ReplicatedStreamMode::REPLICATE,
                                  {{"no.such.option", "1"}});
      },
      {"no.such.option"});
  expectError<invalid_tile_mapping>(
      "a virtual graph past the last tile",
      [&] { graph.createVirtualGraph(2, tiles + 3); },
      {std::to_string(tiles + 3)});
  expectError<poplar_error>("an empty virtual graph",
                            [&] { graph.createVirtualGraph(3, 2); }, {"3", "2"});

  checkStillUsable(graph, device);
}

TEST_CASE("Bad tensor views are refused naming the tensor, and the tensor "
          "stays usable",
          "[poplar][errors]") {
  Device device = smallModel();
  Graph graph(device.getTarget());
  std::stringstream codelet(accumulateCodelet);
  graph.addCodelets(codelet);
  Tensor m = graph.addVariable(FLOAT, {2, 3}, "m");
  graph.setTileMapping(m, 0);
  expectError<index_error>("a slice past the end", [&] { m.slice(0, 3, 0); },
                           {"'m'"});
  expectError<index_error>("a slice of a dimension that does not exist",
                           [&] { m.slice(0, 1, 2); }, {"'m'"});
  expectError<index_error>("an element past the end", [&] { m[2]; }, {"'m'"});
  expectError<tensor_creation_error>("a reshape to another element count",
                                     [&] { m.reshape({4, 2}); }, {"'m'"});
  expectError<tensor_creation_error>("a permutation naming a dimension twice",
                                     [&] { m.dimShuffle({1, 1}); }, {"'m'"});
  expectError<tensor_creation_error>("a permutation of the wrong length",
                                     [&] { m.dimShuffle({0}); }, {"'m'"});
  expectError<tensor_creation_error>("a sub-sample of stride 0",
                                     [&] { m.subSample(0, 1); }, {"'m'"});
  expectError<tensor_creation_error>("a transpose of a vector",
                           [&] { m.flatten().transpose(); }, {"'m'"});
  Tensor n = graph.addVariable(FLOAT, {2, 2}, "n");
  graph.setTileMapping(n, 1);
  expectError<tensor_creation_error>("concatenating tensors of different shapes",
                                     [&] { concat(m, n, 0); }, {"'m'"});
  // The views that failed took nothing from m: it is copied whole.
  Tensor copy = graph.clone(m, "copy");
  graph.createHostRead("copy", copy);
  std::vector<float> values{1, 2, 3, 4, 5, 6};
  graph.setInitialValue(m, ArrayRef<float>(values));
  Engine engine(graph, Copy(m.transpose().transpose(), copy));
  engine.load(device);
  engine.run();
  std::vector<float> out(6);
  engine.readTensor("copy", out.data(), out.data() + 6);
  CHECK(out == values);
}

TEST_CASE("Bad engine options, handles and indices are refused naming them, "
          "and the engine stays usable",
          "[poplar][errors]") {
  Device device = smallModel();
  Graph graph(device.getTarget());
  Tensor a = graph.addVariable(FLOAT, {4}, "a");
  Tensor b = graph.addVariable(FLOAT, {4}, "b");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 1);
  graph.createHostWrite("a", a);
  graph.createHostRead("b", b);
  DataStream feed = graph.addHostToDeviceFIFO("feed", FLOAT, 4);
  const Sequence prog{Copy(feed, a), Copy(a.reverse(0), b)};

  expectError<invalid_option>(
      "an option that does not exist",
      [&] { Engine(graph, prog, {{"no.such.option", "1"}}); },
      {"no.such.option"});
  expectError<invalid_option>(
      "a boolean option given a word",
      [&] { Engine(graph, prog, {{"debug.instrument", "sometimes"}}); },
      {"debug.instrument", "sometimes"});
  expectError<invalid_option>(
      "a number option given a word",
      [&] { Engine(graph, prog, {{"debug.retainDebugInformation", "7x"}}); },
      {"debug.retainDebugInformation"});
  {
    ::setenv("POPLAR_ENGINE_OPTIONS", "{\"autoReport.all\": ", 1);
    expectError<invalid_option>("POPLAR_ENGINE_OPTIONS that is not JSON",
                             [&] { Engine(graph, prog); },
                             {"POPLAR_ENGINE_OPTIONS"});
    ::unsetenv("POPLAR_ENGINE_OPTIONS");
  }

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> in{1, 2, 3, 4}, out(4);
  expectError<stream_connection_error>(
      "a stream that does not exist",
      [&] { engine.connectStream("nofeed", in.data()); }, {"nofeed"});
  expectError<stream_connection_error>("a run with a stream not connected",
                                       [&] { engine.run(); }, {"feed"});
  engine.connectStream("feed", in.data());
  expectError<index_error>("a program index past the last",
                           [&] { engine.run(5); }, {"5"});
  expectError<poplar_error>(
      "a read handle that does not exist",
      [&] { engine.readTensor("nob", out.data(), out.data() + 4); }, {"nob"});
  expectError<poplar_error>(
      "a read into a buffer of the wrong size",
      [&] { engine.readTensor("b", out.data(), out.data() + 3); }, {"'b'"});
  expectError<poplar_error>(
      "a write handle used to read",
      [&] { engine.readTensor("a", out.data(), out.data() + 4); }, {"'a'"});

  engine.run();
  engine.readTensor("b", out.data(), out.data() + 4);
  CHECK(out == std::vector<float>{4, 3, 2, 1});
}
