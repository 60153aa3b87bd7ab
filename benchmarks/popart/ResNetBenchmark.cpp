// popart: ResNet-18 (torchvision's, exported by tests/models/export_models.py)
// run by an InferenceSession on the CPU device, timing session.run (host
// time of one inference, batch 1, 224x224), and the session's creation:
// ONNX import, IR preparation, lowering and the graph's compilation.
//
// The model is POPART_BENCH_MODEL (default: the one the conformance tests
// export into the build tree); the host threads SDK_BENCH_THREADS
// (default 2). benchmarks/popart/resnet18_vs_torch.py runs this and
// PyTorch's resnet18 in one go and prints their ratio.
//
// ModelInferenceCpu times the same for any model file (POPART_BENCH_MODEL)
// and adds the process CPU time (user + system, all threads) of one
// inference, `cpu_ms`: benchmarks/models_vs_peers.py compares it with ONNX
// Runtime and PyTorch on the same file.
#include <onnx_io/HostTensor.hpp>
#include <onnx_io/ModelRunner.hpp>

#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include <sys/resource.h>

#include <cstdlib>
#include <map>
#include <string>

namespace {

std::string modelPath() {
  const char *env = std::getenv("POPART_BENCH_MODEL");
  return env ? env : POPART_BENCH_DEFAULT_MODEL;
}

std::size_t benchThreads() {
  const char *env = std::getenv("SDK_BENCH_THREADS");
  return env ? std::size_t(std::atoi(env)) : 2;
}

std::map<std::string, onnx_io::HostTensor>
randomInputs(const onnx_io::ModelRunner &runner) {
  std::map<std::string, onnx_io::HostTensor> inputs;
  unsigned seed = 1;
  for (const auto &input : runner.inputs())
    inputs[input.id] = onnx_io::randomTensor(input.info, seed++);
  return inputs;
}

void ResNet18InferenceCpu(benchmark::State &state) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              benchThreads());
  try {
    onnx_io::ModelRunner runner(modelPath(), onnx_io::createDevice("cpu"));
    const auto inputs = randomInputs(runner);
    runner.run(inputs); // the first run pays for the engine's set-up
    for (auto _ : state)
      benchmark::DoNotOptimize(runner.run(inputs));
  } catch (const std::exception &e) {
    state.SkipWithError(e.what());
  }
  state.counters["threads"] = double(benchThreads());
}
BENCHMARK(ResNet18InferenceCpu)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);

// User + system CPU time of the whole process so far, in ms.
double processCpuMs() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto ms = [](const timeval &t) { return 1e3 * double(t.tv_sec) + 1e-3 * double(t.tv_usec); };
  return ms(usage.ru_utime) + ms(usage.ru_stime);
}

void ModelInferenceCpu(benchmark::State &state) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              benchThreads());
  try {
    onnx_io::ModelRunner runner(modelPath(), onnx_io::createDevice("cpu"));
    const auto inputs = randomInputs(runner);
    runner.run(inputs); // the first run pays for the engine's set-up
    const double cpuStart = processCpuMs();
    for (auto _ : state)
      benchmark::DoNotOptimize(runner.run(inputs));
    state.counters["cpu_ms"] =
        (processCpuMs() - cpuStart) / double(state.iterations());
  } catch (const std::exception &e) {
    state.SkipWithError(e.what());
  }
  state.counters["threads"] = double(benchThreads());
}
BENCHMARK(ModelInferenceCpu)->Unit(benchmark::kMillisecond)->UseRealTime();

void ResNet18SessionCreation(benchmark::State &state) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              benchThreads());
  const std::string device = state.range(0) ? "ipumodel" : "cpu";
  try {
    for (auto _ : state) {
      // Import, preparation, lowering, compilation and the weights' copy.
      onnx_io::ModelRunner runner(modelPath(), onnx_io::createDevice(device));
      benchmark::DoNotOptimize(runner.outputs());
    }
  } catch (const std::exception &e) {
    state.SkipWithError(e.what());
  }
  state.SetLabel(device);
}
BENCHMARK(ResNet18SessionCreation)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)
    ->UseRealTime()->Iterations(2);

} // namespace

BENCHMARK_MAIN();
