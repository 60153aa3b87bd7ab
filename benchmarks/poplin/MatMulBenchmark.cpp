// poplin::matMul on the host against OpenBLAS, in one program: a
// 1024x1024x1024 FLOAT product on the IPU Model (Mk2, 1,472 tiles, operands
// laid out by createMatMulInputLHS/RHS, timing Engine::run only) or on the
// CPU device (one tile, the whole product one vertex; the benchmarks'
// second argument is 1), and cblas_sgemm on the same data, both limited to
// the same number of host threads (2 unless POPLIN_BENCHMARK_THREADS says
// otherwise).
//
//   GFLOP      (shown per second) 2 * m * k * n floating-point operations
//              per iteration
//   threads    the host threads each side may use
//   vsOpenBLAS MatMulModel only: its GFLOP/s over OpenBLAS's, both measured
//              in this run (MatMulOpenBLAS runs first)
//   MatMulVsOpenBLAS runs the two alternately (the fairest comparison on a
//   shared machine) and reports each side's fastest iteration and the ratio.
//
// MatMulHalfVsFloat runs the HALF and the FLOAT product alternately on the
// same host threads and reports each one's fastest run and their ratio
// (halfOverFloat: HALF's time over FLOAT's; the target is at most 1).
//
// benchmarks/poplin/matmul_vs_openblas.py runs both comparisons at 1 and 2
// threads and prints the table.
//
// MatMulEstimate gives the IPU Model's simulated cycles of one run
// (cycles) and the planner's estimate (planCycles) of the 1024^3 FLOAT and
// HALF products, with the fractions of the matrix unit's peak they imply;
// HALF with float partials (the default) and with partialsType half.
//
//   ./build/benchmarks/poplin_benchmarks --benchmark_filter=MatMul
#include <benchmark/benchmark.h>

#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>

#include <poplar/Device.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <cblas.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;

namespace {

constexpr std::size_t kSize = 1024;

int benchmarkThreads() {
  const char *env = std::getenv("POPLIN_BENCHMARK_THREADS");
  const int n = env ? std::atoi(env) : 2;
  return n > 0 ? n : 2;
}

std::vector<float> operand(std::size_t elements) {
  std::vector<float> host(elements);
  for (std::size_t i = 0; i != host.size(); ++i)
    host[i] = static_cast<float>(static_cast<int>(i % 17) - 8) * 0.125f;
  return host;
}

double flopsPerIteration(std::size_t size) {
  return 2.0 * double(size) * double(size) * double(size);
}

// GFLOP/s measured by each benchmark in this run, for the ratio.
double openBlasRate = 0, modelRate = 0;
double bestOpenBlasRate = 0, bestModelRate = 0;

// Times `iteration` over the benchmark's loop and returns GFLOP/s.
template <class F>
double timeLoop(benchmark::State &state, std::size_t size, F iteration) {
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state)
    iteration();
  const double seconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count();
  const double gflop = flopsPerIteration(size) * double(state.iterations()) / 1e9;
  state.counters["GFLOP"] =
      benchmark::Counter(gflop, benchmark::Counter::kIsRate);
  state.counters["threads"] = benchmarkThreads();
  return seconds > 0 ? gflop / seconds : 0;
}

// OpenBLAS's size^3 product on the same operands as the model's.
struct BlasMatMul {
  int n;
  std::vector<float> a, b, c;
  explicit BlasMatMul(std::size_t size)
      : n(static_cast<int>(size)), a(operand(size * size)),
        b(operand(size * size)), c(size * size) {
    openblas_set_num_threads(benchmarkThreads());
  }
  void run() {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                a.data(), n, b.data(), n, 0.0f, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
};

void MatMulOpenBLAS(benchmark::State &state) {
  const std::size_t size = static_cast<std::size_t>(state.range(0));
  BlasMatMul blas(size);
  blas.run(); // warm up
  openBlasRate = timeLoop(state, size, [&] { blas.run(); });
}

// A matMul graph of size^3 on the Mk2 IPU Model (or the CPU device),
// operands laid out by createMatMulInputLHS/RHS.
struct ModelMatMul {
  Device device;
  Graph graph;
  program::Sequence prog;

