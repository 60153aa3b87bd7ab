// Codelets: vertices executed per second for a compute set of a million
// trivial vertices over the 1,216 tiles of a Mk1 IPU Model, the first run
// after Engine::load against later ones, building, compiling and loading a
// million vertices of three scalar edges on a Mk2 (with the peak resident
// memory), the cost of addCodelets when the codelet cache holds the
// source, and a cold popc compile.
#include <benchmark/benchmark.h>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

using namespace poplar;

namespace {

// An engine of numVertices Increment vertices on a Mk1 IPU Model, one per
// element of a variable spread over the tiles in equal pieces, each on the
// tile of its element; and its device.
struct Increments {
  Device device;
  Engine engine;
};

Increments incrementEngine(std::size_t numVertices) {
  Device device = IPUModel("ipu1").createDevice();
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
  return {std::move(device), std::move(engine)};
}

void VertexExecution(benchmark::State &state) {
  const auto numVertices = static_cast<std::size_t>(state.range(0));
  auto [device, engine] = incrementEngine(numVertices);
  engine.load(device);
  engine.run(); // one run outside the timing
  for (auto _ : state)
    engine.run();
  state.SetItemsProcessed(state.iterations() * std::int64_t(numVertices));
}
BENCHMARK(VertexExecution)->Arg(1000000)->Unit(benchmark::kMillisecond);

// The first run after Engine::load (timed) against the steady state
// (counter steady_ms).
void EngineFirstRun(benchmark::State &state) {
  auto [device, engine] = incrementEngine(static_cast<std::size_t>(state.range(0)));
  double loadSeconds = 0;
  for (auto _ : state) {
    state.PauseTiming();
    const auto start = std::chrono::steady_clock::now();
    engine.load(device);
    loadSeconds += std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
    state.ResumeTiming();
    engine.run();
  }
  const auto start = std::chrono::steady_clock::now();
  const int steady = 5;
  for (int i = 0; i != steady; ++i)
    engine.run();
  state.counters["steady_ms"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count() * 1e3 / steady;
  state.counters["load_ms"] = loadSeconds * 1e3 / double(state.iterations());
}
BENCHMARK(EngineFirstRun)->Arg(100000)->Iterations(5)->Unit(benchmark::kMillisecond);

// Peak resident memory of the process so far, in MB.
double peakResidentMB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0;
}

// A million vertices on the 1,472 tiles of a Mk2, each with three scalar
// edges: out[i] = a[i] + b[i], each edge one element of a tensor spread
// over every tile. Built, compiled and loaded in each iteration; the
// counters split the time and give the process's peak resident memory.
void ScalarEdgeGraph(benchmark::State &state) {
  const auto numVertices = static_cast<std::size_t>(state.range(0));
  IPUModel model("ipu2");
  Device device = model.createDevice();
  double build = 0, compile = 0, load = 0;
  double peakBuilt = 0, peakCompiled = 0; // where the peak is reached
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point from) {
    return std::chrono::duration<double>(Clock::now() - from).count();
  };
  for (auto _ : state) {
    auto start = Clock::now();
    Graph graph(device.getTarget());
    graph.addCodelets(BENCH_CODELETS);
    const unsigned tiles = graph.getTarget().getNumTiles();
    auto spread = [&](const char *name) {
      return graph.addVariable(FLOAT, {numVertices},
                               VariableMappingMethod::LINEAR, name);
    };
    Tensor a = spread("a"), b = spread("b"), out = spread("out");
    ComputeSet cs = graph.addComputeSet("add");
    const std::size_t perTile = (numVertices + tiles - 1) / tiles;
    for (std::size_t i = 0; i != numVertices; ++i) {
      VertexRef v = graph.addVertex(cs, "AddScalars");
      graph.connect(v["a"], a[i]);
      graph.connect(v["b"], b[i]);
      graph.connect(v["out"], out[i]);
      graph.setTileMapping(v, static_cast<unsigned>(i / perTile));
    }
    build += seconds(start);
    peakBuilt = peakResidentMB();
    start = Clock::now();
    Executable exe = compileGraph(graph, {program::Execute(cs)});
    compile += seconds(start);
    peakCompiled = peakResidentMB();
    start = Clock::now();
    Engine engine(std::move(exe));
    engine.load(device);
    load += seconds(start);
    benchmark::DoNotOptimize(engine);
  }
  const double n = double(state.iterations());
  state.counters["build_s"] = build / n;
  state.counters["compile_s"] = compile / n;
  state.counters["load_s"] = load / n;
  state.counters["peak_rss_MB"] = peakResidentMB();
  state.counters["built_rss_MB"] = peakBuilt;
  state.counters["compiled_rss_MB"] = peakCompiled;
}
BENCHMARK(ScalarEdgeGraph)->Arg(1000000)->Iterations(1)->Unit(benchmark::kMillisecond);

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
