// The IPU Model's estimates of graphs without vertices (copies, streams,
// syncs, control flow, memory), seen through the Engine's profiles and
// checked against numbers worked out by hand from the documented model
// (poplar/src/model/README.md).
#include <catch2/catch.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include <numeric>
#include <sstream>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;

namespace {

Device modelDevice(const char *version, unsigned tiles, unsigned ipus = 1) {
  IPUModel m(version);
  m.tilesPerIPU = tiles;
  m.numIPUs = ipus;
  return m.createDevice();
}

// Runs prog once on the device; returns the execution profile.
ProfileValue runOnce(Graph &graph, const Device &device, const Program &prog,
                     const OptionFlags &options = {}) {
  Engine engine(graph, prog, options);
  engine.load(device);
  engine.run();
  return engine.getExecutionProfile();
}

std::uint64_t cycles(const ProfileValue &exec) {
  return exec["simulation"]["cycles"].asUint();
}

// The steps of the simulation other than syncs, as "type cycles".
std::vector<std::string> work(const ProfileValue &exec) {
  std::vector<std::string> out;
  for (const auto &s : exec["simulation"]["steps"].asVector())
    out.push_back(s["type"].asString() + " " + std::to_string(s["cycles"].asUint()));
  return out;
}

} // namespace

TEST_CASE("A copy between tiles costs a sync and an exchange of its bytes",
          "[model][estimates]") {
  // Mk1, 4 tiles: an internal sync is minIPUSyncDelay (30) plus 4 / 16.
  Device device = modelDevice("ipu1", 4);
  Graph graph(device.getTarget());
  Tensor a = graph.addVariable(FLOAT, {100}, "a");
  Tensor b = graph.addVariable(FLOAT, {100}, "b");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 1);
  const ProfileValue exec = runOnce(graph, device, Copy(a, b));
  // 400 bytes at 4 per cycle after 29 cycles of latency.
  CHECK(work(exec) == std::vector<std::string>{"Sync 30", "DoExchange 129"});
  CHECK(cycles(exec) == 159);
  const auto &tc = exec["simulation"]["tileCycles"];
  CHECK(tc["doExchange"].asUint() == 2 * 129); // the sender and the receiver
  CHECK(tc["sync"].asUint() == 4 * 30 + 4 * 129 - 2 * 129);
  const auto &step = exec["simulation"]["steps"][1];
  CHECK(step["totalData"].asUint() == 400);
  CHECK(step["activeTiles"].asUint() == 2);
  CHECK(step["tileBalance"].asDouble() == Approx(0.5));
  CHECK(step["cyclesFrom"].asUint() == 30);
  CHECK(step["cyclesTo"].asUint() == 159);
}

TEST_CASE("On Mk2 an exchange uses the supertile's bus when the neighbour "
          "is idle",
          "[model][estimates]") {
  Device device = modelDevice("ipu2", 4);
  Graph graph(device.getTarget());
  Tensor a = graph.addVariable(FLOAT, {100}, "a");
  Tensor b = graph.addVariable(FLOAT, {100}, "b");
  Tensor c = graph.addVariable(FLOAT, {100}, "c");
  Tensor d = graph.addVariable(FLOAT, {100}, "d");
  for (auto [t, tile] : {std::pair{a, 0u}, {b, 2u}, {c, 1u}, {d, 3u}})
    graph.setTileMapping(t, tile);
  // One tile of each supertile busy: 8 bytes per cycle.
  CHECK(work(runOnce(graph, device, Copy(a, b)))[1] == "DoExchange 79");
  // Both tiles of each supertile busy: 4 bytes per cycle.
  CHECK(work(runOnce(graph, device, Copy(concat(a, c), concat(b, d))))[1] ==
        "DoExchange 129");
}

