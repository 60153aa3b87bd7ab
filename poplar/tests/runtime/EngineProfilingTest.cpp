// The Engine's profiles: the structure the guide documents, the effect of
// the debug.* options, and the graph report of POPLAR_GRAPH_REPORT_DEST.
#include <catch2/catch.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;

namespace {

// A graph on 4 tiles of an Mk2 model with a stream in, a copy across
// tiles, a copy within a tile and a stream out.
struct Fixture {
  Device device;
  Graph graph;
  std::vector<Program> programs;
  std::vector<float> in = std::vector<float>(8, 1.0f);
  std::vector<float> out = std::vector<float>(8, 0.0f);

  Fixture() : device(makeDevice()), graph(device.getTarget()) {
    Tensor a = graph.addVariable(FLOAT, {8}, "a");
    Tensor b = graph.addVariable(FLOAT, {8}, "b");
    graph.setTileMapping(a.slice(0, 4), 0);
    graph.setTileMapping(a.slice(4, 8), 1);
    graph.setTileMapping(b, 1);
    DataStream s = graph.addHostToDeviceFIFO("in", FLOAT, 8);
    DataStream t = graph.addDeviceToHostFIFO("out", FLOAT, 8);
    programs = {Sequence{Copy(s, a), Copy(a, b), Copy(b, t)}};
  }

  static Device makeDevice() {
    IPUModel m("ipu2");
    m.tilesPerIPU = 4;
    return m.createDevice();
  }

  Engine run(const OptionFlags &options = {}) {
    Engine engine(graph, programs, options);
    engine.load(device);
    engine.connectStream("in", in.data());
    engine.connectStream("out", out.data());
    engine.run();
    return engine;
  }
};

struct ScopedEnv {
  std::string name;
  ScopedEnv(const char *n, const char *value) : name(n) { ::setenv(n, value, 1); }
  ~ScopedEnv() { ::unsetenv(name.c_str()); }
};

bool hasKeys(const ProfileValue &map, std::initializer_list<const char *> keys) {
  for (const char *k : keys)
    if (!map.getOrNull(k)) {
      UNSCOPED_INFO("missing key " << k);
      return false;
    }
  return true;
}

} // namespace

