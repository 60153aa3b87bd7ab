// The planner and cycle model: the matrix unit rates, the spread of a
// large matmul over the Mk1 model's tiles, and the memory limit.
#include "MatMulPlan.hpp"

#include <poplar/Target.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <algorithm>

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
                     std::size_t k, std::size_t n, const MatMulPlan &p,
                     const Type &partials = FLOAT) {
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
  // Partials: 4 or 2 bytes, received at 4 bytes a cycle, added 4 FLOAT or
  // 8 HALF a cycle.
  const std::uint64_t partialBytes = partials == HALF ? 2 : 4;
  const std::uint64_t addsPerCycle = partials == HALF ? 8 : 4;
  r.reduce = p.splitK == 1
                 ? 0
                 : ceilDiv((p.splitK - 1) * rows * nb * partialBytes, 4) +
                       30 + 6 * rows +
                       ceilDiv(rows * nb * p.splitK, addsPerCycle);
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
  CHECK(shared.totalCycles() == 24735);
}

TEST_CASE("HALF partials: 1024^3 HALF on Mk2 at half the matrix unit's peak",
          "[poplin][plan]") {
  const Target mk2 = Target::createIPUTarget(1, "ipu2");
  MatMulOptions halfPartials;
  halfPartials.partialsType = HALF;
  const MatMulPlan plan = planMatMul(mk2, HALF, 1024, 1024, 1024,
                                     mk2.getNumTiles(), halfPartials);
  INFO(plan.splitM << "/" << plan.splitN << "/" << plan.splitK);
  REQUIRE(plan.partialsType == HALF);
  const Recomputed want =
      recompute(mk2, HALF, 1024, 1024, 1024, plan, HALF);
  REQUIRE(plan.computeCycles == want.compute);
  REQUIRE(plan.exchangeCycles == want.exchange);
  REQUIRE(plan.reduceCycles == want.reduce);
  const double peak = 1024.0 * 1024 * 1024 / (64.0 * mk2.getNumTiles());
  CHECK(peak / double(plan.totalCycles()) >= 0.5);
  // Float partials (the default) cost more to exchange and to add.
  const MatMulPlan floatPartials =
      planMatMul(mk2, HALF, 1024, 1024, 1024, mk2.getNumTiles(), {});
  REQUIRE(floatPartials.partialsType == FLOAT);
  CHECK(floatPartials.totalCycles() > plan.totalCycles());
  // FLOAT operands always keep FLOAT partials.
  REQUIRE(planMatMul(mk2, FLOAT, 64, 64, 64, 16, halfPartials).partialsType ==
          FLOAT);
}

TEST_CASE("Float partials bound 1024^3 HALF on Mk2 below half the peak",
          "[poplin][plan]") {
  // The README's bound: the formulas with no vertex overheads and blocks
  // of fractional size (each split's ideal), over every split that fits
  // on the tiles. The exchange and the reduction alone keep the best of
  // them above 22,796 cycles (50 %) with float partials, not with half.
  const double size = 1024, tiles = 1472, peak = size * size * size /
                                                 (64 * tiles);
  auto best = [&](double partialBytes, double addsPerCycle) {
    double lowest = 1e300;
    for (unsigned pm = 1; pm <= tiles; ++pm)
      for (unsigned pn = 1; pm * pn <= tiles; ++pn)
        for (unsigned pk = 1; pm * pn * pk <= tiles; ++pk) {
          const double mb = size / pm, nb = size / pn, kb = size / pk;
          const double aRecv = mb * kb * (pn - 1) / pn;
          const double bRecv = kb * nb * (pm - 1) / pm;
          const double aShared = pn % 2 == 0 ? mb * kb * (pn - 2) / pn : 0;
          const double exchange =
              (aRecv + bRecv - aShared) * 2 / 4 + aShared * 2 / 8;
          const double rows = mb / pk;
          const double reduce =
              pk == 1 ? 0
                      : (pk - 1) * rows * nb * partialBytes / 4 +
                            rows * nb * pk / addsPerCycle;
          lowest = std::min(lowest, mb * nb * kb / 64 + exchange + reduce);
        }
    return lowest;
  };
  const double floatPartials = best(4, 4), halfPartials = best(2, 8);
  INFO(floatPartials << " and " << halfPartials << " cycles; peak " << peak);
  CHECK(peak / floatPartials < 0.5);
  CHECK(peak / floatPartials > 0.47);
  CHECK(peak / halfPartials > 0.5);
}