TEST_CASE("A copy within a tile is a memcpy vertex", "[model][estimates]") {
  Device device = modelDevice("ipu1", 4);
  Graph graph(device.getTarget());
  Tensor a = graph.addVariable(FLOAT, {100}, "a");
  Tensor b = graph.addVariable(FLOAT, {100}, "b");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 0);
  const ProfileValue exec = runOnce(graph, device, Copy(a, b));
  // 20 cycles to start, 1 per piece, 400 bytes at 8 per cycle.
  CHECK(work(exec) == std::vector<std::string>{"Sync 30", "OnTileExecute 71"});
  // A strided copy moves an element a cycle; the transpose is ten pieces.
  Graph g2(device.getTarget());
  Tensor m = g2.addVariable(FLOAT, {10, 10}, "m");
  Tensor n = g2.addVariable(FLOAT, {10, 10}, "n");
  g2.setTileMapping(m, 1);
  g2.setTileMapping(n, 1);
  CHECK(work(runOnce(g2, device, Copy(m.transpose(), n)))[1] == "OnTileExecute " +
        std::to_string(20 + 10 + 100));
}

TEST_CASE("A stream copy costs an external sync and the host link",
          "[model][estimates]") {
  // Mk2: the external sync is 30 ns (40 cycles at 1.33 GHz); the host
  // moves 8 GB/s, 6.015 bytes per cycle.
  Device device = modelDevice("ipu2", 4);
  Graph graph(device.getTarget());
  Tensor v = graph.addVariable(FLOAT, {1001}, "v");
  for (unsigned t = 0; t != 4; ++t)
    graph.setTileMapping(v.slice(t * 250, t == 3 ? 1001 : (t + 1) * 250), t);
  DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, 1001);
  Engine engine(graph, Copy(in, v));
  engine.load(device);
  std::vector<float> data(1001, 1.0f);
  engine.connectStream("in", data.data());
  engine.run();
  const ProfileValue exec = engine.getExecutionProfile();
  // 4004 bytes / 6.015 = 665.7: 666 (a tile's 1004 / 4 = 251 is less).
  CHECK(work(exec) == std::vector<std::string>{"Sync 40", "StreamCopy 666"});
  const auto &step = exec["simulation"]["steps"][1];
  CHECK(step["hostExchange"].asUint() == 0);
  CHECK(step["name"] == "in");
  CHECK(exec["simulation"]["tileCycles"]["streamCopy"].asUint() == 4 * 666);
}

TEST_CASE("Copies between IPUs are global exchanges after an external sync",
          "[model][estimates]") {
  Device device = modelDevice("ipu2", 4, 2);
  Graph graph(device.getTarget());
  Tensor a = graph.addVariable(FLOAT, {100}, "a");
  Tensor b = graph.addVariable(FLOAT, {100}, "b");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 4); // tile 0 of IPU 1
  const ProfileValue exec = runOnce(graph, device, Copy(a, b));
  // The tile's port limits: 400 / 4 = 100, plus 29 cycles of latency.
  CHECK(work(exec) ==
        std::vector<std::string>{"Sync 30", "Sync 40", "GlobalExchange 129"});
  CHECK(exec["simulation"]["tileCycles"]["globalExchange"].asUint() == 2 * 129);
}

