// Philox4x32-10 against the known-answer vectors published with the
// Random123 library (kat_vectors), and poprand's cycle model against
// hand-worked values.
#include "Philox.hpp"
#include "RandomEstimates.hpp"

#include <catch2/catch.hpp>

using poprand::philox::Block;
using poprand::philox::philox4x32_10;

namespace {

void checkBlock(const Block &got, const Block &want) {
  for (unsigned i = 0; i != 4; ++i) {
    INFO("word " << i);
    CHECK(got.w[i] == want.w[i]);
  }
}

} // namespace

TEST_CASE("Philox4x32-10 gives the published known answers",
          "[poprand][philox]") {
  checkBlock(philox4x32_10(Block{{0, 0, 0, 0}}, 0, 0),
             Block{{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}});
  checkBlock(
      philox4x32_10(Block{{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}},
                    0xffffffff, 0xffffffff),
      Block{{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}});
  checkBlock(
      philox4x32_10(Block{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}},
                    0xa4093822, 0x299f31d0),
      Block{{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}});
}

TEST_CASE("The state a seed selects depends on seed and modifier",
          "[poprand][philox]") {
  using poprand::philox::stateFromSeed;
  const auto a = stateFromSeed(1, 2, 0), b = stateFromSeed(1, 2, 1),
             c = stateFromSeed(1, 3, 0), a2 = stateFromSeed(1, 2, 0);
  CHECK(a.key0 == a2.key0);
  CHECK(a.key1 == a2.key1);
  CHECK((a.key0 != b.key0 || a.key1 != b.key1));
  CHECK((a.key0 != c.key0 || a.key1 != c.key1));
  CHECK(a.counterLo == 0);
  CHECK(a.counterHi == 0);
}

TEST_CASE("Generator vertices follow the cycle model", "[poprand][cycles]") {
  using poprand::estimates::generatorCycles;
  // One region of 12 elements, 6 workers, 2 cycles each: every worker
  // takes 2 elements: 10 + 4 + 2 * 2 = 18; 20 + 6 * 18 = 128.
  CHECK(generatorCycles({12}, 6, 2) == 128);
  // Regions of 7 and 1 on 6 workers, 4 cycles each: worker 5 takes 2 of
  // the 7 (7*6/6 - 7*5/6 = 7 - 5) and 1 of the 1: 10 + (4 + 8) + (4 + 4)
  // = 30; 20 + 6 * 30 = 200.
  CHECK(generatorCycles({7, 1}, 6, 4) == 200);
  // No regions: 20 + 6 * 10.
  CHECK(generatorCycles({}, 6, 2) == 80);
}
