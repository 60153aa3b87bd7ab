// What the IPU Model's estimation adds to Engine::run: the same programs on
// the CPU target (no estimates), on the IPU Model with execution profiling
// off (debug.instrument=false) and with it on (the default), which records
// each simulated step, and on an IPU Model of two IPUs, whose steps move
// a clock per IPU. Also the time estimation adds to compiling.
#include <benchmark/benchmark.h>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;

namespace {

enum Variant { Cpu, ModelNoProfile, ModelProfile, TwoIpusProfile };

Device deviceFor(Variant v) {
  if (v == Cpu)
    return Device::createCPUDevice();
  IPUModel model("ipu1");
  if (v == TwoIpusProfile)
    model.numIPUs = 2;
  return model.createDevice();
}

OptionFlags optionsFor(Variant v) {
  if (v == ModelNoProfile)
    return {{"debug.instrument", "false"}};
  return {};
}

void label(benchmark::State &state, Variant v) {
  state.SetLabel(v == Cpu              ? "cpu"
                 : v == ModelNoProfile ? "ipu-model, no profile"
                 : v == ModelProfile   ? "ipu-model, profile"
                                       : "ipu-model of 2 IPUs, profile");
}

// Many small steps: a loop of copies between tiles, within a tile and
// syncs, where recording a step costs most relative to the work.
void EstimationSmallSteps(benchmark::State &state) {
  const auto variant = static_cast<Variant>(state.range(0));
  Device device = deviceFor(variant);
  Graph graph(device.getTarget());
  const unsigned tiles = graph.getTarget().getNumTiles();
  Tensor a = graph.addVariable(FLOAT, {64}, "a");
  Tensor b = graph.addVariable(FLOAT, {64}, "b");
  Tensor c = graph.addVariable(FLOAT, {64}, "c");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 1 % tiles);
  graph.setTileMapping(c, 0);
  const unsigned iterations = 1000;
  program::Sequence body{program::Copy(a, b), program::Copy(b, c),
                         program::Sync(SyncType::INTERNAL)};
  Engine engine(graph, program::Repeat(iterations, body), optionsFor(variant));
  engine.load(device);
  for (auto _ : state) {
    engine.run();
    if (variant == ModelProfile || variant == TwoIpusProfile)
      engine.resetExecutionProfile(); // keep the trace from growing
  }
  label(state, variant);
  state.SetItemsProcessed(state.iterations() * std::int64_t(3 * iterations));
}
BENCHMARK(EstimationSmallSteps)
    ->Arg(Cpu)
    ->Arg(ModelNoProfile)
    ->Arg(ModelProfile)
    ->Arg(TwoIpusProfile)
    ->Unit(benchmark::kMicrosecond);

// A compute set of 10,000 vertices run 20 times per run.
void EstimationVertices(benchmark::State &state) {
  const auto variant = static_cast<Variant>(state.range(0));
  Device device = deviceFor(variant);
  Graph graph(device.getTarget());
  graph.addCodelets(BENCH_CODELETS);
  const unsigned tiles = graph.getTarget().getNumTiles();
  const std::size_t n = 10000;
  Tensor x = graph.addVariable(INT, {n}, "x");
  ComputeSet cs = graph.addComputeSet("increment");
  for (std::size_t i = 0; i != n; ++i) {
    const auto tile = static_cast<unsigned>(i * tiles / n);
    VertexRef v = graph.addVertex(cs, "Increment");
    graph.connect(v["x"], x[i]);
    graph.setTileMapping(v, tile);
    graph.setTileMapping(x[i], tile);
    graph.setPerfEstimate(v, 12);
  }
  Engine engine(graph, program::Repeat(20, program::Execute(cs)),
                optionsFor(variant));
  engine.load(device);
  engine.run(); // builds the vertices once
  for (auto _ : state) {
    engine.run();
    if (variant == ModelProfile)
      engine.resetExecutionProfile();
  }
  label(state, variant);
  state.SetItemsProcessed(state.iterations() * std::int64_t(20 * n));
}
BENCHMARK(EstimationVertices)
    ->Arg(Cpu)
    ->Arg(ModelNoProfile)
    ->Arg(ModelProfile)
    ->Unit(benchmark::kMillisecond);

// Compiling a graph of many copies, with and without the estimates.
void EstimationCompile(benchmark::State &state) {
  const auto variant = static_cast<Variant>(state.range(0));
  const Target target = variant == Cpu ? Target::createCPUTarget()
                                       : IPUModel("ipu2").createTarget();
  Graph graph(target);
  const unsigned tiles = target.getNumTiles();
  program::Sequence prog;
  Tensor previous;
  for (std::size_t i = 0; i != 10000; ++i) {
    Tensor v = graph.addVariable(FLOAT, {16}, "v" + std::to_string(i));
    graph.setTileMapping(v, static_cast<unsigned>(i % tiles));
    if (i % 2 == 1)
      prog.add(program::Copy(previous, v));
    previous = v;
  }
  for (auto _ : state) {
    Executable exe = compileGraph(graph, {prog});
    benchmark::DoNotOptimize(exe);
  }
  state.SetLabel(variant == Cpu ? "cpu" : "ipu-model");
}
BENCHMARK(EstimationCompile)->Arg(Cpu)->Arg(ModelProfile)->Unit(benchmark::kMillisecond);

} // namespace