TEST_CASE("Each IPU has its own clock until the IPUs exchange",
          "[model][estimates]") {
  Device device = modelDevice("ipu2", 4, 2);
  Graph graph(device.getTarget());
  auto on = [&](unsigned tile, std::size_t n, const char *name) {
    Tensor t = graph.addVariable(FLOAT, {n}, name);
    graph.setTileMapping(t, tile);
    return t;
  };
  // A long copy within tile 0 (IPU 0), a short one within tile 4 (IPU 1).
  Tensor a0 = on(0, 4000, "a0"), b0 = on(0, 4000, "b0");
  Tensor a1 = on(4, 400, "a1"), b1 = on(4, 400, "b1");
  Tensor c1 = on(5, 4000, "c1");
  const ProfileValue apart =
      runOnce(graph, device, Sequence{Copy(a0, b0), Copy(a1, b1)});
  const auto &steps = apart["simulation"]["steps"].asVector();
  REQUIRE(steps.size() == 4); // each copy: a sync and a memcpy compute set
  const auto ipusOf = [](const ProfileValue &step) {
    std::vector<unsigned> out;
    for (const auto &i : step["ipus"].asVector())
      out.push_back(unsigned(i.asUint()));
    return out;
  };
  CHECK(ipusOf(steps[1]) == std::vector<unsigned>{0});
  CHECK(ipusOf(steps[3]) == std::vector<unsigned>{1});
  const std::uint64_t sync = steps[0]["cycles"].asUint();
  const std::uint64_t long0 = steps[1]["cycles"].asUint();
  const std::uint64_t short1 = steps[3]["cycles"].asUint();
  REQUIRE(long0 > short1);
  // IPU 1 starts its copy while IPU 0 is still copying: the run takes the
  // longer of the two, not their sum.
  CHECK(steps[3]["cyclesFrom"].asUint() == sync);
  CHECK(cycles(apart) == sync + long0);
  CHECK(apart["simulation"]["cyclesByIpu"][0].asUint() == sync + long0);
  CHECK(apart["simulation"]["cyclesByIpu"][1].asUint() == sync + short1);
  // Every tile's time is accounted for: IPU 1's tiles wait for IPU 0.
  std::uint64_t all = 0;
  for (const auto &[key, value] : apart["simulation"]["tileCycles"].asMap())
    if (key != "activeCompute")
      all += value.asUint();
  CHECK(all == cycles(apart) * 8);

  // A copy from IPU 0 to IPU 1 waits for both: its syncs start when the
  // slower IPU is done.
  const ProfileValue joined = runOnce(
      graph, device, Sequence{Copy(a0, b0), Copy(a1, b1), Copy(b0, c1)});
  const auto &js = joined["simulation"]["steps"].asVector();
  REQUIRE(js.size() == 7);
  CHECK(ipusOf(js[6]) == std::vector<unsigned>{0, 1});
  CHECK(js[6]["type"].asString() == "GlobalExchange");
  CHECK(cycles(joined) == sync + long0 + js[4]["cycles"].asUint() +
                              js[5]["cycles"].asUint() + js[6]["cycles"].asUint());
  CHECK(js[6]["cyclesTo"].asUint() == cycles(joined));

  // One IPU: one clock, no per-IPU fields.
  Device one = modelDevice("ipu2", 4);
  Graph g1(one.getTarget());
  Tensor x = g1.addVariable(FLOAT, {400}, "x"), y = g1.addVariable(FLOAT, {400}, "y");
  g1.setTileMapping(x, 0);
  g1.setTileMapping(y, 1);
  const ProfileValue single = runOnce(g1, one, Sequence{Copy(x, y), Copy(y, x)});
  CHECK(single["simulation"].getOrNull("cyclesByIpu") == nullptr);
  CHECK(single["simulation"]["steps"][0].getOrNull("ipus") == nullptr);
  std::uint64_t sum = 0;
  for (const auto &step : single["simulation"]["steps"].asVector())
    sum += step["cycles"].asUint();
  CHECK(cycles(single) == sum);
}

TEST_CASE("Control flow costs supervisor instructions and syncs",
          "[model][estimates]") {
  // Mk1, 4 tiles: six cycles per supervisor instruction; syncs of 30.
  Device device = modelDevice("ipu1", 4);
  Graph graph(device.getTarget());
  Tensor flag = graph.addVariable(INT, {}, "flag");
  graph.setTileMapping(flag, 2);
  graph.setInitialValue(flag, 1);
  const Sync sync(SyncType::INTERNAL);

  // Repeat: 2 instructions an iteration.
  CHECK(cycles(runOnce(graph, device, Repeat(3, sync))) == 3 * (12 + 30));
  // If: 3 instructions and a sync to agree on the predicate, then a branch.
  CHECK(cycles(runOnce(graph, device, If(flag, sync, Sequence{}))) == 18 + 30 + 30);
  CHECK(cycles(runOnce(graph, device, If(flag, Sequence{}, sync))) == 18 + 30);
  // Switch: the control value goes from its tile (2) to the other three
  // (12 bytes out: 3 cycles) after a sync; 2 + 1 per case instructions.
  CHECK(cycles(runOnce(graph, device, Switch(flag, {{0, sync}, {1, Sequence{}}}))) ==
        30 + (29 + 3) + 4 * 6);
  // Call: 2 instructions.
  Function f = graph.addFunction(sync);
  CHECK(cycles(runOnce(graph, device, Call(f))) == 12 + 30);
  // RepeatWhileFalse with a true predicate: one test (3 instructions and
  // a sync) after the condition program.
  CHECK(cycles(runOnce(graph, device, RepeatWhileFalse(sync, flag, sync))) ==
        30 + 18 + 30);
}

