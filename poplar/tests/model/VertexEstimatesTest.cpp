// Compute sets of codelet vertices on the IPU Model: the cycles of the
// vertices' estimates scheduled as the model defines, exchanges for edges
// on other tiles, the default estimate (and its warning, once per type)
// and vertex state in tile memory. The expected numbers are worked out by
// hand from poplar/src/model/README.md.
#include <catch2/catch.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include <tbb/global_control.h>

#include <fstream>
#include <sstream>

using namespace poplar;
using namespace poplar::program;

namespace {

// 4 tiles of an Mk2 model: syncs of 30 cycles, six workers.
struct ModelGraph {
  Device device;
  Graph graph;
  ModelGraph() : device(make()), graph(device.getTarget()) {
    graph.addCodelets(MODEL_CODELETS);
  }
  static Device make() {
    IPUModel m("ipu2");
    m.tilesPerIPU = 4;
    return m.createDevice();
  }
  Tensor on(unsigned tile, std::size_t n, const std::string &name) {
    Tensor t = graph.addVariable(FLOAT, {n}, name);
    graph.setTileMapping(t, tile);
    return t;
  }
  ProfileValue run(const Program &prog) {
    Engine engine(graph, prog);
    engine.load(device);
    engine.run();
    return engine.getExecutionProfile();
  }
};

std::uint64_t at(const ProfileValue &v, std::size_t i) { return v[i].asUint(); }

} // namespace

TEST_CASE("A compute set's cycles follow the vertices' estimates",
          "[model][vertex]") {
  ModelGraph g;
  ComputeSet cs = g.graph.addComputeSet("cs");
  // Tile 0: seven Sum vertices of 10, 20, ... 70 cycles. Six contexts get
  // the first six; the seventh joins the context with 10: 80, so 6 x 80.
  for (unsigned i = 0; i != 7; ++i) {
    VertexRef v = g.graph.addVertex(cs, "Sum", {{"in", g.on(0, 4, "")}, {"out", g.on(0, 1, "")}});
    g.graph.setTileMapping(v, 0);
    g.graph.setPerfEstimate(v, 10 * (i + 1));
  }
  // Tile 1: two Scale (all workers) of 100 and 50 and a Sum of 30:
  // 6 x 30 + 100 + 50.
  for (unsigned c : {100u, 50u}) {
    VertexRef v = g.graph.addVertex(cs, "Scale", {{"in", g.on(1, 8, "")}, {"out", g.on(1, 8, "")}});
    g.graph.setTileMapping(v, 1);
    g.graph.setPerfEstimate(v, c);
  }
  VertexRef sum = g.graph.addVertex(cs, "Sum", {{"in", g.on(1, 4, "")}, {"out", g.on(1, 1, "")}});
  g.graph.setTileMapping(sum, 1);
  g.graph.setCycleEstimate(sum, 30);
  // Tile 2: a supervisor vertex of 200.
  VertexRef neg = g.graph.addVertex(cs, "Negate", {{"data", g.on(2, 8, "")}});
  g.graph.setTileMapping(neg, 2);
  g.graph.setPerfEstimate(neg, 200);

  Engine engine(g.graph, Execute(cs));
  engine.load(g.device);
  engine.run();
  const ProfileValue graph = engine.getGraphProfile();
  const auto &est = graph["computeSets"]["cycleEstimates"];
  CHECK(at(est["cyclesByTile"][0], 0) == 480);
  CHECK(at(est["cyclesByTile"][0], 1) == 330);
  CHECK(at(est["cyclesByTile"][0], 2) == 200);
  CHECK(at(est["cyclesByTile"][0], 3) == 0);
  CHECK(at(est["activeCyclesByTile"][0], 0) == 280);
  CHECK(at(est["activeCyclesByTile"][0], 1) == 180);
  // By type, in the order the types were added: Sum, Scale, Negate.
  CHECK(graph["vertexTypes"]["names"][0] == "Sum");
  CHECK(at(est["activeCyclesByVertexType"][0], 0) == 310);
  CHECK(at(est["activeCyclesByVertexType"][0], 1) == 150);
  CHECK(at(est["activeCyclesByVertexType"][0], 2) == 200);
  CHECK(at(graph["computeSets"]["vertexCounts"][0], 0) == 8);
  // Everything is on its tile: a sync then the compute set.
  const ProfileValue exec = engine.getExecutionProfile();
  CHECK(exec["simulation"]["cycles"].asUint() == 30 + 480);
  CHECK(exec["simulation"]["tileCycles"]["compute"].asUint() == 480 + 330 + 200);
  CHECK(exec["simulation"]["tileCycles"]["activeCompute"].asUint() == 660);
  const auto &step = exec["simulation"]["steps"][1];
  CHECK(step["type"] == "OnTileExecute");
  CHECK(step["threadBalance"].asDouble() == Approx(660.0 / 1010.0));
  CHECK(step["activeTiles"].asUint() == 3);
}

