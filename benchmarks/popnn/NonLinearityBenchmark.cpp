// popnn non-linearity throughput on the host: GELU over 4 * 10^6 floats and
// a stable softmax over 40,000 rows of 100 on the IPU Model (Mk2, 1,472
// tiles), timing engine.run only, beside the same computation as a plain
// C++ loop in the same run.
//
// Each IPU Model benchmark reports:
//   ratio_vs_loop  mean engine.run time / mean plain loop time
//   est_cycles     (GELU) the cycle model's estimate of the compute set:
//                  the most cycles of any tile
//
//   ./build/benchmarks/popnn_benchmarks
#include "ModelVsLoop.hpp"

#include <benchmark/benchmark.h>

#include "CycleEstimates.hpp"
#include "TileWork.hpp"

#include <popnn/NonLinearity.hpp>
#include <popnn/codelets.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

constexpr std::size_t numElements = 4'000'000;
constexpr std::size_t rowLength = 100;

std::vector<float> values() {
  std::vector<float> v(numElements);
  for (std::size_t i = 0; i != v.size(); ++i)
    v[i] = 0.01f * static_cast<float>(static_cast<int>(i % 1000) - 500);
  return v;
}

void plainGelu(const std::vector<float> &x, std::vector<float> &y) {
  for (std::size_t i = 0; i != x.size(); ++i) {
    const float v = x[i];
    y[i] = 0.5f * v *
           (1.0f + std::tanh(0.7978845608f * v * (1.0f + 0.044715f * v * v)));
  }
  benchmark::DoNotOptimize(y.data());
}

void plainSoftmax(const std::vector<float> &x, std::vector<float> &y) {
  for (std::size_t r = 0; r != x.size() / rowLength; ++r) {
    const float *in = &x[r * rowLength];
    float *out = &y[r * rowLength];
    const float max = *std::max_element(in, in + rowLength);
    float sum = 0;
    for (std::size_t j = 0; j != rowLength; ++j)
      sum += out[j] = std::exp(in[j] - max);
    for (std::size_t j = 0; j != rowLength; ++j)
      out[j] /= sum;
  }
  benchmark::DoNotOptimize(y.data());
}

struct ModelSetup {
  Device device = IPUModel("ipu2").createDevice();
  Graph graph{device.getTarget()};
  Sequence prog;
  Tensor input;

  ModelSetup() {
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
    popnn::addCodelets(graph);
    input = graph.addVariable(FLOAT, {numElements / rowLength, rowLength}, "in");
    poputil::mapTensorLinearly(graph, input);
    graph.setInitialValue(input, ArrayRef<float>(values()));
  }
};

void runModel(benchmark::State &state, ModelSetup &setup,
              const std::function<void()> &plainLoop) {
  Engine engine(setup.graph, setup.prog);
  engine.load(setup.device);
  sdkbench::timeAgainstLoop(state, engine, plainLoop, 3, numElements);
}

void GeluModel(benchmark::State &state) {
  ModelSetup setup;
  const Tensor out = popnn::gelu(setup.graph, setup.input, setup.prog);
  std::vector<std::uint64_t> perTile(setup.graph.getTarget().getNumTiles(), 0);
  popnn::detail::forEachVertexGroup(
      setup.graph, out, "benchmark",
      [&](unsigned tile, const std::vector<Interval> &regions) {
        perTile[tile] += popnn::detail::nonLinearityCycles(
            setup.graph.getTarget(), FLOAT, popnn::NonLinearityType::GELU,
            false, popnn::detail::regionSizes(regions));
      });
  const auto x = values();
  std::vector<float> y(numElements);
  runModel(state, setup, [&] { plainGelu(x, y); });
  state.counters["est_cycles"] =
      static_cast<double>(*std::max_element(perTile.begin(), perTile.end()));
}
BENCHMARK(GeluModel)->Unit(benchmark::kMillisecond)->UseRealTime();

void GeluPlainLoop(benchmark::State &state) {
  const auto x = values();
  std::vector<float> y(numElements);
  for (auto _ : state)
    plainGelu(x, y);
  state.SetItemsProcessed(state.iterations() * std::int64_t(numElements));
}
BENCHMARK(GeluPlainLoop)->Unit(benchmark::kMillisecond)->UseRealTime();

void SoftmaxStableModel(benchmark::State &state) {
  ModelSetup setup;
  popnn::softmaxStable(setup.graph, setup.input, setup.prog);
  const auto x = values();
  std::vector<float> y(numElements);
  runModel(state, setup, [&] { plainSoftmax(x, y); });
}
BENCHMARK(SoftmaxStableModel)->Unit(benchmark::kMillisecond)->UseRealTime();

void SoftmaxPlainLoop(benchmark::State &state) {
  const auto x = values();
  std::vector<float> y(numElements);
  for (auto _ : state)
    plainSoftmax(x, y);
  state.SetItemsProcessed(state.iterations() * std::int64_t(numElements));
}
BENCHMARK(SoftmaxPlainLoop)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