TEST_CASE("Runs add up until the execution profile is reset",
          "[model][estimates]") {
  Device device = modelDevice("ipu1", 4);
  Graph graph(device.getTarget());
  Engine engine(graph, Sync(SyncType::EXTERNAL));
  engine.load(device);
  engine.run();
  engine.run();
  CHECK(cycles(engine.getExecutionProfile()) == 2 * 48);
  CHECK(engine.getExecutionProfile()["simulation"]["steps"].size() == 2);
  engine.resetExecutionProfile();
  CHECK(cycles(engine.getExecutionProfile()) == 0);
  engine.disableExecutionProfiling();
  engine.run();
  CHECK(cycles(engine.getExecutionProfile()) == 0);
  engine.enableExecutionProfiling();
  engine.run();
  CHECK(cycles(engine.getExecutionProfile()) == 48);
}

TEST_CASE("Tile memory holds stacks and variables with alignment gaps",
          "[model][memory]") {
  Device device = modelDevice("ipu1", 4);
  Graph graph(device.getTarget());
  Tensor a = graph.addVariable(FLOAT, {3}, "a");
  Tensor b = graph.addVariable(HALF, {5}, "b");
  Tensor c = graph.addConstant<float>(FLOAT, {2}, {1.0f, 2.0f}, "c");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 0);
  graph.setTileMapping(c, 1);
  Engine engine(graph, Sequence{});
  const ProfileValue profile = engine.getGraphProfile();
  const auto &byTile = profile["memory"]["byTile"];
  // Tile 0: stack 6 x 448 + 480 = 3168, then a (12 bytes), then b (10
  // bytes) at the next 8-byte boundary, 3184.
  CHECK(byTile["total"][0].asUint() == 3168 + 12 + 10);
  CHECK(byTile["totalIncludingGaps"][0].asUint() == 3184 + 10);
  CHECK(byTile["nonInterleaved"][0].asUint() == 3190);
  CHECK(byTile["total"][1].asUint() == 3168 + 8);
  CHECK(byTile["total"][3].asUint() == 3168);
  const auto &cat = profile["memory"]["byCategory"];
  CHECK(cat["variable"]["total"][0].asUint() == 22);
  CHECK(cat["constant"]["total"][1].asUint() == 8);
  CHECK(cat["stack"]["nonInterleaved"]["nonOverlapped"][2].asUint() == 3168);
  // Stack sizes from the engine options.
  Engine small(graph, Sequence{},
               {{"target.workerStackSizeInBytes", "0x100"},
                {"target.supervisorStackSizeInBytes", "128"}});
  CHECK(small.getGraphProfile()["memory"]["byTile"]["total"][3].asUint() ==
        6 * 256 + 128);
}

TEST_CASE("Data that does not fit below interleaved memory goes into it",
          "[model][memory]") {
  // Mk1: interleaved memory starts at element 8 of 16 KiB, 131,072.
  Device device = modelDevice("ipu1", 4);
  Graph graph(device.getTarget());
  Tensor big = graph.addVariable(FLOAT, {30000}, "big");     // 120,000 bytes
  Tensor more = graph.addVariable(FLOAT, {10000}, "more");   // 40,000 bytes
  graph.setTileMapping(big, 0);
  graph.setTileMapping(more, 0);
  Engine engine(graph, Sequence{});
  const ProfileValue profile = engine.getGraphProfile();
  const auto &byTile = profile["memory"]["byTile"];
  CHECK(byTile["nonInterleaved"][0].asUint() == 3168 + 120000);
  CHECK(byTile["interleaved"][0].asUint() == 40000);
  CHECK(byTile["nonInterleavedIncludingGaps"][0].asUint() == 123168);
  CHECK(byTile["interleavedIncludingGaps"][0].asUint() == 40000);
  CHECK(byTile["totalIncludingGaps"][0].asUint() == 131072 + 40000);
}