TEST_CASE("Edges on other tiles are exchanged before and after compute",
          "[model][vertex]") {
  ModelGraph g;
  ComputeSet cs = g.graph.addComputeSet("remote");
  Tensor in = g.on(1, 100, "in");
  Tensor out = g.on(2, 1, "out");
  VertexRef v = g.graph.addVertex(cs, "Sum", {{"in", in}, {"out", out}});
  g.graph.setTileMapping(v, 0);
  g.graph.setPerfEstimate(v, 10);
  // Two vertices on tile 3 read the same elements: received once.
  for (unsigned i = 0; i != 2; ++i) {
    VertexRef w = g.graph.addVertex(cs, "Sum", {{"in", in.slice(0, 50)}, {"out", g.on(3, 1, "")}});
    g.graph.setTileMapping(w, 3);
    g.graph.setPerfEstimate(w, 10);
  }
  const ProfileValue exec = g.run(Execute(cs));
  std::vector<std::string> steps;
  for (const auto &s : exec["simulation"]["steps"].asVector())
    steps.push_back(s["type"].asString() + " " + std::to_string(s["cycles"].asUint()));
  // Before compute, tile 1 broadcasts its 400 bytes: the 200 tile 3
  // reads are among the 400 tile 0 reads, so they leave tile 1 once.
  // Tiles 0 and 3 receive 400 and 200. Their supertile neighbours (0, 1
  // and 2) do not move data the same way, so each uses 8 bytes a cycle:
  // the slowest is 400 / 8 = 50, plus 29. After compute (6 x 10), tile 0
  // sends 4 bytes to tile 2: 29 + 1.
  CHECK(steps == std::vector<std::string>{"Sync 30", "DoExchange 79",
                                          "OnTileExecute 60", "Sync 30",
                                          "DoExchange 30"});
  CHECK(exec["simulation"]["steps"][1]["totalData"].asUint() == 600);
}

TEST_CASE("A vertex without an estimate gets the default, with one warning",
          "[model][vertex]") {
  ModelGraph g;
  ComputeSet cs = g.graph.addComputeSet("default");
  for (unsigned i = 0; i != 2; ++i) {
    VertexRef v = g.graph.addVertex(cs, "Unestimated",
                                    {{"in", g.on(1, 8, "")}, {"out", g.on(1, 1, "")}});
    g.graph.setInitialValue(v["bias"], 1.0f);
    g.graph.setTileMapping(v, 1);
  }
  // 10 + 2 regions x 2 + 9 elements = 23 thread cycles each; two vertices
  // on two contexts: 6 x 23.
  ProfileValue exec = g.run(Execute(cs));
  CHECK(exec["simulation"]["steps"][1]["cycles"].asUint() == 6 * 23);
  exec = g.run(Execute(cs)); // compiled again: no second warning
  std::ifstream log(MODEL_LOG);
  std::stringstream text;
  text << log.rdbuf();
  const std::string s = text.str();
  const std::string warning = "Vertex type 'Unestimated' has no cycle estimate";
  const auto first = s.find(warning);
  CHECK(first != std::string::npos);
  CHECK(s.find(warning, first + 1) == std::string::npos);
}

