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
//   modelCycles    the IPU Model's simulated cycles of one run, and
//   modelPeakFraction  the fraction of the peak they imply
//
//   ./build/benchmarks/poplin_benchmarks --benchmark_filter=Conv
// benchmarks/poplin/conv_vs_torch.py runs this and PyTorch's conv2d in
// one go and prints the ratio.
#include <benchmark/benchmark.h>

#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <tbb/global_control.h>

#include <cmath>
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

// Compares a sample of the output with a host loop, so that the figures
// are those of a correct convolution.
bool outputMatches(Engine &engine, const Target &target, const Type &type,
                   const std::vector<float> &x, const std::vector<float> &w) {
  constexpr int n = 8, c = 64, h = 56, k = 3;
  std::vector<float> y(std::size_t(n) * c * h * h);
  if (type == FLOAT) {
    engine.readTensor("out", y.data(), y.data() + y.size());
  } else {
    std::vector<std::uint16_t> bits(y.size());
    engine.readTensor("out", bits.data(), bits.data() + bits.size());
    copyDeviceHalfToFloat(target, bits.data(), y.data(), y.size());
  }
  const double tolerance = type == FLOAT ? 1e-5 : 2e-3;
  for (std::size_t s = 0; s < y.size(); s += 9973) {
    const int xo = int(s % h), yo = int(s / h % h), co = int(s / h / h % c),
              b = int(s / h / h / c);
    double want = 0;
    for (int ci = 0; ci != c; ++ci)
      for (int ky = 0; ky != k; ++ky)
        for (int kx = 0; kx != k; ++kx) {
          const int yi = yo + ky - 1, xi = xo + kx - 1;
          if (yi < 0 || yi >= h || xi < 0 || xi >= h)
            continue;
          want += double(x[((b * c + ci) * h + yi) * h + xi]) *
                  w[((co * c + ci) * k + ky) * k + kx];
        }
    if (std::abs(want - y[s]) > tolerance * (1 + std::abs(want)))
      return false;
  }
  return true;
}

// The host threads, the Mk2 IPU Model and a graph with the codelets.
struct BenchRig {
  tbb::global_control threads{tbb::global_control::max_allowed_parallelism,
                              benchThreads()};
  Device device = IPUModel("ipu2").createDevice();
  Graph graph{device.getTarget()};
  poplin::PlanningCache cache;
  BenchRig() {
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
  }
};

// The forward layer of `type`, timed; with `report`, the cycle counters.
void runForward(benchmark::State &state, const Type &type, bool report) {
  BenchRig rig;
  Graph &graph = rig.graph;
  poplin::PlanningCache &cache = rig.cache;
  const poplin::ConvParams params = resnetLayer(type);
  Tensor in = poplin::createInput(graph, params, "in", {}, &cache);
  Tensor weights = poplin::createWeights(graph, params, "weights", {}, &cache);
  const std::vector<float> x = hostValues(in.numElements());
  const std::vector<float> w = hostValues(weights.numElements());
  graph.setInitialValue(in, ArrayRef<float>(x));
  graph.setInitialValue(weights, ArrayRef<float>(w));
  program::Sequence prog;
  Tensor out = poplin::convolution(graph, in, weights, params, false, prog,
                                   "conv", {}, &cache);
  graph.createHostRead("out", out);
  Engine engine(graph, prog);
  engine.load(rig.device);
  engine.run(0); // warm up
  if (!outputMatches(engine, graph.getTarget(), type, x, w)) {
    state.SkipWithError("the convolution's output differs from a host loop");
    return;
  }
  for (auto _ : state)
    engine.run(0);
  state.counters["GFLOP"] = benchmark::Counter(
      double(poplin::getFwdFlops(params)) * double(state.iterations()) / 1e9,
      benchmark::Counter::kIsRate);
  if (!report)
    return;
  const auto estimate = [&](const poplin::ConvParams &p, const char *cycles,
                            const char *fraction) {
    const double est =
        double(poplin::getFwdEstimatedCycles(graph, p, {}, &cache));
    state.counters[cycles] = est;
    state.counters[fraction] = poplin::getFwdPerfectCycleCount(graph, p) / est;
  };
  estimate(params, "estCycles", "peakFraction");
  // The IPU Model's simulated cycles of one run (compute sets as the
  // vertices' estimates, exchanges and syncs as the model prices them).
  engine.enableExecutionProfiling();
  engine.resetExecutionProfile();
  engine.run(0);
  const double simulated =
      double(engine.getExecutionProfile()["simulation"]["cycles"].asUint());
  state.counters["modelCycles"] = simulated;
  state.counters["modelPeakFraction"] =
      poplin::getFwdPerfectCycleCount(graph, params) / simulated;
  estimate(resnetLayer(HALF), "halfEstCycles", "halfPeakFraction");
  state.counters["threads"] = double(benchThreads());
}

void ConvResNet3x3Model(benchmark::State &state) {
  runForward(state, FLOAT, true);
}

// The same layer with HALF operands (float partials): the vertices convert
// to float on the host.
void ConvResNet3x3ModelHalf(benchmark::State &state) {
  runForward(state, HALF, false);
}

BENCHMARK(ConvResNet3x3ModelHalf)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace

// The input-gradient (transposed, flipped weights) and weight-update
// passes of the same layer; GFLOP counts the same multiply-adds.
void ConvResNet3x3ModelTrainingPass(benchmark::State &state) {
  const bool weightUpdate = state.range(0) == 1;
  state.SetLabel(weightUpdate ? "weight update" : "input gradient");
  BenchRig rig;
  Graph &graph = rig.graph;
  poplin::PlanningCache &cache = rig.cache;
  const poplin::ConvParams params = resnetLayer(FLOAT);
  const poplin::ConvParams bwd = poplin::getGradientParams(params);
  program::Sequence prog;
  Tensor dy = poplin::createInput(graph, bwd, "dy", {}, &cache);
  graph.setInitialValue(dy, ArrayRef<float>(hostValues(dy.numElements())));
  if (weightUpdate) {
    Tensor acts = poplin::createInput(graph, params, "acts", {}, &cache);
    graph.setInitialValue(acts,
                          ArrayRef<float>(hostValues(acts.numElements())));
    poplin::calculateWeightDeltas(graph, dy, acts, params, prog, "wu",
                                  {{"pass", "TRAINING_WU"}}, &cache);
  } else {
    Tensor weights =
        poplin::createWeights(graph, params, "weights", {}, &cache);
    graph.setInitialValue(weights,
                          ArrayRef<float>(hostValues(weights.numElements())));
    poplin::convolution(graph, dy, weights, bwd, true, prog, "bwd",
                        {{"pass", "TRAINING_BWD"}}, &cache);
  }
  Engine engine(graph, prog);
  engine.load(rig.device);
  engine.run(0); // warm up
  for (auto _ : state)
    engine.run(0);
  state.counters["GFLOP"] = benchmark::Counter(
      double(poplin::getFwdFlops(params)) * double(state.iterations()) / 1e9,
      benchmark::Counter::kIsRate);
}

BENCHMARK(ConvResNet3x3ModelTrainingPass)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK(ConvResNet3x3Model)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);
