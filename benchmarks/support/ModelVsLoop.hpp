// Times a program on the IPU Model against the same work as a plain C++
// loop, in one benchmark run: the counters plain_loop_ms and ratio_vs_loop.
#ifndef SDK_BENCHMARKS_MODELVSLOOP_HPP
#define SDK_BENCHMARKS_MODELVSLOOP_HPP

#include <poplar/Engine.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <functional>

namespace sdkbench {

using Clock = std::chrono::steady_clock;

// Mean seconds of `runs` calls of f.
inline double meanSeconds(const std::function<void()> &f, unsigned runs) {
  const auto start = Clock::now();
  for (unsigned i = 0; i != runs; ++i)
    f();
  return std::chrono::duration<double>(Clock::now() - start).count() / runs;
}

// Each iteration is one run of the engine's program 0 (after a first run
// that builds the vertices); the plain loop is timed `loopRuns` times after.
inline void timeAgainstLoop(benchmark::State &state, poplar::Engine &engine,
                            const std::function<void()> &plainLoop,
                            unsigned loopRuns, std::size_t itemsPerRun) {
  engine.run(0);
  double modelSeconds = 0;
  std::size_t runs = 0;
  for (auto _ : state) {
    const auto start = Clock::now();
    engine.run(0);
    modelSeconds += std::chrono::duration<double>(Clock::now() - start).count();
    ++runs;
  }
  const double loopSeconds = meanSeconds(plainLoop, loopRuns);
  state.SetItemsProcessed(state.iterations() * std::int64_t(itemsPerRun));
  state.counters["plain_loop_ms"] = loopSeconds * 1e3;
  state.counters["ratio_vs_loop"] = modelSeconds / double(runs) / loopSeconds;
}

} // namespace sdkbench

#endif
