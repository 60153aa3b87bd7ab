// Placing a tile's allocations in its memory regions, and data that is
// not always live in the blocks it shares.
#include <catch2/catch.hpp>

#include "model/MemoryModel.hpp"
#include "model/SharedBlock.hpp"

using namespace poplar::model;

namespace {
Allocation var(std::uint64_t bytes, bool interleaved = false) {
  return {MemoryCategory::Variable, bytes, 8, interleaved};
}
std::uint64_t region(const TilePlacement &p, MemoryRegion r) {
  std::uint64_t sum = 0;
  for (const auto &c : p.bytes)
    sum += c[unsigned(r)];
  return sum;
}
} // namespace

TEST_CASE("Allocations are aligned, and the gaps count only with gaps",
          "[model][memory]") {
  const TilePlacement p = placeOnTile({{MemoryCategory::Stack, 3168, 8, false},
                                       var(12), var(10)},
                                      8192, 16384);
  // 3168 + 12 = 3180; the next starts at 3184.
  CHECK(p.extent[unsigned(MemoryRegion::NonInterleaved)] == 3184 + 10);
  CHECK(p.end == 3194);
  CHECK(region(p, MemoryRegion::NonInterleaved) == 3190);
  CHECK(p.bytes[unsigned(MemoryCategory::Variable)][0] == 22);
}

TEST_CASE("What does not fit below interleaved memory goes above it",
          "[model][memory]") {
  // Interleaved memory from 96; the tile has 300.
  const TilePlacement p = placeOnTile({var(64), var(64), var(16)}, 96, 300);
  // 64 at 0; the second 64 would end at 128 > 96: at 96; 16 at 64.
  CHECK(region(p, MemoryRegion::NonInterleaved) == 80);
  CHECK(region(p, MemoryRegion::Interleaved) == 64);
  CHECK(p.extent[unsigned(MemoryRegion::NonInterleaved)] == 80);
  CHECK(p.extent[unsigned(MemoryRegion::Interleaved)] == 64);
  CHECK(p.end == 160);
  // Where each one went, in the order given.
  CHECK(p.address == std::vector<std::uint64_t>{0, 96, 64});
  CHECK(p.region == std::vector<MemoryRegion>{MemoryRegion::NonInterleaved,
                                              MemoryRegion::Interleaved,
                                              MemoryRegion::NonInterleaved});
}

TEST_CASE("Allocations that must be interleaved start interleaved memory",
          "[model][memory]") {
  const TilePlacement p = placeOnTile({var(8), var(24, true)}, 64, 128);
  CHECK(p.bytes[unsigned(MemoryCategory::Variable)][unsigned(MemoryRegion::Interleaved)] == 24);
  CHECK(p.end == 64 + 24);
}

TEST_CASE("What ends beyond the tile's memory has overflowed",
          "[model][memory]") {
  // The second allocation would start interleaved memory at 96 and end
  // at 192, beyond the tile's 150 bytes.
  const TilePlacement p = placeOnTile({var(96), var(96)}, 96, 150);
  CHECK(region(p, MemoryRegion::NonInterleaved) == 96);
  CHECK(region(p, MemoryRegion::Overflowed) == 96);
  CHECK(p.end == 192);
  CHECK(p.address == std::vector<std::uint64_t>{0, 96});
  CHECK(p.region[1] == MemoryRegion::Overflowed);
  CHECK(p.extent[unsigned(MemoryRegion::Interleaved)] == 150 - 96);
  CHECK(p.extent[unsigned(MemoryRegion::Overflowed)] == 42);
}

namespace {
LiveItem item(std::uint64_t bytes, const std::vector<StepRange> &ranges) {
  return {bytes, 8, ranges.data(), ranges.size()};
}
} // namespace

TEST_CASE("Data whose lives do not overlap shares a block", "[model][memory]") {
  // a: 100 bytes in steps 0-1; b: 60 in 2-3; c: 40 in 1-2.
  const std::vector<StepRange> a{{0, 1}}, b{{2, 3}}, c{{1, 2}};
  const SharedBlock block = shareBlock({item(100, a), item(60, b), item(40, c)});
  // a at 0; c beside it, aligned (a is live in step 1); in step 2 a is
  // dead, and b takes its place.
  CHECK(block.offset == std::vector<std::uint64_t>{0, 0, 104});
  CHECK(block.size == 144);
  CHECK(block.peak == 140); // a and c in step 1
}

TEST_CASE("Data keeps its place between its lives", "[model][memory]") {
  // d: 50 bytes in steps 0 and 3; e: 50 in 1-2. Never live together, but
  // d keeps its address from step 0 to 3, so e goes beside it.
  const std::vector<StepRange> d{{0, 0}, {3, 3}}, e{{1, 2}};
  const SharedBlock block = shareBlock({item(50, d), item(50, e)});
  CHECK(block.peak == 50);
  CHECK(block.offset == std::vector<std::uint64_t>{0, 56});
  CHECK(block.size == 106);
  CHECK(shareBlock({}).size == 0);
}
