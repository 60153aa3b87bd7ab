// Codelets: vertices executed per second for a compute set of a million
// trivial vertices over the 1,216 tiles of a Mk1 IPU Model, the cost of
// addCodelets when the codelet cache holds the source, and a cold popc
// compile.
#include <benchmark/benchmark.h>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

using namespace poplar;

namespace {

void VertexExecution(benchmark::State &state) {
  const auto numVertices = static_cast<std::size_t>(state.range(0));
  IPUModel model("ipu1");
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets(BENCH_CODELETS);
  const unsigned tiles = graph.getTarget().getNumTiles();
  Tensor x = graph.addVariable(INT, {numVertices}, "x");
  ComputeSet cs = graph.addComputeSet("increment");
  const std::size_t perTile = (numVertices + tiles - 1) / tiles;
  for (std::size_t i = 0; i != numVertices; ++i) {
    const auto tile = static_cast<unsigned>(i / perTile);
    VertexRef v = graph.addVertex(cs, "Increment");
    graph.connect(v["x"], x[i]);
    graph.setTileMapping(v, tile);
  }
  for (unsigned t = 0; t != tiles; ++t) {
    const std::size_t begin = std::min(numVertices, t * perTile);
    const std::size_t end = std::min(numVertices, begin + perTile);
    graph.setTileMapping(x.slice(begin, end), t);
  }
  Engine engine(graph, program::Execute(cs));
  engine.load(device);
  engine.run(); // builds the vertices once
  for (auto _ : state)
    engine.run();
  state.SetItemsProcessed(state.iterations() * std::int64_t(numVertices));
}
BENCHMARK(VertexExecution)->Arg(1000000)->Unit(benchmark::kMillisecond);

void AddCodeletsCached(benchmark::State &state) {
  {
    Graph warm(Target::createCPUTarget());
    warm.addCodelets(BENCH_CODELETS);
  }
  for (auto _ : state) {
    Graph graph(Target::createCPUTarget());
    graph.addCodelets(BENCH_CODELETS);
    benchmark::DoNotOptimize(graph.hasCodelet("Increment"));
  }
}
BENCHMARK(AddCodeletsCached)->Unit(benchmark::kMillisecond);

void AddCodeletsCold(benchmark::State &state) {
  const char *saved = std::getenv("POPLAR_CODELET_CACHE_DIR");
  const std::string savedValue = saved ? saved : "";
  const auto dir = std::filesystem::temp_directory_path() /
                   ("poplar-bench-cache-" + std::to_string(::getpid()));
  for (auto _ : state) {
    state.PauseTiming();
    std::filesystem::remove_all(dir);
    setenv("POPLAR_CODELET_CACHE_DIR", dir.c_str(), 1);
    state.ResumeTiming();
    Graph graph(Target::createCPUTarget());
    graph.addCodelets(BENCH_CODELETS);
  }
  std::filesystem::remove_all(dir);
  if (saved)
    setenv("POPLAR_CODELET_CACHE_DIR", savedValue.c_str(), 1);
  else
    unsetenv("POPLAR_CODELET_CACHE_DIR");
}
BENCHMARK(AddCodeletsCold)->Iterations(3)->Unit(benchmark::kMillisecond);

} // namespace
