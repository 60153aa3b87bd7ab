// poplin::convolution on the host: a ResNet-style 3x3 layer (batch 8,
// 64 -> 64 channels, 56x56, stride 1, padding 1, FLOAT) on the IPU Model
// (Mk2, 1,472 tiles), operands laid out by createInput/createWeights,
// timing engine.run only, on SDK_BENCH_THREADS host threads (default 2).
//
//   GFLOP          (shown per second) 2 * MACs per run over the run time
//   estCycles      the plan's estimated IPU cycles (compute, exchange and
//                  reduction) of this FLOAT layer on Mk2
//   peakFraction   getFwdPerfectCycleCount / estCycles: the fraction of
//                  the matrix unit's peak the estimate implies
//   halfEstCycles, halfPeakFraction   the same for HALF inputs on Mk2
//
//   ./build/benchmarks/poplin_benchmarks --benchmark_filter=Conv
// benchmarks/poplin/conv_vs_torch.py runs this and PyTorch's conv2d in
// one go and prints the ratio.
#include <benchmark/benchmark.h>

#include <poplin/Convolution.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <tbb/global_control.h>

#include <cstdlib>
#include <vector>

using namespace poplar;

namespace {

poplin::ConvParams resnetLayer(const Type &type) {
  poplin::ConvParams p(type, 8, {56, 56}, {3, 3}, 64, 64, 1);
  p.inputTransform.paddingLower = {1, 1};
  p.inputTransform.paddingUpper = {1, 1};
  return p;
}

std::size_t benchThreads() {
  const char *env = std::getenv("SDK_BENCH_THREADS");
  const long n = env ? std::strtol(env, nullptr, 10) : 2;
  return n > 0 ? std::size_t(n) : 2;
}

std::vector<float> hostValues(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i != n; ++i)
    v[i] = static_cast<float>(static_cast<int>(i % 13) - 6) * 0.125f;
  return v;
}

void ConvResNet3x3Model(benchmark::State &state) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              benchThreads());
  Device device = IPUModel("ipu2").createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  poplin::PlanningCache cache;
  const poplin::ConvParams params = resnetLayer(FLOAT);
  Tensor in = poplin::createInput(graph, params, "in", {}, &cache);
  Tensor weights = poplin::createWeights(graph, params, "weights", {}, &cache);
  graph.setInitialValue(in, ArrayRef<float>(hostValues(in.numElements())));
  graph.setInitialValue(weights,
                        ArrayRef<float>(hostValues(weights.numElements())));
  program::Sequence prog;
  poplin::convolution(graph, in, weights, params, false, prog, "conv", {},
                      &cache);
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0); // warm up
  for (auto _ : state)
    engine.run(0);
  state.counters["GFLOP"] = benchmark::Counter(
      double(poplin::getFwdFlops(params)) * double(state.iterations()) / 1e9,
      benchmark::Counter::kIsRate);
  const auto report = [&](const poplin::ConvParams &p, const char *cycles,
                          const char *fraction) {
    const double est =
        double(poplin::getFwdEstimatedCycles(graph, p, {}, &cache));
    state.counters[cycles] = est;
    state.counters[fraction] = poplin::getFwdPerfectCycleCount(graph, p) / est;
  };
  report(params, "estCycles", "peakFraction");
  report(resnetLayer(HALF), "halfEstCycles", "halfPeakFraction");
  state.counters["threads"] = double(benchThreads());
}

} // namespace

BENCHMARK(ConvResNet3x3Model)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);
