// poplin::matMul on the host: a 1024x1024x1024 FLOAT product on the IPU
// Model (Mk2, 1,472 tiles), operands laid out by createMatMulInputLHS/RHS,
// timing engine.run only.
//
//   GFLOP    (shown per second) 2 * m * k * n floating-point operations
//            per run, over the engine.run time
//
//   ./build/benchmarks/poplin_benchmarks --benchmark_filter=MatMul
#include <benchmark/benchmark.h>

#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <vector>

using namespace poplar;

namespace {

void MatMulModel(benchmark::State &state) {
  const std::size_t size = static_cast<std::size_t>(state.range(0));
  Device device = IPUModel("ipu2").createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  poplin::matmul::PlanningCache cache;
  const std::vector<std::size_t> aShape{size, size}, bShape{size, size};
  Tensor a = poplin::createMatMulInputLHS(graph, FLOAT, aShape, bShape, "a",
                                          {}, &cache);
  Tensor b = poplin::createMatMulInputRHS(graph, FLOAT, aShape, bShape, "b",
                                          {}, &cache);
  std::vector<float> host(size * size);
  for (std::size_t i = 0; i != host.size(); ++i)
    host[i] = static_cast<float>(static_cast<int>(i % 17) - 8) * 0.125f;
  graph.setInitialValue(a, ArrayRef<float>(host));
  graph.setInitialValue(b, ArrayRef<float>(host));
  program::Sequence prog;
  poplin::matMul(graph, a, b, prog, "c", {}, &cache);
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0); // warm up
  for (auto _ : state)
    engine.run(0);
  state.counters["GFLOP"] = benchmark::Counter(
      2.0 * double(size) * size * size * double(state.iterations()) / 1e9,
      benchmark::Counter::kIsRate);
}

} // namespace

BENCHMARK(MatMulModel)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
