// The profile summary: the guide's layout, its options, and colours with
// CLICOLOR and CLICOLOR_FORCE.
#include <catch2/catch.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include <algorithm>
#include <cstdlib>
#include <sstream>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;

namespace {

// Profiles of a stream in, a copy across two tiles and one within a tile,
// and a stream out, on 4 tiles of an Mk2 model.
struct Profiles {
  ProfileValue graph;
  ProfileValue execution;
};

Profiles makeProfiles() {
  IPUModel m("ipu2");
  m.tilesPerIPU = 4;
  Device device = m.createDevice();
  Graph graph(device.getTarget());
  Tensor a = graph.addVariable(FLOAT, {8}, "a");
  Tensor b = graph.addVariable(FLOAT, {8}, "b");
  graph.setTileMapping(a.slice(0, 4), 0);
  graph.setTileMapping(a.slice(4, 8), 1);
  graph.setTileMapping(b, 1);
  DataStream s = graph.addHostToDeviceFIFO("in", FLOAT, 8);
  DataStream t = graph.addDeviceToHostFIFO("out", FLOAT, 8);
  Engine engine(graph, Sequence{Copy(s, a), Copy(a, b), Copy(b, t)});
  engine.load(device);
  std::vector<float> in(8, 1.0f), out(8);
  engine.connectStream("in", in.data());
  engine.connectStream("out", out.data());
  engine.run();
  return {engine.getGraphProfile(), engine.getExecutionProfile()};
}

std::string summary(const Profiles &p, const OptionFlags &opts = {}) {
  std::ostringstream out;
  printProfileSummary(out, p.graph, p.execution, opts);
  return out.str();
}

bool hasLine(const std::string &text, const std::string &line) {
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l))
    if (l == line)
      return true;
  UNSCOPED_INFO("no line '" << line << "'");
  return false;
}

struct ScopedEnv {
  std::string name;
  ScopedEnv(const char *n, const char *value) : name(n) { ::setenv(n, value, 1); }
  ~ScopedEnv() { ::unsetenv(name.c_str()); }
};

} // namespace

TEST_CASE("The summary has the target, graph, memory and execution",
          "[profiling][summary]") {
  const Profiles p = makeProfiles();
  const std::string s = summary(p);
  CHECK(hasLine(s, "Target:"));
  CHECK(hasLine(s, "  Number of IPUs:         1"));
  CHECK(hasLine(s, "  Tiles per IPU:          4"));
  CHECK(hasLine(s, "  Memory Per-Tile:        624.0 kB"));
  CHECK(hasLine(s, "  Total Memory:           2.4 MB"));
  CHECK(hasLine(s, "  Clock Speed (approx):   1,330.0 MHz"));
  CHECK(hasLine(s, "Graph:"));
  CHECK(hasLine(s, "  Number of variables:               2"));
  CHECK(hasLine(s, "Memory Usage:"));
  // Stacks of 3,168 on four tiles and 64 bytes of variables.
  CHECK(hasLine(s, "            Variables:                                   64 B"));
  CHECK(hasLine(s, "            Stack:                                   12,672 B"));
  CHECK(hasLine(s, "    0 tile(s) out of memory"));
  CHECK(hasLine(s, "Execution:"));
  // External sync 40, stream 6, sync 30, exchange 29 + 2, memcpy 20 + 1 +
  // 2, external sync 40, stream 8 (32 bytes from one tile at 4 a cycle).
  CHECK(hasLine(s, "  Total cycles:                                  178 (approx 0.1 "
                   "microseconds)"));
  CHECK(hasLine(s, "  Total compute cycles (including idle threads): 23 Estimated "
                   "(must enable debug.instrumentCompute)"));
  CHECK(hasLine(s, "  Total compute cycles (excluding idle threads): 23"));
  CHECK(hasLine(s, "  Total IPU exchange cycles:                     62"));
  CHECK(hasLine(s, "  Total global exchange cycles:                  Must enable "
                   "debug.instrumentExternalExchange"));
  CHECK(hasLine(s, "  Total host exchange cycles:                    " +
                       std::to_string(2 * 6 + 8)));
  CHECK(hasLine(s, "    poplar_rt::LongMemcpy          (1 instances):           23"));
  CHECK_THAT(s, !Contains("Steps"));
  CHECK_THAT(s, !Contains("\033["));
}