  ModelMatMul(std::size_t size, Type type, const OptionFlags &options = {},
              bool cpu = false)
      : device(cpu ? Device::createCPUDevice()
                   : IPUModel("ipu2").createDevice()),
        graph(device.getTarget()) {
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
    poplin::matmul::PlanningCache cache;
    const std::vector<std::size_t> aShape{size, size}, bShape{size, size};
    Tensor a = poplin::createMatMulInputLHS(graph, type, aShape, bShape, "a",
                                            options, &cache);
    Tensor b = poplin::createMatMulInputRHS(graph, type, aShape, bShape, "b",
                                            options, &cache);
    const std::vector<float> host = operand(size * size);
    // Converted to HALF for a HALF product (the values are exact in both).
    graph.setInitialValue(a, ArrayRef<float>(host));
    graph.setInitialValue(b, ArrayRef<float>(host));
    poplin::matMul(graph, a, b, prog, "c", options, &cache);
  }
};

void MatMulModel(benchmark::State &state) {
  const std::size_t size = static_cast<std::size_t>(state.range(0));
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(benchmarkThreads()));
  ModelMatMul mm(size, FLOAT);
  Engine engine(mm.graph, mm.prog);
  engine.load(mm.device);
  engine.run(0); // warm up
  modelRate = timeLoop(state, size, [&] { engine.run(0); });
  if (openBlasRate > 0)
    state.counters["vsOpenBLAS"] = modelRate / openBlasRate;
}

