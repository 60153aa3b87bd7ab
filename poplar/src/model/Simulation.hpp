// What Engine::run adds up on an IPU target: each lowered step that runs
// reports its range of simulated steps, which are counted and traced with
// the cycle at which they start. Per-tile and per-activity totals are
// worked out from the counts when a profile is asked for, so a step costs
// a few additions here.
#ifndef POPLAR_SRC_MODEL_SIMULATION_HPP
#define POPLAR_SRC_MODEL_SIMULATION_HPP

#include "model/Estimates.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace poplar::model {

class ExecutionRecorder {
public:
  /// Steps traced at most; beyond this only the totals grow.
  static constexpr std::size_t maxTracedSteps = std::size_t(1) << 22;

  struct Entry {
    std::uint32_t step;
    std::uint64_t start;
  };

  explicit ExecutionRecorder(std::shared_ptr<const Estimates> est)
      : est(std::move(est)), counts(this->est->steps.size(), 0) {}

  void record(std::uint32_t begin, std::uint32_t end) {
    for (std::uint32_t k = begin; k != end; ++k) {
      ++counts[k];
      if (trace.size() < maxTracedSteps)
        trace.push_back({k, cycles});
      else
        truncated = true;
      cycles += est->steps[k].cycles;
    }
  }

  void reset() {
    std::fill(counts.begin(), counts.end(), 0);
    trace.clear();
    cycles = 0;
    truncated = false;
  }

  const Estimates &estimates() const { return *est; }

  std::shared_ptr<const Estimates> est;
  std::vector<std::uint64_t> counts; // per simulated step
  std::vector<Entry> trace;
  std::uint64_t cycles = 0;
  bool truncated = false;
};

} // namespace poplar::model

#endif // POPLAR_SRC_MODEL_SIMULATION_HPP
