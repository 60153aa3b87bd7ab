// The planner and cycle model: the matrix unit rates, the spread of a
// large matmul over the Mk1 model's tiles, and the memory limit.
#include "MatMulPlan.hpp"

#include <poplar/Target.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

using namespace poplar;
using namespace poplin::detail;

TEST_CASE("Matrix unit rates", "[poplin][plan]") {
  const Target mk1 = Target::createIPUTarget(1, "ipu1");
  const Target mk2 = Target::createIPUTarget(1, "ipu2");
  REQUIRE(ampMacsPerCycle(mk1, FLOAT) == 8);
  REQUIRE(ampMacsPerCycle(mk1, HALF) == 32);
  REQUIRE(ampMacsPerCycle(mk2, FLOAT) == 16);
  REQUIRE(ampMacsPerCycle(mk2, HALF) == 64);
  REQUIRE(matMulPartialCycles(mk2, HALF, 64, 64, 64) <
          matMulPartialCycles(mk2, FLOAT, 64, 64, 64));
}

TEST_CASE("A 256^3 matmul spreads over the Mk1 tiles", "[poplin][plan]") {
  const Target mk1 = Target::createIPUTarget(1, "ipu1");
  REQUIRE(mk1.getNumTiles() == 1216);
  const MatMulPlan plan =
      planMatMul(mk1, FLOAT, 256, 256, 256, mk1.getNumTiles(), {});
  INFO(plan.splitM << "/" << plan.splitN << "/" << plan.splitK);
  REQUIRE(plan.tilesUsed() >= 512);
  REQUIRE(plan.tilesUsed() <= 1216);
  REQUIRE(plan.blockM * plan.splitM >= 256);
  REQUIRE(plan.bytesPerTile <= 0.6 * mk1.getBytesPerTile());
  // Fewer tiles cannot be faster.
  const MatMulPlan small = planMatMul(mk1, FLOAT, 256, 256, 256, 16, {});
  REQUIRE(small.totalCycles() > plan.totalCycles());
}

TEST_CASE("The memory limit is honoured", "[poplin][plan]") {
  const Target mk2 = Target::createIPUTarget(1, "ipu2");
  MatMulOptions tight;
  tight.availableMemoryProportion = 0.2;
  const MatMulPlan plan = planMatMul(mk2, FLOAT, 512, 512, 512, 256, tight);
  REQUIRE(plan.bytesPerTile <= 0.2 * mk2.getBytesPerTile());
  REQUIRE_THROWS_AS(planMatMul(mk2, FLOAT, 2048, 2048, 2048, 1, tight),
                    poputil::poplibs_error);
}
