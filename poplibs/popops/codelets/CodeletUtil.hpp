// Helpers for popops' codelets (and those of the libraries built on it).
#ifndef POPOPS_CODELETS_CODELETUTIL_HPP
#define POPOPS_CODELETS_CODELETUTIL_HPP

#include <cstdint>

namespace popops {
namespace codelet {

/// Elements [begin, end) of a region.
struct Range {
  unsigned begin;
  unsigned end;
};

/// The part of a region of n elements that worker `wid` of a MultiVertex
/// with `numWorkers` workers processes: consecutive pieces, as even as
/// possible, the larger ones last. The host-side cycle estimators
/// (src/CycleEstimates.cpp) assume this split.
inline Range workerRange(unsigned n, unsigned wid, unsigned numWorkers) {
  const auto begin = static_cast<std::uint64_t>(n) * wid / numWorkers;
  const auto end = static_cast<std::uint64_t>(n) * (wid + 1) / numWorkers;
  return {static_cast<unsigned>(begin), static_cast<unsigned>(end)};
}

} // namespace codelet
} // namespace popops

#endif // POPOPS_CODELETS_CODELETUTIL_HPP
