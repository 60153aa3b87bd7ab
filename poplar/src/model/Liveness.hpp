// Variable liveness over the flattened program steps: which variables are
// always live, and for the others the steps they are live in, so that the
// memory model can let variables whose lives do not overlap share memory.
// The rules are in README.md in this folder ("Liveness").
#ifndef POPLAR_SRC_MODEL_LIVENESS_HPP
#define POPLAR_SRC_MODEL_LIVENESS_HPP

#include "compile/ExecutableImpl.hpp"

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace poplar::model {

/// Elements [begin, end) of one variable's storage.
struct StorageInterval {
  std::size_t var = 0;
  std::size_t begin = 0;
  std::size_t end = 0;
};

/// What a step reads and what it writes (every element it writes).
struct StepAccess {
  std::vector<StorageInterval> reads;
  std::vector<StorageInterval> writes;
};

/// A step of the analysis: a program step that holds data while it runs
/// (a compute set, a copy, a host or remote copy, a print, a WriteUndef or
/// the test of a control program), at its place in the control programs
/// flattened in order, with functions inlined where they are called.
struct LivenessStep {
  unsigned program = 0;  // the profile program node
  long computeSet = -1;  // Execute: the compute set whose buffers it holds
};

/// Inclusive range of steps.
using StepRange = std::pair<std::uint32_t, std::uint32_t>;

struct VariableLiveness {
  bool alwaysLive = true;
  /// Not always live: the steps it is live in, one range per control
  /// program that uses it, in order.
  std::vector<StepRange> ranges;
};

struct Liveness {
  std::vector<LivenessStep> steps;
  std::vector<VariableLiveness> variables; // per graph variable
};

/// What the analysis needs besides the executable: each used compute
/// set's access, and the profile program node of each lowered step.
struct LivenessInputs {
  std::vector<StepAccess> computeSetAccess; // by compute set
  std::unordered_map<const exec::Step *, unsigned> stepProgram;
};

Liveness analyseLiveness(const Executable::Impl &exe,
                         const LivenessInputs &inputs);

} // namespace poplar::model

#endif // POPLAR_SRC_MODEL_LIVENESS_HPP
