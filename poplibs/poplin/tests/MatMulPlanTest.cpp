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

namespace {

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}

// The README's formulas, evaluated here from a plan's splits.
struct Recomputed {
  std::uint64_t compute, exchange, reduce;
};
Recomputed recompute(const Target &target, const Type &type, std::size_t m,
                     std::size_t k, std::size_t n, const MatMulPlan &p) {
  const std::uint64_t mb = ceilDiv(m, p.splitM), nb = ceilDiv(n, p.splitN),
                      kb = ceilDiv(k, p.splitK);
  const std::uint64_t rate = ampMacsPerCycle(target, type);
  const std::uint64_t bytes = type == HALF ? 2 : 4;
  Recomputed r;
  r.compute = 30 + 6 * mb + ceilDiv(mb * nb * kb, rate);
  const std::uint64_t aRecv = ceilDiv(mb * kb * (p.splitN - 1), p.splitN);
  const std::uint64_t bRecv = ceilDiv(kb * nb * (p.splitM - 1), p.splitM);
  const std::uint64_t S = target.getSupportsSuperTileSendReceive()
                              ? target.getTilesPerSuperTile()
                              : 1;
  const std::uint64_t aShared =
      S > 1 && p.splitN % S == 0 ? mb * kb * (p.splitN - S) / p.splitN : 0;
  r.exchange = ceilDiv((aRecv + bRecv - aShared) * bytes, 4) +
               ceilDiv(aShared * bytes, 4 * S);
  const std::uint64_t rows = ceilDiv(mb, p.splitK);
  r.reduce = p.splitK == 1 ? 0
                           : ceilDiv((p.splitK - 1) * rows * nb * 4, 4) + 30 +
                                 6 * rows + ceilDiv(rows * nb * p.splitK, 2);
  return r;
}

} // namespace

TEST_CASE("The plan's estimates follow the documented formulas",
          "[poplin][plan]") {
  for (const char *arch : {"ipu1", "ipu2"})
    for (const Type &type : {HALF, FLOAT}) {
      const Target target = Target::createIPUTarget(1, arch);
      const MatMulPlan plan =
          planMatMul(target, type, 1024, 1024, 1024, target.getNumTiles(), {});
      INFO(arch << " " << type << ": " << plan.splitM << "/" << plan.splitN
                << "/" << plan.splitK);
      const Recomputed want = recompute(target, type, 1024, 1024, 1024, plan);
      REQUIRE(plan.computeCycles == want.compute);
      REQUIRE(plan.exchangeCycles == want.exchange);
      REQUIRE(plan.reduceCycles == want.reduce);
      // No split within the limits is cheaper under the same formulas.
      for (unsigned sm : {plan.splitM - 1, plan.splitM + 1})
        for (unsigned sn : {plan.splitN - 1, plan.splitN + 1}) {
          MatMulPlan other = plan;
          other.splitM = sm;
          other.splitN = sn;
          if (sm * sn * plan.splitK > target.getNumTiles())
            continue;
          const Recomputed r = recompute(target, type, 1024, 1024, 1024, other);
          REQUIRE(r.compute + r.exchange + r.reduce >= plan.totalCycles());
        }
    }
}

TEST_CASE("Mk2 supertiles share the receive of A", "[poplin][plan]") {
  const Target mk2 = Target::createIPUTarget(1, "ipu2");
  const MatMulPlan shared =
      planMatMul(mk2, HALF, 1024, 1024, 1024, mk2.getNumTiles(), {});
  const MatMulPlan unaligned =
      planMatMul(mk2, HALF, 1024, 1024, 1024, mk2.getNumTiles(), {}, false);
  REQUIRE(shared.splitN % 2 == 0);
  REQUIRE(shared.totalCycles() < unaligned.totalCycles());
  // 1024^3 HALF: 1024^3 / (64 x 1472) = 11,398 cycles at the matrix
  // unit's peak.
  CHECK(shared.totalCycles() == 25475);
}