TEST_CASE("The graph profile has the guide's structure", "[engine][profiling]") {
  Fixture f;
  Engine engine = f.run();
  const ProfileValue g = engine.getGraphProfile();
  CHECK(hasKeys(g, {"target", "optimizationInfo", "graph", "vertexTypes",
                    "computeSets", "exchanges", "externalExchanges",
                    "hostExchanges", "programs", "controlPrograms",
                    "functionPrograms", "memory"}));
  const auto &target = g["target"];
  CHECK(hasKeys(target, {"type", "bytesPerIPU", "bytesPerTile", "clockFrequency",
                         "numIPUs", "tilesPerIPU", "numTiles", "totalMemory",
                         "relativeSyncDelayByTile", "minSyncDelay"}));
  CHECK(target["type"] == "IPU_MODEL");
  CHECK(target["numTiles"].asUint() == 4);
  CHECK(target["bytesPerTile"].asUint() == 624 * 1024);
  CHECK(target["totalMemory"].asUint() == 4 * 624 * 1024);
  CHECK(target["clockFrequency"].asDouble() == 1.33e9);
  CHECK(target["relativeSyncDelayByTile"].size() == 4);
  CHECK(hasKeys(g["graph"], {"numComputeSets", "numEdges", "numVars", "numVertices"}));
  CHECK(g["graph"]["numVars"].asUint() == 2);
  CHECK(hasKeys(g["vertexTypes"], {"names", "sizes"}));
  const auto &cs = g["computeSets"];
  CHECK(hasKeys(cs, {"names", "vertexCounts", "vertexTypes", "cycleEstimates"}));
  CHECK(hasKeys(cs["cycleEstimates"],
                {"activeCyclesByTile", "activeCyclesByVertexType", "cyclesByTile"}));
  // The on-tile part of Copy(a, b) is a generated compute set of
  // poplar_rt::LongMemcpy, [compute set][tile].
  REQUIRE(cs["names"].size() == 1);
  CHECK(g["vertexTypes"]["names"][0] == "poplar_rt::LongMemcpy");
  CHECK(cs["cycleEstimates"]["cyclesByTile"][0].size() == 4);
  CHECK(cs["cycleEstimates"]["cyclesByTile"][0][1].asUint() == 20 + 1 + 2);
  const auto &x = g["exchanges"];
  CHECK(hasKeys(x, {"bytesReceivedByTile", "bytesSentByTile", "cyclesByTile"}));
  REQUIRE(x["bytesSentByTile"].size() == 1);
  CHECK(x["bytesSentByTile"][0][0].asUint() == 16);
  CHECK(x["bytesReceivedByTile"][0][1].asUint() == 16);
  CHECK(hasKeys(g["hostExchanges"],
                {"bytesReceivedByTile", "bytesSentByTile", "estimatedCyclesByTile"}));
  CHECK(g["hostExchanges"]["bytesReceivedByTile"].size() == 2);
  CHECK(g["controlPrograms"].size() == 1);
  // Every program is a tagged union; children index the same array.
  const auto &programs = g["programs"].asVector();
  for (const auto &p : programs) {
    const std::string &type = p["type"].asString();
    CHECK((type == "Sequence" || type == "StreamCopy" || type == "DoExchange" ||
           type == "OnTileExecute"));
    if (const ProfileValue *children = p.getOrNull("children"))
      for (const auto &c : children->asVector())
        CHECK(c.asUint() < programs.size());
  }
  const auto &root = programs[g["controlPrograms"][0].asUint()];
  CHECK(root["type"] == "Sequence");
  CHECK(root["children"].size() == 3);
  const auto &memory = g["memory"];
  CHECK(hasKeys(memory, {"byTile", "byCategory", "byComputeSet", "byVertexType"}));
  CHECK(hasKeys(memory["byTile"],
                {"interleaved", "interleavedIncludingGaps", "nonInterleaved",
                 "nonInterleavedIncludingGaps", "overflowed",
                 "overflowedIncludingGaps", "total", "totalIncludingGaps"}));
  const auto &stack = memory["byCategory"]["stack"];
  CHECK(hasKeys(stack, {"interleaved", "nonInterleaved", "overflowed", "total"}));
  CHECK(hasKeys(stack["nonInterleaved"], {"nonOverlapped", "overlapped"}));
  CHECK(hasKeys(memory["byComputeSet"],
                {"codeBytes", "copyPtrBytes", "descriptorBytes", "edgePtrBytes",
                 "paddingBytes", "vertexDataBytes", "totalBytes"}));
  CHECK(memory["byComputeSet"]["copyPtrBytes"][0][1].asUint() == 8);
}

TEST_CASE("The execution profile has the guide's structure",
          "[engine][profiling]") {
  Fixture f;
  Engine engine = f.run();
  const ProfileValue e = engine.getExecutionProfile();
  CHECK(e["profilerMode"] == "IPU_MODEL");
  CHECK(hasKeys(e, {"programTrace", "simulation"}));
  const auto &sim = e["simulation"];
  CHECK(hasKeys(sim, {"cycles", "tileCycles", "steps"}));
  CHECK(hasKeys(sim["tileCycles"], {"activeCompute", "compute", "copySharedStructure",
                                    "doExchange", "globalExchange", "streamCopy",
                                    "sync"}));
  std::vector<std::string> types;
  std::uint64_t sumOfSteps = 0;
  for (const auto &s : sim["steps"].asVector()) {
    types.push_back(s["type"].asString());
    sumOfSteps += s["cycles"].asUint();
    if (s["type"] != "Sync")
      CHECK(hasKeys(s, {"program", "cycles", "cyclesFrom", "cyclesTo",
                        "tileBalance", "activeTiles", "activeTileBalance"}));
  }
  CHECK(types == std::vector<std::string>{"Sync", "StreamCopy", "Sync", "DoExchange",
                                          "OnTileExecute", "Sync", "StreamCopy"});
  CHECK(sumOfSteps == sim["cycles"].asUint());
  // Every tile's cycles are accounted for by some activity.
  const auto &tc = sim["tileCycles"];
  CHECK(tc["compute"].asUint() + tc["doExchange"].asUint() +
            tc["streamCopy"].asUint() + tc["sync"].asUint() ==
        4 * sim["cycles"].asUint());
  CHECK(sim["cyclesByTile"]["sync"].size() == 4);
  CHECK(e["programTrace"].size() == 4);
}

