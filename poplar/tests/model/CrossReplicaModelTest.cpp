// The IPU Model's cycles of collectives between replicas (a ring over the
// IPU-Links) and of the three kinds of sync, against the formulas of
// src/model/README.md worked out here from the target's parameters.
#include <catch2/catch.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/detail/CrossReplica.hpp>
#include <poplar/exceptions.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;
namespace xr = poplar::detail;

namespace {

std::uint64_t cyclesOf(Graph &graph, const Device &device, const Program &p) {
  Engine engine(graph, p, {{"debug.instrument", "true"}});
  engine.load(device);
  engine.run();
  return engine.getExecutionProfile()["simulation"]["cycles"].asUint();
}

std::uint64_t ceilDiv(std::uint64_t a, double b) {
  return static_cast<std::uint64_t>(std::ceil(double(a) / b));
}

} // namespace

TEST_CASE("An all-reduce costs 2 (n - 1) ring steps over the IPU-Links",
          "[poplar][model][replication]") {
  constexpr unsigned replicas = 4;
  for (unsigned tilesPerIPU : {4u, 64u}) {
    IPUModel model("ipu2");
    model.numIPUs = replicas;
    model.tilesPerIPU = tilesPerIPU;
    Device device = model.createDevice();
    Graph graph(device.getTarget(), replication_factor(replicas));
    const Target &t = graph.getTarget();
    const std::size_t perTile = 1024; // floats
    Tensor x = graph.addVariable(FLOAT, {perTile * tilesPerIPU}, "x");
    for (unsigned tile = 0; tile != tilesPerIPU; ++tile)
      graph.setTileMapping(x.slice(tile * perTile, (tile + 1) * perTile), tile);
    const auto cycles = cyclesOf(
        graph, device,
        xr::crossReplicaCollective(xr::CrossReplicaCollective::AllReduce,
                                   xr::CrossReplicaOperator::ADD, x, x));
    // Each step moves a quarter of each tile's bytes; reduce steps also
    // combine it, a vector a cycle.
    const std::uint64_t share = perTile * 4 / replicas;
    const std::uint64_t port = ceilDiv(share, t.getExchangeBytesPerCycle());
    const std::uint64_t combine =
        ceilDiv(perTile / replicas, t.getVectorWidth(FLOAT));
    const double linkBytesPerCycle = 2 * 16.0e9 * 0.85 / t.getTileClockFrequency();
    const std::uint64_t link = ceilDiv(share * tilesPerIPU, linkBytesPerCycle);
    const std::uint64_t latency = 29;
    const std::uint64_t reduceStep =
        t.getGlobalSyncCycles() + latency + std::max(port + combine, link);
    const std::uint64_t gatherStep =
        t.getGlobalSyncCycles() + latency + std::max(port, link);
    CHECK(cycles == (replicas - 1) * (reduceStep + gatherStep));
    if (tilesPerIPU == 64)
      CHECK(link > port + combine); // this case is limited by the links
  }
}

TEST_CASE("Sync costs by type", "[poplar][model]") {
  IPUModel model("ipu2");
  model.numIPUs = 2;
  model.tilesPerIPU = 32;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  const Target &t = graph.getTarget();
  CHECK(cyclesOf(graph, device, Sync(SyncType::INTERNAL)) ==
        t.getMaxIPUSyncDelay());
  CHECK(cyclesOf(graph, device, Sync(SyncType::EXTERNAL)) ==
        t.getGlobalSyncCycles());
  CHECK(cyclesOf(graph, device, Sync(SyncType::GLOBAL)) ==
        t.getGlobalSyncCycles() +
            static_cast<std::uint64_t>(std::ceil(1e-6 * t.getTileClockFrequency())));
}

TEST_CASE("A copy between the IPUs of a graph goes over the IPU-Links",
          "[poplar][model]") {
  IPUModel model("ipu2");
  model.numIPUs = 2;
  model.tilesPerIPU = 64;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  const Target &t = graph.getTarget();
  // 64 tiles of IPU 0 each send 4 KiB to the same tile of IPU 1: the
  // links (27.2 GB/s), not the tiles' ports, limit it.
  Tensor a = graph.addVariable(FLOAT, {64, 1024}, "a");
  Tensor b = graph.addVariable(FLOAT, {64, 1024}, "b");
  for (unsigned i = 0; i != 64; ++i) {
    graph.setTileMapping(a[i], i);
    graph.setTileMapping(b[i], 64 + i);
  }
  const double linkBytesPerCycle = 2 * 16.0e9 * 0.85 / t.getTileClockFrequency();
  const std::uint64_t link = ceilDiv(64 * 4096, linkBytesPerCycle);
  CHECK(cyclesOf(graph, device, Copy(a, b)) ==
        t.getMaxIPUSyncDelay() + t.getGlobalSyncCycles() + 29 + link);
}

