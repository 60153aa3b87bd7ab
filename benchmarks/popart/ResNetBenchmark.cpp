// popart: ResNet-18 (torchvision's, exported by tests/models/export_models.py)
// run by an InferenceSession on the CPU device, timing session.run (host
// time of one inference, batch 1, 224x224), and the session's creation:
// ONNX import, IR preparation, lowering and the graph's compilation.
//
// The model is POPART_BENCH_MODEL (default: the one the conformance tests
// export into the build tree); the host threads SDK_BENCH_THREADS
// (default 2). ResNet18CachedSessionStart times a session started from
// the engine cache against its first start. benchmarks/popart/resnet18_vs_torch.py runs this and
// PyTorch's resnet18 in one go and prints their ratio.
//
// ModelInferenceCpu times the same for any model file (POPART_BENCH_MODEL)
// and adds the process CPU time (user + system, all threads) of one
// inference, `cpu_ms`: benchmarks/popart/models_vs_peers.py compares it with ONNX
// Runtime and PyTorch on the same file.
#include <onnx_io/HostTensor.hpp>
#include <onnx_io/ModelRunner.hpp>

#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
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

// The engine cache (POPART_CACHE_DIR, in a fresh directory): the session's
// start on the IPU Model from the cache, with the first start (compiling,
// then writing the cache) timed once before. Counters: first_start_s, and
// speedup = first start / cached start.
void ResNet18CachedSessionStart(benchmark::State &state) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              benchThreads());
  std::string dir = (std::filesystem::temp_directory_path() /
                     "popart-bench-cache-XXXXXX").string();
  if (!mkdtemp(dir.data())) {
    state.SkipWithError("cannot make a cache directory");
    return;
  }
  setenv("POPART_CACHE_DIR", dir.c_str(), 1);
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
  };
  try {
    const auto start = Clock::now();
    {
      onnx_io::ModelRunner first(modelPath(), onnx_io::createDevice("ipumodel"));
      benchmark::DoNotOptimize(first.outputs());
    }
    const double firstStart = seconds(start);
    double cached = 0;
    for (auto _ : state) {
      const auto t = Clock::now();
      onnx_io::ModelRunner runner(modelPath(), onnx_io::createDevice("ipumodel"));
      cached += seconds(t);
      benchmark::DoNotOptimize(runner.outputs());
    }
    state.counters["first_start_s"] = firstStart;
    state.counters["speedup"] = firstStart / (cached / double(state.iterations()));
  } catch (const std::exception &e) {
    state.SkipWithError(e.what());
  }
  unsetenv("POPART_CACHE_DIR");
  std::filesystem::remove_all(dir);
}
BENCHMARK(ResNet18CachedSessionStart)->Unit(benchmark::kMillisecond)
    ->UseRealTime()->Iterations(3);

} // namespace

BENCHMARK_MAIN();