TEST_CASE("Summary options show more", "[profiling][summary]") {
  const Profiles p = makeProfiles();
  const std::string steps = summary(p, {{"showExecutionSteps", "true"}});
  CHECK(hasLine(steps, "Steps"));
  CHECK(hasLine(steps, "  --- External Sync ---"));
  CHECK(hasLine(steps, "  DoExchange (cycles 76 - 107): Copy/Exchange"));
  CHECK(hasLine(steps, "    Cycles:                             31 (0 overlapped with previous)"));
  CHECK(hasLine(steps, "    Active Tiles:                       2 / 4"));
  CHECK(hasLine(steps, "  StreamCopy (cycles 40 - 46): in"));
  const std::string vars = summary(p, {{"showVarStorage", "true"}});
  CHECK(hasLine(vars, "  Variable Storage Liveness: All tiles"));
  CHECK_THAT(vars, Contains("Always-live bytes: "));
  const std::string perIpu = summary(p, {{"showPerIpuMemoryUsage", "true"}});
  CHECK(hasLine(perIpu, "Memory on IPU 0:"));
  const std::string opt = summary(p, {{"showOptimizations", "true"}});
  CHECK(hasLine(opt, "Optimizations:"));
  // The graph and execution halves on their own.
  std::ostringstream graphOnly, execOnly;
  printGraphSummary(graphOnly, p.graph);
  printExecutionSummary(execOnly, p.graph, p.execution);
  CHECK_THAT(graphOnly.str(), Contains("Memory Usage:") && !Contains("Execution:"));
  CHECK_THAT(execOnly.str(), Contains("Execution:") && !Contains("Memory Usage:"));
  // An empty execution profile prints the graph half only.
  std::ostringstream noExec;
  printProfileSummary(noExec, p.graph);
  CHECK(noExec.str() == graphOnly.str());
}

TEST_CASE("Summary options are checked", "[profiling][summary][options]") {
  const Profiles p = makeProfiles();
  CHECK_THROWS_WITH(summary(p, {{"showEverything", "true"}}),
                    Contains("'showEverything'"));
  for (const char *name : {"colours", "showVarStorage", "showOptimizations",
                           "showExecutionSteps", "showPerIpuMemoryUsage",
                           "showExchangeInstructionBreakdown"}) {
    INFO(name);
    CHECK_THROWS_AS(summary(p, {{name, "on"}}), invalid_option);
    CHECK_THROWS_WITH(summary(p, {{name, "on"}}), Contains(std::string("'") + name + "'"));
    CHECK_NOTHROW(summary(p, {{name, "false"}}));
  }
  std::ostringstream out;
  CHECK_THROWS_AS(printGraphSummary(out, ProfileValue()), poplar_error);
}

TEST_CASE("Colours follow the option, CLICOLOR and CLICOLOR_FORCE",
          "[profiling][summary]") {
  const Profiles p = makeProfiles();
  ::unsetenv("CLICOLOR");
  ::unsetenv("CLICOLOR_FORCE");
  CHECK_THAT(summary(p, {{"colours", "true"}}), Contains("\033["));
  CHECK_THAT(summary(p, {{"colours", "false"}}), !Contains("\033["));
  CHECK_THAT(summary(p), !Contains("\033[")); // not a terminal
  {
    ScopedEnv off("CLICOLOR", "0");
    CHECK_THAT(summary(p, {{"colours", "true"}}), !Contains("\033["));
    ScopedEnv force("CLICOLOR_FORCE", "1");
    CHECK_THAT(summary(p, {{"colours", "false"}}), Contains("\033["));
  }
}

TEST_CASE("Engine::printProfileSummary prints both halves",
          "[profiling][summary]") {
  IPUModel m("ipu1");
  m.tilesPerIPU = 2;
  Device device = m.createDevice();
  Graph graph(device.getTarget());
  Engine engine(graph, Sync(SyncType::INTERNAL));
  engine.load(device);
  engine.run();
  std::ostringstream out;
  engine.printProfileSummary(out, {{"showExecutionSteps", "true"}});
  CHECK(hasLine(out.str(), "  Total cycles:                                  30 (approx 0.0 microseconds)"));
  CHECK(hasLine(out.str(), "  --- Internal Sync ---"));
  // Without execution profiling, the graph half only.
  Engine quiet(graph, Sync(SyncType::INTERNAL), {{"debug.instrument", "false"}});
  std::ostringstream graphOnly;
  quiet.printProfileSummary(graphOnly);
  CHECK_THAT(graphOnly.str(), Contains("Memory Usage:") && !Contains("Execution:"));
}
