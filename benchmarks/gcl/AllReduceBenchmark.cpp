// All-reduce across replicas on the IPU Model (gcl::allReduceCrossReplica):
// the host time of one run, and what the cycle model says the IPUs take.
//
// Arguments: replicas, float elements per replica. Counters:
//   cycles        the simulation's cycles of one run (the all-reduce)
//   algbw_GBps    bytes reduced per replica / modelled seconds
//   busbw_GBps    bytes each replica sends over its links / modelled seconds:
//                 2 (n - 1) / n of the data for a ring
//   link_fraction busbw against the IPU-Link limit the model uses,
//                 2 links x 128 Gbit/s x 85 % = 27.2 GB/s each way
#include <benchmark/benchmark.h>

#include <gcl/Collectives.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {

constexpr double ipuLinkBytesPerSecond = 2 * 16.0e9 * 0.85;

void AllReduce(benchmark::State &state) {
  const auto replicas = static_cast<unsigned>(state.range(0));
  const auto elements = static_cast<std::size_t>(state.range(1));
  IPUModel model("ipu2");
  model.numIPUs = replicas;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), replication_factor(replicas));
  popops::addCodelets(graph);
  Tensor data = graph.addVariable(FLOAT, {elements}, "data");
  poputil::mapTensorLinearly(graph, data);
  Sequence prog;
  gcl::allReduceInPlaceCrossReplica(graph, data, gcl::CollectiveOperator::ADD,
                                    prog, "allReduce");
  Engine engine(graph, prog, {{"debug.instrument", "true"}});
  engine.load(device);
  engine.run(0);
  std::uint64_t cycles = 0;
  for (auto _ : state) {
    engine.resetExecutionProfile();
    engine.run(0);
    cycles = engine.getExecutionProfile()["simulation"]["cycles"].asUint();
  }
  const double bytes = 4.0 * double(elements);
  const double seconds = double(cycles) / model.tileClockFrequency;
  const double busBytes = bytes * 2.0 * (replicas - 1) / replicas;
  state.counters["cycles"] = double(cycles);
  state.counters["algbw_GBps"] = bytes / seconds / 1e9;
  state.counters["busbw_GBps"] = busBytes / seconds / 1e9;
  state.counters["link_fraction"] = busBytes / seconds / ipuLinkBytesPerSecond;
  state.SetBytesProcessed(std::int64_t(state.iterations()) *
                          std::int64_t(bytes) * replicas);
}

} // namespace

BENCHMARK(AllReduce)
    ->ArgsProduct({{2, 4, 8}, {1 << 10, 1 << 16, 1 << 20}})
    ->Unit(benchmark::kMillisecond);
