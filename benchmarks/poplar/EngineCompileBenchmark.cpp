// Engine compile time for graphs with many variables and with many
// temporaries (the liveness analysis and the memory they share), and the
// run time of a large copy on the IPU Model.
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

// A chain of copies through numTemporaries temporaries, each spread over
// every tile of a Mk2 (so every tile holds a piece of each), twice in a
// loop: the liveness analysis and the memory the temporaries share.
void EngineCompileTemporaries(benchmark::State &state) {
  const auto numTemporaries = static_cast<std::size_t>(state.range(0));
  const Target target = modelTarget();
  Graph graph(target);
  const std::size_t elements = std::size_t(target.getNumTiles()) * 16;
  auto temporary = [&](const std::string &name) {
    return graph.addVariable(FLOAT, {elements}, VariableMappingMethod::LINEAR, name);
  };
  Tensor previous = temporary("in");
  graph.createHostWrite("in", previous);
  program::Sequence body;
  for (std::size_t i = 0; i != numTemporaries; ++i) {
    Tensor t = temporary("t" + std::to_string(i));
    // Each piece moves to the next tile: an exchange, not an on-tile copy.
    body.add(program::Copy(previous, concat(t.slice(16, elements), t.slice(0, 16))));
    previous = t;
  }
  Tensor out = temporary("out");
  graph.createHostRead("out", out);
  body.add(program::Copy(previous, out));
  const program::Repeat prog(2, body);
  double estimation = 0;
  for (auto _ : state) {
    Engine engine(graph, prog);
    estimation = engine.getGraphProfile()["optimizationInfo"]["estimationSeconds"].asDouble();
    benchmark::DoNotOptimize(engine);
  }
  state.counters["temporaries"] = static_cast<double>(numTemporaries);
  state.counters["estimation_ms"] = estimation * 1e3;
}
BENCHMARK(EngineCompileTemporaries)->Arg(100)->Arg(400)->Unit(benchmark::kMillisecond);

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
