// Engine compile time for graphs with many variables, and the run time of a
// large copy on the IPU Model.
#include <benchmark/benchmark.h>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;

namespace {

Target modelTarget() { return IPUModel("ipu2").createTarget(); }

// numVariables small variables, each mapped to a tile, copied pairwise.
void EngineCompile(benchmark::State &state) {
  const auto numVariables = static_cast<std::size_t>(state.range(0));
  const Target target = modelTarget();
  Graph graph(target);
  program::Sequence prog;
  Tensor previous;
  for (std::size_t i = 0; i != numVariables; ++i) {
    Tensor v = graph.addVariable(FLOAT, {16}, "v" + std::to_string(i));
    graph.setTileMapping(v, static_cast<unsigned>(i % target.getNumTiles()));
    if (i % 2 == 1)
      prog.add(program::Copy(previous, v));
    previous = v;
  }
  for (auto _ : state) {
    Engine engine(graph, prog);
    benchmark::DoNotOptimize(engine);
  }
  state.counters["variables"] = static_cast<double>(numVariables);
}
BENCHMARK(EngineCompile)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);

// A 64 MiB copy through a transposed view, run on host threads.
void EngineRunTransposeCopy(benchmark::State &state) {
  IPUModel model;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  const std::size_t n = 4096;
  Tensor a = graph.addVariable(FLOAT, {n, n}, VariableMappingMethod::LINEAR, "a");
  Tensor b = graph.addVariable(FLOAT, {n, n}, VariableMappingMethod::LINEAR, "b");
  Engine engine(graph, program::Copy(a.transpose(), b));
  engine.load(device);
  for (auto _ : state)
    engine.run(0);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * n * n *
                          4);
}
BENCHMARK(EngineRunTransposeCopy)->Unit(benchmark::kMillisecond);

} // namespace
