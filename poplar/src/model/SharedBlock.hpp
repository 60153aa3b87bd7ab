// A block of tile memory shared by data that is not always live: items
// whose lives do not overlap may take the same addresses.
#ifndef POPLAR_SRC_MODEL_SHAREDBLOCK_HPP
#define POPLAR_SRC_MODEL_SHAREDBLOCK_HPP

#include "model/Liveness.hpp"

#include <cstdint>
#include <vector>

namespace poplar::model {

/// Data live only in some steps: the ranges of steps it is live in,
/// sorted and disjoint (not owned: items of many tiles share them).
struct LiveItem {
  std::uint64_t bytes = 0;
  std::uint64_t alignment = 1;
  const StepRange *ranges = nullptr;
  std::size_t numRanges = 0;
  StepRange hull() const { return {ranges[0].first, ranges[numRanges - 1].second}; }
};

struct SharedBlock {
  /// Bytes the block spans: the end of its highest item.
  std::uint64_t size = 0;
  /// The most bytes live in one step: what the block would need if
  /// nothing were wasted to alignment or fragmentation.
  std::uint64_t peak = 0;
  /// Per item, in the order given: its offset in the block.
  std::vector<std::uint64_t> offset;
};

/// Gives each item the lowest offset (aligned) free from its first step
/// to its last, taking items in order of their first step and, from one
/// step, the largest first. An item keeps its offset through the gaps
/// between its ranges. The block is aligned to the largest alignment.
SharedBlock shareBlock(const std::vector<LiveItem> &items);

} // namespace poplar::model

#endif // POPLAR_SRC_MODEL_SHAREDBLOCK_HPP
