// Cycle estimates of the reduction vertices, in the IPU's terms: a
// MultiVertex costs its supervisor overhead plus six times its slowest
// worker (the barrel gives each worker one issue slot in six).
#ifndef POPOPS_SRC_REDUCEESTIMATES_HPP
#define POPOPS_SRC_REDUCEESTIMATES_HPP

#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace popops {

// Per output: loading the segment count and storing the result; per
// segment: loading its pointer and size; per vector of elements: one
// load-and-accumulate.
constexpr std::uint64_t reduceSupervisorOverhead = 11;
constexpr std::uint64_t reduceCyclesPerOutput = 8;
constexpr std::uint64_t reduceCyclesPerSegment = 4;

/// counts[o] segments for output o (outputs go to workers round-robin);
/// pieceSizes lists every segment's elements in output order.
inline std::uint64_t reduceVertexCycles(const poplar::Target &target,
                                        const poplar::Type &type,
                                        const std::vector<unsigned> &counts,
                                        const std::vector<std::size_t> &pieceSizes) {
  const unsigned workers = target.getNumWorkerContexts();
  const std::uint64_t vector = std::max(1u, target.getVectorWidth(type));
  std::vector<std::uint64_t> workerCycles(workers, 0);
  std::size_t piece = 0;
  for (std::size_t o = 0; o != counts.size(); ++o) {
    std::uint64_t cycles = reduceCyclesPerOutput;
    for (unsigned s = 0; s != counts[o]; ++s, ++piece)
      cycles += reduceCyclesPerSegment + (pieceSizes[piece] + vector - 1) / vector;
    workerCycles[o % workers] += cycles;
  }
  return reduceSupervisorOverhead +
         workers * *std::max_element(workerCycles.begin(), workerCycles.end());
}

} // namespace popops

#endif // POPOPS_SRC_REDUCEESTIMATES_HPP
