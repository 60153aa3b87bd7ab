// popops::reduce on the host: 10^7 floats summed to one value, and
// [10000, 1000] summed over its rows, on the IPU Model (Mk2, 1,472 tiles),
// timing engine.run only, beside the same sums as plain C++ loops measured
// in the same run.
//
//   ratio_vs_loop  mean engine.run time / mean plain loop time
//   sim_cycles     the IPU Model's simulated cycles of one run
//
//   ./build/benchmarks/popops_benchmarks --benchmark_filter=Reduce
#include "ModelVsLoop.hpp"

#include <benchmark/benchmark.h>

#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <chrono>
#include <vector>

using namespace poplar;

namespace {

std::vector<float> values(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i != n; ++i)
    v[i] = static_cast<float>(static_cast<int>(i % 1000) - 500) * 0.001f;
  return v;
}

// Sums each of `rows` rows of a row-major array.
void plainRowSums(const std::vector<float> &in, std::size_t rows,
                  std::vector<float> &out) {
  const std::size_t cols = in.size() / rows;
  for (std::size_t r = 0; r != rows; ++r) {
    float s = 0;
    for (std::size_t c = 0; c != cols; ++c)
      s += in[r * cols + c];
    out[r] = s;
  }
  benchmark::DoNotOptimize(out.data());
}

void ReduceModel(benchmark::State &state) {
  const std::size_t rows = static_cast<std::size_t>(state.range(0));
  const std::size_t cols = 10'000'000 / rows;
  Device device = IPUModel("ipu2").createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  Tensor in = graph.addVariable(FLOAT, {rows, cols}, "in");
  poputil::mapTensorLinearly(graph, in);
  const auto host = values(rows * cols);
  graph.setInitialValue(in, ArrayRef<float>(host));
  program::Sequence prog;
  popops::reduce(graph, in, {1}, popops::Operation::ADD, prog, "sum");
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0); // builds the vertices once
  const auto cycles = engine.getExecutionProfile()["simulation"]["cycles"].asUint();

  std::vector<float> out(rows);
  sdkbench::timeAgainstLoop(
      state, engine, [&] { plainRowSums(host, rows, out); }, 5, rows * cols);
  state.counters["sim_cycles"] = static_cast<double>(cycles);
}
BENCHMARK(ReduceModel)->Arg(1)->Arg(10000)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