TEST_CASE("A graph that does not fit fails to compile unless "
          "debug.allowOutOfMemory",
          "[model][memory]") {
  Device device = modelDevice("ipu1", 4);
  Graph graph(device.getTarget());
  Tensor huge = graph.addVariable(FLOAT, {70000}, "huge"); // 280,000 bytes
  graph.setTileMapping(huge, 2);
  Tensor small = graph.addVariable(FLOAT, {10}, "small");
  graph.setTileMapping(small, 0);
  try {
    Engine engine(graph, Sequence{});
    FAIL("expected graph_memory_allocation_error");
  } catch (const graph_memory_allocation_error &e) {
    const std::string what = e.what();
    CHECK_THAT(what, Contains("1 tile(s)"));
    CHECK_THAT(what, Contains("tile 2:"));
    CHECK_THAT(what, Contains("'huge' 280000"));
    CHECK_THAT(what, Contains("debug.allowOutOfMemory"));
    CHECK(e.graphProfile.type() == ProfileValue::Type::MAP);
    CHECK(e.graphProfile["memory"]["byTile"]["overflowed"][2].asUint() > 0);
    // The summary of that profile shows the tile and what fills it.
    std::ostringstream summary;
    printGraphSummary(summary, e.graphProfile);
    CHECK_THAT(summary.str(), Contains("    1 tile(s) out of memory"));
    CHECK_THAT(summary.str(), Contains("      Tile 2: 411,072 B (including gaps)"));
  }
  // The same through compileGraph.
  CHECK_THROWS_AS(compileGraph(graph, {Sequence{}}), graph_memory_allocation_error);
  Engine engine(graph, Sequence{}, {{"debug.allowOutOfMemory", "true"}});
  engine.load(device);
  engine.run();
  CHECK(engine.getGraphProfile()["memory"]["byTile"]["totalIncludingGaps"][2].asUint() >
        device.getTarget().getBytesPerTile());
}

TEST_CASE("The CPU target has no profiles", "[model][profiling]") {
  Device cpu = Device::createCPUDevice();
  Graph graph(cpu.getTarget());
  Engine engine(graph, Sequence{});
  engine.load(cpu);
  engine.run();
  CHECK_THROWS_AS(engine.getGraphProfile(), profiling_disabled);
  CHECK_THROWS_AS(engine.getExecutionProfile(), profiling_disabled);
  std::ostringstream out;
  CHECK_THROWS_AS(engine.printProfileSummary(out), profiling_disabled);
}

TEST_CASE("With compileIPUCode the memory includes code", "[model][memory]") {
  IPUModel m("ipu1");
  m.tilesPerIPU = 4;
  m.compileIPUCode = true;
  Device device = m.createDevice();
  Graph graph(device.getTarget());
  Tensor a = graph.addVariable(FLOAT, {4}, "a");
  Tensor b = graph.addVariable(FLOAT, {4}, "b");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 1);
  Engine engine(graph, Copy(a, b));
  const ProfileValue p = engine.getGraphProfile();
  // One program (the DoExchange): 4 instructions of 4 bytes on every tile.
  // The exchange: 4 instructions and 2 for its one peer on tiles 0 and 1.
  const auto &cat = p["memory"]["byCategory"];
  CHECK(cat["controlCode"]["total"][2].asUint() == 16);
  CHECK(cat["internalExchangeCode"]["total"][0].asUint() == 24);
  CHECK(cat["internalExchangeCode"]["total"][2].asUint() == 0);
  CHECK(p["memory"]["byTile"]["total"][0].asUint() == 3168 + 16 + 24 + 16);
  CHECK(p["memory"]["byTile"]["total"][2].asUint() == 3168 + 16);
  // Without it, no code is counted (as the guide says).
  m.compileIPUCode = false;
  Graph plain(m.createTarget());
  Engine noCode(plain, Sequence{});
  CHECK(noCode.getGraphProfile()["memory"]["byCategory"]["controlCode"]["total"][0]
            .asUint() == 0);
}