TEST_CASE("Virtual graphs of a multi-IPU graph have per-IPU targets, and "
          "the summary counts replicas",
          "[poplar][model][replication]") {
  IPUModel model("ipu2");
  model.numIPUs = 4;
  model.tilesPerIPU = 8;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  Graph ipu1 = graph.createVirtualGraph(8, 16);
  CHECK(ipu1.getTarget().getNumIPUs() == 1);
  CHECK(ipu1.getTarget().getNumTiles() == 8);
  // The first 3 tiles of every IPU: 4 IPUs of 3 tiles.
  Graph firstTiles = graph.createVirtualGraph(3u);
  CHECK(firstTiles.getTarget().getNumIPUs() == 4);
  CHECK(firstTiles.getTarget().getTilesPerIPU() == 3);
  // Tiles 6 to 9 straddle IPUs 0 and 1.
  Graph straddle = graph.createVirtualGraph(6, 10);
  CHECK(straddle.getTarget().getNumTiles() == 4);
  CHECK(straddle.getTarget().getNumIPUs() == 2);

  Graph replicated(device.getTarget(), replication_factor(2));
  Tensor x = replicated.addVariable(FLOAT, {16}, "x");
  replicated.setTileMapping(x, 0);
  Engine engine(replicated, Copy(x, x), {{"debug.instrument", "true"}});
  engine.load(device);
  engine.run();
  CHECK(engine.getGraphProfile()["target"]["numReplicas"].asUint() == 2);
  std::ostringstream summary;
  engine.printProfileSummary(summary);
  CHECK_THAT(summary.str(), Catch::Matchers::Contains("Number of Replicas:     2"));
  CHECK_THAT(summary.str(), Catch::Matchers::Contains("IPUs per Replica:       2"));
  CHECK_THAT(summary.str(), Catch::Matchers::Contains("Number of IPUs:         4"));
}

TEST_CASE("The execution profile follows profiler.replicaToProfile",
          "[poplar][model][replication]") {
  IPUModel model("ipu2");
  model.numIPUs = 2;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), replication_factor(2));
  Tensor index = graph.addReplicationIndexConstant();
  graph.setTileMapping(index, 0);
  // Only replica 1 takes the branch with the external sync.
  const Program prog = If(index, Sync(SyncType::EXTERNAL), Sequence{});
  auto cycles = [&](const char *replica) {
    Engine engine(graph, prog,
                  {{"debug.instrument", "true"},
                   {"profiler.replicaToProfile", replica}});
    engine.load(device);
    engine.run();
    return engine.getExecutionProfile()["simulation"]["cycles"].asUint();
  };
  CHECK(cycles("1") == cycles("0") + graph.getTarget().getGlobalSyncCycles());
  CHECK_THROWS_AS(cycles("2"), invalid_option);
}

namespace {

// Cycles of: a copy between two tiles of IPU `busy` (which moves that
// IPU's clock on), then a copy from the host to a tensor on IPU 0, on a
// device of 4 IPUs with the given syncConfiguration.
std::uint64_t hostCopyAfterWorkOn(unsigned busy, const std::string &config) {
  IPUModel model("ipu2");
  model.numIPUs = 4;
  model.tilesPerIPU = 4;
  Device device = model.createDevice({{"syncConfiguration", config}});
  Graph graph(device.getTarget());
  const unsigned first = busy * 4;
  Tensor a = graph.addVariable(FLOAT, {1 << 14}, "a");
  Tensor b = graph.addVariable(FLOAT, {1 << 14}, "b");
  graph.setTileMapping(a, first);
  graph.setTileMapping(b, first + 1);
  Tensor c = graph.addVariable(FLOAT, {16}, "c");
  graph.setTileMapping(c, 0);
  auto in = graph.addHostToDeviceFIFO("in", FLOAT, 16);
  std::vector<float> data(16, 1.0f);
  Engine engine(graph, Sequence{Copy(a, b), Copy(in, c)},
                {{"debug.instrument", "true"}});
  engine.load(device);
  engine.connectStream("in", data.data());
  engine.run();
  return engine.getExecutionProfile()["simulation"]["cycles"].asUint();
}

} // namespace

TEST_CASE("A host copy syncs the IPUs of the device's sync configuration",
          "[poplar][model]") {
  // default: every IPU syncs for the host, so IPU 0 waits for the work
  // on IPU 1 (or 2); ipuAndAll: IPU 0 alone; intraReplicaAndLadder: IPU 0
  // with IPU 2, its rail of the ladder.
  const auto all1 = hostCopyAfterWorkOn(1, "default");
  const auto own1 = hostCopyAfterWorkOn(1, "ipuAndAll");
  const auto ladder1 = hostCopyAfterWorkOn(1, "intraReplicaAndLadder");
  CHECK(all1 > own1);
  CHECK(ladder1 == own1);
  const auto all2 = hostCopyAfterWorkOn(2, "default");
  const auto own2 = hostCopyAfterWorkOn(2, "ipuAndAll");
  const auto ladder2 = hostCopyAfterWorkOn(2, "intraReplicaAndLadder");
  CHECK(ladder2 == all2);
  CHECK(all2 > own2);

  CHECK_THROWS_AS(IPUModel().createDevice({{"syncConfiguration", "ring"}}),
                  invalid_option);
}
