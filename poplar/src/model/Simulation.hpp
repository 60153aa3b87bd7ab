// What Engine::run adds up on an IPU target: each lowered step that runs
// reports its range of simulated steps, which are counted and traced with
// the cycle at which they start. Every IPU has its own clock: a step
// confined to some IPUs starts when the last of them is ready and moves
// only their clocks, so IPUs that do not exchange run side by side; the
// run's cycles are the latest clock. Per-tile and per-activity totals are
// worked out from the counts when a profile is asked for, so a step costs
// a few additions here.
//
// A copy to or from the host (and its sync) waits for the IPUs of the
// device's host sync group (the device option syncConfiguration, PopART's
// SyncPattern): every IPU ("default"), the IPUs that hold the data alone
// ("ipuAndAll"), or those of their rails of the ladder, every second IPU
// ("intraReplicaAndLadder").
#ifndef POPLAR_SRC_MODEL_SIMULATION_HPP
#define POPLAR_SRC_MODEL_SIMULATION_HPP

#include "model/Estimates.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
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
      : est(std::move(est)), counts(this->est->steps.size(), 0),
        clocks(std::max(1u, this->est->target.getNumIPUs()), 0) {}

  void record(std::uint32_t begin, std::uint32_t end) {
    for (std::uint32_t k = begin; k != end; ++k) {
      ++counts[k];
      const SimStep &s = est->steps[k];
      std::uint64_t start = cycles;
      if (clocks.size() == 1) // one clock: the steps follow each other
        cycles += s.cycles;
      else
        start = advance(s, ipusOf(k));
      if (trace.size() < maxTracedSteps)
        trace.push_back({k, start});
      else
        truncated = true;
    }
  }

  /// A run starts every IPU at once (the host starts them): the clocks
  /// join at the latest.
  void startRun() { std::fill(clocks.begin(), clocks.end(), cycles); }

  void reset() {
    std::fill(counts.begin(), counts.end(), 0);
    std::fill(clocks.begin(), clocks.end(), 0);
    trace.clear();
    cycles = 0;
    truncated = false;
  }

  const Estimates &estimates() const { return *est; }

  /// The host sync groups of the device the steps run on (see above).
  void setSyncConfiguration(const std::string &config) {
    hostGroups.clear();
    hostGroupOf.assign(est->steps.size(), -1);
    if (config == "ipuAndAll" || clocks.size() == 1)
      return;
    const auto &steps = est->steps;
    for (std::size_t k = 0; k != steps.size(); ++k) {
      const bool copy = steps[k].kind == SimStep::Kind::StreamCopy;
      const bool itsSync = steps[k].kind == SimStep::Kind::Sync &&
                           steps[k].external && k + 1 != steps.size() &&
                           steps[k + 1].kind == SimStep::Kind::StreamCopy &&
                           steps[k + 1].program == steps[k].program;
      if (!copy && !itsSync)
        continue;
      std::vector<unsigned> group;
      for (unsigned i = 0; i != clocks.size(); ++i)
        for (unsigned j : est->ipuSets[steps[k].ipus])
          if (config == "default" || i % 2 == j % 2) {
            group.push_back(i);
            break;
          }
      auto it = std::find(hostGroups.begin(), hostGroups.end(), group);
      hostGroupOf[k] = int(it - hostGroups.begin());
      if (it == hostGroups.end())
        hostGroups.push_back(std::move(group));
    }
  }

  std::shared_ptr<const Estimates> est;
  std::vector<std::uint64_t> counts; // per simulated step
  std::vector<Entry> trace;
  std::uint64_t cycles = 0; // the latest IPU clock
  bool truncated = false;
  std::vector<std::uint64_t> clocks; // per IPU

private:
  // Host copies (and their syncs) whose sync group is wider than their
  // IPUs: the group's index in hostGroups, else -1.
  std::vector<int> hostGroupOf;
  std::vector<std::vector<unsigned>> hostGroups;

  // The IPUs step k waits for.
  const std::vector<unsigned> &ipusOf(std::uint32_t k) const {
    if (!hostGroupOf.empty() && hostGroupOf[k] >= 0)
      return hostGroups[std::size_t(hostGroupOf[k])];
    return est->ipuSets[est->steps[k].ipus];
  }

  // Moves the clocks of the step's IPUs; returns when the step started
  // (for a step each IPU runs on its own clock, the earliest start).
  std::uint64_t advance(const SimStep &s, const std::vector<unsigned> &ipus) {
    std::uint64_t start = clocks[ipus.front()];
    if (s.eachIpu) {
      for (unsigned i : ipus) {
        start = std::min(start, clocks[i]);
        clocks[i] += s.cycles;
        cycles = std::max(cycles, clocks[i]);
      }
      return start;
    }
    for (unsigned i : ipus)
      start = std::max(start, clocks[i]);
    for (unsigned i : ipus)
      clocks[i] = start + s.cycles;
    cycles = std::max(cycles, start + s.cycles);
    return start;
  }
};

} // namespace poplar::model

#endif // POPLAR_SRC_MODEL_SIMULATION_HPP
