// popops element-wise throughput on the host: popops::add and a fused map
// of four operations over 10^7 floats on the IPU Model (Mk2, 1,472 tiles),
// timing engine.run only, beside the same computation written as a plain
// C++ loop over std::vectors, in the same run.
//
// Each IPU Model benchmark reports:
//   ratio_vs_loop  mean engine.run time / mean plain loop time (measured
//                  right after, in the same process)
//   est_cycles     the cycle model's estimate of the compute set: the most
//                  cycles of any tile (vertex estimates summed per tile)
//
//   ./build/benchmarks/popops_benchmarks
#include "ModelVsLoop.hpp"

#include <benchmark/benchmark.h>

#include "CodeletGenerator.hpp"
#include "CycleEstimates.hpp"
#include "TileRegions.hpp"
#include "TypedExpr.hpp"

#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using namespace popops::expr;

namespace {

constexpr std::size_t numElements = 10'000'000;

// relu(a * b + c) * 0.5: multiply, add, maximum, multiply.
const auto fusedExpr = Max(_1 * _2 + _3, Const(0.0f)) * 0.5f;

std::vector<float> values(float scale) {
  std::vector<float> v(numElements);
  for (std::size_t i = 0; i != v.size(); ++i)
    v[i] = scale * static_cast<float>(static_cast<int>(i % 1000) - 500);
  return v;
}

void plainAdd(const std::vector<float> &a, const std::vector<float> &b,
              std::vector<float> &out) {
  const float *pa = a.data(), *pb = b.data();
  float *po = out.data();
  for (std::size_t i = 0; i != numElements; ++i)
    po[i] = pa[i] + pb[i];
  benchmark::DoNotOptimize(po);
}

void plainFused(const std::vector<float> &a, const std::vector<float> &b,
                const std::vector<float> &c, std::vector<float> &out) {
  const float *pa = a.data(), *pb = b.data(), *pc = c.data();
  float *po = out.data();
  for (std::size_t i = 0; i != numElements; ++i)
    po[i] = std::max(pa[i] * pb[i] + pc[i], 0.0f) * 0.5f;
  benchmark::DoNotOptimize(po);
}

// The IPU Model with three linearly mapped inputs holding the values.
struct ModelSetup {
  Device device = IPUModel("ipu2").createDevice();
  Graph graph{device.getTarget()};
  Sequence prog;
  std::vector<Tensor> inputs;

  ModelSetup() {
    popops::addCodelets(graph);
    for (float scale : {0.5f, 0.25f, 2.0f}) {
      Tensor t = graph.addVariable(FLOAT, {numElements}, "in");
      poputil::mapTensorLinearly(graph, t);
      graph.setInitialValue(t, ArrayRef<float>(values(scale)));
      inputs.push_back(t);
    }
  }
};

// The most estimated cycles of any tile for vertices over `out`'s regions
// with the given cost.
std::uint64_t estimatedCycles(const Graph &graph, const Tensor &out,
                              popops::detail::VectorCost cost) {
  std::vector<std::uint64_t> perTile(graph.getTarget().getNumTiles(), 0);
  popops::detail::forEachVertexGroup(
      graph, out.flatten(), "benchmark",
      [&](unsigned tile, const std::vector<Interval> &regions) {
        perTile[tile] += popops::detail::multiVertexCycles(
            graph.getTarget(), popops::detail::regionSizes(regions), cost);
      });
  return *std::max_element(perTile.begin(), perTile.end());
}

void runModel(benchmark::State &state, ModelSetup &setup,
              const std::function<void()> &plainLoop, std::uint64_t cycles) {
  Engine engine(setup.graph, setup.prog);
  engine.load(setup.device);
  sdkbench::timeAgainstLoop(state, engine, plainLoop, 5, numElements);
  if (cycles != 0)
    state.counters["est_cycles"] = static_cast<double>(cycles);
}

void AddModel(benchmark::State &state) {
  ModelSetup setup;
  const Tensor out =
      popops::add(setup.graph, setup.inputs[0], setup.inputs[1], setup.prog);
  const auto cost = popops::detail::binaryOpCost(
      setup.graph.getTarget(), BinaryOpType::ADD, FLOAT, false);
  const auto a = values(0.5f), b = values(0.25f);
  std::vector<float> plainOut(numElements);
  runModel(
      state, setup, [&] { plainAdd(a, b, plainOut); },
      estimatedCycles(setup.graph, out, cost));
}
BENCHMARK(AddModel)->Unit(benchmark::kMillisecond)->UseRealTime();

void AddPlainLoop(benchmark::State &state) {
  const auto a = values(0.5f), b = values(0.25f);
  std::vector<float> out(numElements);
  for (auto _ : state)
    plainAdd(a, b, out);
  state.SetItemsProcessed(state.iterations() * std::int64_t(numElements));
}
BENCHMARK(AddPlainLoop)->Unit(benchmark::kMillisecond)->UseRealTime();

void FusedMapModel(benchmark::State &state) {
  ModelSetup setup;
  const Tensor out =
      popops::map(setup.graph, fusedExpr, setup.inputs, setup.prog);
  const popops::detail::TypedExpr typed(fusedExpr, setup.inputs, "benchmark");
  const auto codelet =
      popops::detail::generateCodelet(typed, {false, false, false});
  const auto cost = popops::detail::fusedCost(
      setup.graph.getTarget(), FLOAT, codelet.opCycles, codelet.vectorOperands);
  const auto a = values(0.5f), b = values(0.25f), c = values(2.0f);
  std::vector<float> plainOut(numElements);
  runModel(
      state, setup, [&] { plainFused(a, b, c, plainOut); },
      estimatedCycles(setup.graph, out, cost));
}
BENCHMARK(FusedMapModel)->Unit(benchmark::kMillisecond)->UseRealTime();

void FusedMapPlainLoop(benchmark::State &state) {
  const auto a = values(0.5f), b = values(0.25f), c = values(2.0f);
  std::vector<float> out(numElements);
  for (auto _ : state)
    plainFused(a, b, c, out);
  state.SetItemsProcessed(state.iterations() * std::int64_t(numElements));
}
BENCHMARK(FusedMapPlainLoop)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same map op by op (enableGenerateCodelet=false): four compute sets
// and three temporaries, for comparison with the fused one.
void UnfusedMapModel(benchmark::State &state) {
  ModelSetup setup;
  popops::map(setup.graph, fusedExpr, setup.inputs, setup.prog, {},
              {{"enableGenerateCodelet", "false"}});
  const auto a = values(0.5f), b = values(0.25f), c = values(2.0f);
  std::vector<float> plainOut(numElements);
  runModel(
      state, setup, [&] { plainFused(a, b, c, plainOut); }, 0);
}
BENCHMARK(UnfusedMapModel)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
