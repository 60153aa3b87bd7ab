// poprand on the host: uniform and normal FLOAT over 10^7 elements on the
// IPU Model (Mk2, 1,472 tiles, the reference mapped linearly), timing
// engine.run only (the graph's state advances every run), against the same
// Philox4x32-10 values computed in a plain single-threaded loop.
//
//   samples   (shown per second) elements generated per run
//   cycles    the estimated cycles of the generation compute set (the most
//             any tile takes, src/RandomEstimates.hpp)
//
//   ./build/benchmarks/poprand_benchmarks
#include <benchmark/benchmark.h>

#include "Philox.hpp"
#include "RandomEstimates.hpp"

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poprand/RandomGen.hpp>
#include <poprand/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <algorithm>
#include <vector>

using namespace poplar;

namespace {

constexpr std::size_t numSamples = 10'000'000;

void generateOnModel(benchmark::State &state, bool normal) {
  Device device = IPUModel("ipu2").createDevice();
  Graph graph(device.getTarget());
  poprand::addCodelets(graph);
  Tensor ref = graph.addVariable(FLOAT, {numSamples}, "ref");
  poputil::mapTensorLinearly(graph, ref);
  program::Sequence prog;
  Tensor out = normal ? poprand::normal(graph, nullptr, 0, ref, FLOAT, 0, 1,
                                        prog)
                      : poprand::uniform(graph, nullptr, 0, ref, FLOAT, 0, 1,
                                         prog);
  std::uint64_t worst = 0;
  for (const auto &regions : graph.getTileMapping(out)) {
    std::vector<std::size_t> sizes;
    for (const auto &r : regions)
      sizes.push_back(r.size());
    worst = std::max(worst, poprand::estimates::generatorCycles(
                                sizes, 6,
                                normal ? poprand::estimates::normalCycles
                                       : poprand::estimates::uniformCycles));
  }
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0); // warm up
  for (auto _ : state)
    engine.run(0);
  state.counters["samples"] = benchmark::Counter(
      double(numSamples) * double(state.iterations()),
      benchmark::Counter::kIsRate);
  state.counters["cycles"] = double(worst);
}

void generateInLoop(benchmark::State &state, bool normal) {
  std::vector<float> out(numSamples);
  const poprand::philox::State s{0x243F6A88u, 0x85A308D3u, 0, 0};
  for (auto _ : state) {
    for (std::uint32_t i = 0; i != numSamples; ++i) {
      const auto b = poprand::philox::draw(s, i, 0);
      if (normal) {
        double z0, z1;
        poprand::philox::boxMuller(b.w[0], b.w[1], z0, z1);
        out[i] = static_cast<float>(z0);
      } else {
        out[i] = poprand::philox::uniform01(b.w[0]);
      }
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["samples"] = benchmark::Counter(
      double(numSamples) * double(state.iterations()),
      benchmark::Counter::kIsRate);
}

void UniformModel(benchmark::State &s) { generateOnModel(s, false); }
void NormalModel(benchmark::State &s) { generateOnModel(s, true); }
void UniformLoop(benchmark::State &s) { generateInLoop(s, false); }
void NormalLoop(benchmark::State &s) { generateInLoop(s, true); }

} // namespace

BENCHMARK(UniformModel)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(UniformLoop)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(NormalModel)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(NormalLoop)->Unit(benchmark::kMillisecond)->UseRealTime();
