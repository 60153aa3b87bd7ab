// The graph and execution profiles (ProfileValue trees in the structure
// the guide documents, with a few documented additions) made from the IPU
// Model's estimates and what the engine has run.
#ifndef POPLAR_SRC_PROFILING_PROFILES_HPP
#define POPLAR_SRC_PROFILING_PROFILES_HPP

#include "model/Estimates.hpp"
#include "model/Simulation.hpp"

#include <poplar/ProfileValue.hpp>

#include <string>

namespace poplar::profiling {

ProfileValue graphProfile(const model::Estimates &est);

/// What the debug.* engine options asked the "hardware" to measure. The
/// model has estimates either way; these add the measurement fields of
/// the guide's profiler modes and change how the summary labels totals.
struct Instrumentation {
  bool compute = false;
  bool externalExchange = false;
  std::string level = "tile"; // debug.computeInstrumentationLevel
};

ProfileValue executionProfile(const model::ExecutionRecorder &recorder,
                              const Instrumentation &instrumentation);

/// Steps listed in an execution profile at most (the totals cover all).
constexpr std::size_t maxProfileSteps = 100000;

} // namespace poplar::profiling

#endif // POPLAR_SRC_PROFILING_PROFILES_HPP