TEST_CASE("Instrumentation options add the measurements of their profiler "
          "modes",
          "[engine][profiling][options]") {
  Fixture f;
  CHECK_FALSE(f.run().getExecutionProfile().getOrNull("computeSetCyclesByTile"));
  {
    const ProfileValue e = f.run({{"debug.instrument", "true"}}).getExecutionProfile();
    CHECK(e["computeSetCyclesByTile"][0][1].asUint() == 23);
    CHECK(e["hostExchangeCycles"].size() == 2);
    CHECK(e["externalExchangeCycles"].size() == 0);
  }
  {
    const ProfileValue e =
        f.run({{"debug.instrumentCompute", "true"},
               {"debug.computeInstrumentationLevel", "device"}})
            .getExecutionProfile();
    CHECK(e["computeSetCycles"][0].asUint() == 23);
    CHECK_FALSE(e.getOrNull("hostExchangeCycles"));
  }
  {
    const ProfileValue e =
        f.run({{"debug.instrumentCompute", "true"},
               {"debug.computeInstrumentationLevel", "vertex"}})
            .getExecutionProfile();
    CHECK(hasKeys(e, {"vertexCycles", "vertexComputeSet", "vertexType"}));
  }
  {
    const ProfileValue e =
        f.run({{"debug.instrument", "true"},
               {"debug.instrumentExternalExchange", "false"}})
            .getExecutionProfile();
    CHECK(e.getOrNull("computeSetCyclesByTile"));
    CHECK_FALSE(e.getOrNull("hostExchangeCycles"));
  }
  // debug.instrument=false turns execution profiling off.
  CHECK_THROWS_AS(f.run({{"debug.instrument", "false"}}).getExecutionProfile(),
                  profiling_disabled);
  CHECK_NOTHROW(f.run({{"debug.instrument", "false"},
                       {"debug.instrumentCompute", "true"}})
                    .getExecutionProfile());
  // Without the compilation information there is no graph profile.
  CHECK_THROWS_WITH(
      f.run({{"debug.retainDebugInformation", "false"}}).getGraphProfile(),
      Contains("debug.retainDebugInformation"));
  // The options also come from POPLAR_ENGINE_OPTIONS.
  ScopedEnv env("POPLAR_ENGINE_OPTIONS", R"({"debug.instrument": "false"})");
  CHECK_THROWS_AS(f.run().getExecutionProfile(), profiling_disabled);
}

TEST_CASE("POPLAR_GRAPH_REPORT_DEST writes the graph summary when the engine "
          "is made",
          "[engine][profiling]") {
  Fixture f;
  const std::string path = "graph_report_test_output.txt";
  std::remove(path.c_str());
  {
    ScopedEnv env("POPLAR_GRAPH_REPORT_DEST", path.c_str());
    Engine engine(f.graph, f.programs);
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  CHECK_THAT(text.str(), Contains("Memory Usage:"));
  CHECK_THAT(text.str(), !Contains("Execution:"));
  std::remove(path.c_str());
  // The engine option does the same and wins.
  const std::string other = "graph_report_option_output.txt";
  {
    ScopedEnv env("POPLAR_GRAPH_REPORT_DEST", path.c_str());
    Engine engine(f.graph, f.programs, {{"debug.graphReportDestination", other}});
  }
  CHECK(std::ifstream(other).good());
  CHECK_FALSE(std::ifstream(path).good());
  std::remove(other.c_str());
}