TEST_CASE("Vertex state and exchange buffers take tile memory",
          "[model][vertex][memory]") {
  ModelGraph g;
  ComputeSet cs = g.graph.addComputeSet("memory");
  Tensor in = g.on(1, 10, "in");
  VertexRef v = g.graph.addVertex(cs, "Sum", {{"in", in}, {"out", g.on(0, 1, "out")}});
  g.graph.setTileMapping(v, 0);
  g.graph.setPerfEstimate(v, 10);
  VertexRef u = g.graph.addVertex(cs, "Unestimated",
                                  {{"in", g.on(2, 4, "x")}, {"out", g.on(2, 1, "y")}});
  g.graph.setInitialValue(u["bias"], 2.0f);
  g.graph.setTileMapping(u, 2);
  Engine engine(g.graph, Execute(cs));
  const ProfileValue p = engine.getGraphProfile();
  // Sum: a vector edge (pointer and size, 8) and a scalar edge (4).
  // Unestimated: 8 + 4 and a float of state.
  CHECK(at(p["vertexTypes"]["sizes"], 0) == 12);
  CHECK(at(p["vertexTypes"]["sizes"], 1) == 16);
  const auto &cat = p["memory"]["byCategory"];
  CHECK(cat["vertexInstanceState"]["total"][0].asUint() == 12);
  CHECK(cat["vertexInstanceState"]["total"][2].asUint() == 16);
  // Tile 0 receives the 40 bytes of `in` into a message buffer.
  CHECK(cat["message"]["nonInterleaved"]["overlapped"][0].asUint() == 40);
  const auto &byCs = p["memory"]["byComputeSet"];
  CHECK(at(byCs["edgePtrBytes"][0], 0) == 12);
  CHECK(at(byCs["vertexDataBytes"][0], 2) == 4);
  // Tile 0: stack, out (4 bytes), the vertex (12) and the buffer (40).
  CHECK(at(p["memory"]["byTile"]["total"], 0) == 3168 + 4 + 12 + 40);
}

TEST_CASE("Estimators registered with a vertex type", "[model][vertex]") {
  ModelGraph g;
  // Sum: 7 + 2 per input element, and one flop per element.
  g.graph.registerPerfEstimator(
      "Sum", [](const VertexIntrospector &v, const Target &target) {
        const auto n = v.getFieldInfo("in").size();
        CHECK(v.getFieldInfo("out").size() == 1);
        CHECK_THROWS_AS(v.getFieldInfo("missing"), unknown_field);
        return VertexPerfEstimate(7 + 2 * n, n);
      });
  // Unestimated: its state value is part of the estimate.
  g.graph.registerPerfEstimator(
      "Unestimated", [](const VertexIntrospector &v, const Target &target) {
        return VertexPerfEstimate(
            std::uint64_t(v.getFieldInfo("bias").getInitialValue<float>(target)));
      });
  ComputeSet cs = g.graph.addComputeSet("cs");
  VertexRef a = g.graph.addVertex(cs, "Sum", {{"in", g.on(0, 10, "")}, {"out", g.on(0, 1, "")}});
  VertexRef b = g.graph.addVertex(cs, "Sum", {{"in", g.on(1, 4, "")}, {"out", g.on(1, 1, "")}});
  VertexRef c = g.graph.addVertex(cs, "Sum", {{"in", g.on(2, 4, "")}, {"out", g.on(2, 1, "")}});
  VertexRef d = g.graph.addVertex(cs, "Unestimated", {{"in", g.on(3, 2, "")}, {"out", g.on(3, 1, "")}});
  g.graph.setInitialValue(d["bias"], 40.0f);
  g.graph.setTileMapping(a, 0);
  g.graph.setTileMapping(b, 1);
  g.graph.setTileMapping(c, 2);
  g.graph.setTileMapping(d, 3);
  g.graph.setPerfEstimate(c, 100); // an explicit estimate wins
  Engine engine(g.graph, Execute(cs));
  const ProfileValue graph = engine.getGraphProfile();
  const auto &est = graph["computeSets"]["cycleEstimates"]["cyclesByTile"][0];
  // One worker vertex per tile: 6 x its estimate.
  CHECK(at(est, 0) == 6 * (7 + 2 * 10));
  CHECK(at(est, 1) == 6 * (7 + 2 * 4));
  CHECK(at(est, 2) == 6 * 100);
  CHECK(at(est, 3) == 6 * 40);
}

TEST_CASE("A failing estimator names the vertex", "[model][vertex]") {
  ModelGraph g;
  g.graph.registerPerfEstimator(
      "Sum", [](const VertexIntrospector &v, const Target &) -> VertexPerfEstimate {
        return VertexPerfEstimate(v.getFieldInfo("nope").size());
      });
  ComputeSet cs = g.graph.addComputeSet("bad");
  VertexRef a = g.graph.addVertex(cs, "Sum", {{"in", g.on(0, 3, "")}, {"out", g.on(0, 1, "")}});
  g.graph.setTileMapping(a, 0);
  CHECK_THROWS_AS(Engine(g.graph, Execute(cs)), graph_program_compilation_error);
  CHECK_THROWS_WITH(Engine(g.graph, Execute(cs)),
                    Catch::Matchers::Contains("Sum") &&
                        Catch::Matchers::Contains("'nope'"));
}

