// The cycle model of poprand's vertices (poplibs/poprand/README.md):
//
//   cycles = 20 + workers * max over workers w of
//                (10 + sum over regions r of (4 + n(r, w) * C))
//
// n(r, w) being the slice of region r worker w takes (the split of the
// vertices, Philox.hpp's callers) and C the cycles per element of the
// distribution. The IPU draws 64 random bits per cycle from its hardware
// generator, so the costs are those of turning bits into values.
#ifndef POPRAND_SRC_RANDOMESTIMATES_HPP
#define POPRAND_SRC_RANDOMESTIMATES_HPP

#include <algorithm>
#include <cstdint>
#include <vector>

namespace poprand {
namespace estimates {

/// Cycles per element C of each distribution.
enum PerElement : unsigned {
  uniformCycles = 2,         // draw, convert, multiply-add
  uniformIntCycles = 3,      // draw, multiply-high, add
  bernoulliCycles = 2,       // draw, compare-select
  normalCycles = 4,          // the IPU's 2-wide Gaussian instruction
  truncatedNormalCycles = 8, // normal plus an expected 1.5 rounds of rejection
  logUniformCycles = 34,     // uniform plus an exponential by polynomial
  dropoutCycles = 4,         // draw, compare, load, multiply-select-store
};

/// Cycles of a vertex that sets or advances the generator state.
constexpr std::uint64_t setSeedCycles = 60;
constexpr std::uint64_t nextStateCycles = 20;

inline std::uint64_t generatorCycles(const std::vector<std::size_t> &regions,
                                     unsigned workers, unsigned perElement) {
  std::uint64_t worst = 0;
  for (unsigned w = 0; w != workers; ++w) {
    std::uint64_t c = 10;
    for (std::size_t n : regions) {
      const std::uint64_t slice = n * (w + 1) / workers - n * w / workers;
      c += 4 + slice * perElement;
    }
    worst = std::max(worst, c);
  }
  return 20 + std::uint64_t(workers) * worst;
}

} // namespace estimates
} // namespace poprand

#endif // POPRAND_SRC_RANDOMESTIMATES_HPP