// Wall time of one call of f, in seconds.
template <class F> double seconds(F f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

// Both products alternately, each iteration one of each, so that both see
// the same load from the rest of the machine. Counters: each side's
// GFLOP/s from its fastest iteration, and their ratio (ours / OpenBLAS).
void MatMulVsOpenBLAS(benchmark::State &state) {
  const std::size_t size = static_cast<std::size_t>(state.range(0));
  const int threads = benchmarkThreads();
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  const bool cpu = state.range(1) != 0;
  ModelMatMul mm(size, FLOAT, {}, cpu);
  Engine engine(mm.graph, mm.prog);
  engine.load(mm.device);
  BlasMatMul blas(size);
  engine.run(0); // warm up
  blas.run();
  double bestOurs = 1e30, bestBlas = 1e30;
  for (auto _ : state) {
    bestOurs = std::min(bestOurs, seconds([&] { engine.run(0); }));
    bestBlas = std::min(bestBlas, seconds([&] { blas.run(); }));
  }
  const double gflop = flopsPerIteration(size) / 1e9;
  bestModelRate = gflop / bestOurs;
  bestOpenBlasRate = gflop / bestBlas;
  state.counters["oursGFLOPs"] = bestModelRate;
  state.counters["openblasGFLOPs"] = bestOpenBlasRate;
  state.counters["ratio"] = bestModelRate / bestOpenBlasRate;
  state.counters["threads"] = threads;
  state.SetLabel(cpu ? "CPU device" : "IPU Model");
}

void MatMulHalfVsFloat(benchmark::State &state) {
  const std::size_t size = static_cast<std::size_t>(state.range(0));
  const int threads = benchmarkThreads();
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  const bool cpu = state.range(1) != 0;
  ModelMatMul floatMM(size, FLOAT, {}, cpu), halfMM(size, HALF, {}, cpu);
  Engine floatEngine(floatMM.graph, floatMM.prog);
  Engine halfEngine(halfMM.graph, halfMM.prog);
  floatEngine.load(floatMM.device);
  halfEngine.load(halfMM.device);
  floatEngine.run(0); // warm up
  halfEngine.run(0);
  double bestFloat = 1e30, bestHalf = 1e30;
  for (auto _ : state) {
    bestFloat = std::min(bestFloat, seconds([&] { floatEngine.run(0); }));
    bestHalf = std::min(bestHalf, seconds([&] { halfEngine.run(0); }));
  }
  const double gflop = flopsPerIteration(size) / 1e9;
  state.counters["floatGFLOPs"] = gflop / bestFloat;
  state.counters["halfGFLOPs"] = gflop / bestHalf;
  state.counters["halfOverFloat"] = bestHalf / bestFloat;
  state.counters["threads"] = threads;
  state.SetLabel(cpu ? "CPU device" : "IPU Model");
}

// The IPU Model's simulated cycles of one run of the product, and the
// fraction of the matrix unit's peak (16 FLOAT or 64 HALF multiply-
// accumulates per cycle on each of the 1,472 Mk2 tiles) they imply.
void MatMulEstimate(benchmark::State &state) {
  const std::size_t size = static_cast<std::size_t>(state.range(0));
  const Type type = state.range(1) ? HALF : FLOAT;
  const Type partials = state.range(2) ? HALF : FLOAT;
  const OptionFlags options{{"partialsType", partials == HALF ? "half" : "float"}};
  ModelMatMul mm(size, type, options);
  Engine engine(mm.graph, mm.prog, {{"debug.instrument", "true"}});
  engine.load(mm.device);
  std::uint64_t cycles = 0;
  for (auto _ : state) {
    engine.run(0);
    cycles = engine.getExecutionProfile()["simulation"]["cycles"].asUint();
  }
  const double macsPerCycle =
      double(mm.graph.getTarget().getNumTiles()) * (type == HALF ? 64 : 16);
  const double perfect = double(size) * size * size / macsPerCycle;
  // The planner's estimate, from the plan report's "total N".
  std::ostringstream report;
  poplin::matMulReportPlan(report, mm.graph, type, type, {size, size},
                           {size, size}, options);
  const std::string text = report.str();
  const std::size_t total = text.find("total ");
  const double planned =
      total == std::string::npos ? 0.0 : std::stod(text.substr(total + 6));
  state.counters["cycles"] = double(cycles);
  state.counters["peakPercent"] = 100.0 * perfect / double(cycles);
  state.counters["planCycles"] = planned;
  state.counters["planPeakPercent"] = planned > 0 ? 100.0 * perfect / planned : 0;
  state.SetLabel(std::string(type.toString()) + ", " +
                 std::string(partials.toString()) + " partials");
}

} // namespace

BENCHMARK(MatMulOpenBLAS)
    ->Arg(kSize)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(MatMulModel)->Arg(kSize)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(MatMulVsOpenBLAS)
    ->Args({kSize, 0})
    ->Args({kSize, 1})
    ->MinTime(3.0)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(MatMulHalfVsFloat)
    ->Args({kSize, 0})
    ->Args({kSize, 1})
    ->MinTime(3.0)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(MatMulEstimate)
    ->Args({kSize, 0, 0})
    ->Args({kSize, 1, 0})
    ->Args({kSize, 1, 1})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (openBlasRate > 0 && modelRate > 0)
    std::printf("poplin::matMul %zu^3 FLOAT on the IPU Model: %.1f GFLOP/s; "
                "OpenBLAS sgemm: %.1f GFLOP/s; ratio %.2f (%d threads)\n",
                kSize, modelRate, openBlasRate, modelRate / openBlasRate,
                benchmarkThreads());
  if (bestOpenBlasRate > 0 && bestModelRate > 0)
    std::printf("alternating, fastest of each: poplin::matMul %.1f GFLOP/s; "
                "OpenBLAS sgemm: %.1f GFLOP/s; ratio %.2f (%d threads)\n",
                bestModelRate, bestOpenBlasRate,
                bestModelRate / bestOpenBlasRate, benchmarkThreads());
  return 0;
}