namespace {

// 1,000 Sum vertices over 4 tiles, each reading a strided view of a
// variable spread over the tiles (so that edges are gathered and data
// crosses tiles), compiled, loaded and run with the given number of host
// threads; returns both profiles as JSON and the sums.
std::string compiledWith(unsigned threads, std::vector<float> &sums) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            threads);
  ModelGraph g;
  Tensor x = g.graph.addVariable(FLOAT, {1000, 8}, "x");
  Tensor out = g.graph.addVariable(FLOAT, {1000}, "out");
  g.graph.setTileMapping(x, Graph::TileToTensorMapping{
                                {{0, 3000}}, {{3000, 5000}}, {{5000, 8000}}, {}});
  for (std::size_t i = 0; i != 1000; i += 100)
    g.graph.setTileMapping(out.slice(i, i + 100), unsigned(i / 100 % 4));
  ComputeSet cs = g.graph.addComputeSet("cs");
  for (unsigned i = 0; i != 1000; ++i) {
    // Column i % 8 of rows i to i + 3 (wrapping): a stride of 8.
    std::vector<Tensor> rows;
    for (unsigned r = 0; r != 4; ++r)
      rows.push_back(x[(i + r) % 1000].slice(i % 8, i % 8 + 1));
    VertexRef v = g.graph.addVertex(cs, "Sum", {{"in", concat(rows)}, {"out", out[i]}});
    g.graph.setTileMapping(v, (i * 7) % 4);
    g.graph.setPerfEstimate(v, 10 + i % 13);
  }
  g.graph.createHostWrite("x", x);
  g.graph.createHostRead("out", out);
  Engine engine(g.graph, Execute(cs));
  engine.load(g.device);
  std::vector<float> in(8000);
  for (std::size_t k = 0; k != in.size(); ++k)
    in[k] = float(k % 97) * 0.25f;
  engine.writeTensor("x", in.data(), in.data() + in.size());
  engine.run();
  sums.assign(1000, 0);
  engine.readTensor("out", sums.data(), sums.data() + sums.size());
  std::ostringstream json;
  // Everything but optimizationInfo, which holds how long estimation took.
  ProfileValue graph = engine.getGraphProfile();
  graph.asMap().erase("optimizationInfo");
  serializeToJSON(json, graph);
  serializeToJSON(json, engine.getExecutionProfile());
  return json.str();
}

// A graph whose vertices 300 and 700 (of 1,000) have no input connected:
// the error names the first whatever the thread count.
std::string firstError(unsigned threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            threads);
  ModelGraph g;
  Tensor x = g.on(0, 1000, "x");
  Tensor out = g.on(1, 1000, "out");
  ComputeSet cs = g.graph.addComputeSet("cs");
  for (unsigned i = 0; i != 1000; ++i) {
    VertexRef v = g.graph.addVertex(cs, "Sum");
    if (i != 300 && i != 700)
      g.graph.connect(v["in"], x.slice(i, i + 1));
    g.graph.connect(v["out"], out[i]);
    g.graph.setTileMapping(v, i % 4);
  }
  try {
    Engine engine(g.graph, Execute(cs));
  } catch (const graph_connection_error &e) {
    return e.what();
  }
  return "no error";
}

} // namespace

TEST_CASE("Plans, estimates and errors do not depend on the host threads",
          "[model][vertex][determinism]") {
  std::vector<float> one, two, many;
  const std::string a = compiledWith(1, one);
  CHECK(a == compiledWith(2, two));
  CHECK(a == compiledWith(8, many));
  CHECK(one == two);
  CHECK(one == many);
  // Each sum is of four elements of column i % 8, added in order.
  for (unsigned i = 0; i < 1000; i += 111) {
    float sum = 0;
    for (unsigned r = 0; r != 4; ++r)
      sum += float(((i + r) % 1000 * 8 + i % 8) % 97) * 0.25f;
    CHECK(one[i] == sum);
  }
  const std::string error = firstError(1);
  CHECK_THAT(error, Catch::Matchers::Contains("vertex 300"));
  CHECK(firstError(2) == error);
  CHECK(firstError(8) == error);
}
