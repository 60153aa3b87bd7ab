// The cycle model of src/CycleEstimates.hpp against values worked out by
// hand from its documented formula:
//   cycles = 20 + workers * max_w (10 + sum_r (4 + ceil(n(r,w) / W) * C)).
#include "CycleEstimates.hpp"
#include "ExprOpInfo.hpp"

#include <poplar/IPUModel.hpp>
#include <poplar/Target.hpp>

#include <catch2/catch.hpp>

using namespace poplar;
using namespace popops::detail;
using popops::expr::BinaryOpType;
using popops::expr::UnaryOpType;

TEST_CASE("Cycle estimates of element-wise vertices", "[popops][cycles]") {
  const Target target = IPUModel("ipu2").createDevice().getTarget();
  REQUIRE(target.getNumWorkerContexts() == 6);

  // Float add, one region of 600: each worker 100 elements = 50 vectors of
  // 2; C = 2 loads + 1 store + 1 = 4. 20 + 6 * (10 + 4 + 50 * 4) = 1304.
  const VectorCost add = binaryOpCost(target, BinaryOpType::ADD, FLOAT, false);
  CHECK(add.vectorWidth == 2);
  CHECK(add.cyclesPerVector == 4);
  CHECK(multiVertexCycles(target, {600}, add) == 1304);

  // Half add with a broadcast scalar: W = 4, C = 1 + 1 + 1 = 3. Regions of
  // 10 and 25: workers get 1,2,2,1,2,2 of the first and 4,4,4,4,4,5 of the
  // second; the slowest (worker 1, 2, 4 or 5) has ceil(2/4) + ceil(4/4) or
  // ceil(2/4) + ceil(5/4) vectors: worker 5 has 1 + 2 = 3 vectors.
  // 20 + 6 * (10 + 2 * 4 + 3 * 3) = 182.
  const VectorCost scalarAdd =
      binaryOpCost(target, BinaryOpType::ADD, HALF, true);
  CHECK(scalarAdd.vectorWidth == 4);
  CHECK(scalarAdd.cyclesPerVector == 3);
  CHECK(multiVertexCycles(target, {10, 25}, scalarAdd) == 182);

  // Integer division is not vectorised and costs 32: C = 2 + 1 + 32 = 35.
  // 7 elements: worker 6 gets 2 (the split is 1,1,1,1,1,2).
  // 20 + 6 * (10 + 4 + 2 * 35) = 524.
  const VectorCost intDiv =
      binaryOpCost(target, BinaryOpType::DIVIDE, INT, false);
  CHECK(intDiv.vectorWidth == 1);
  CHECK(intDiv.cyclesPerVector == 35);
  CHECK(multiVertexCycles(target, {7}, intDiv) == 524);

  // exp on float: C = 1 + 1 + 4 = 6; 12 elements, 2 per worker, 1 vector.
  // 20 + 6 * (10 + 4 + 6) = 140.
  const VectorCost exp = unaryOpCost(target, UnaryOpType::EXPONENT, FLOAT);
  CHECK(exp.cyclesPerVector == 6);
  CHECK(multiVertexCycles(target, {12}, exp) == 140);

  // No regions: only the overheads, 20 + 6 * 10.
  CHECK(multiVertexCycles(target, {}, exp) == 80);

  // A fused codelet of 3 float operations (1 + 1 + 4 cycles) reading two
  // operands: C = 2 + 1 + 6 = 9; 1200 elements = 100 vectors per worker.
  // 20 + 6 * (10 + 4 + 100 * 9) = 5504.
  const VectorCost fused = fusedCost(target, FLOAT, 6, 2);
  CHECK(multiVertexCycles(target, {1200}, fused) == 5504);

  // Fill of half: 4 per 64-bit store, C = 1; 48 elements = 8 per worker.
  // 20 + 6 * (10 + 4 + 2) = 116.
  CHECK(multiVertexCycles(target, {48}, fillCost(target, HALF)) == 116);

  // Cast float to half: W = min(2, 4) = 2, C = 3; 24 elements.
  // 20 + 6 * (10 + 4 + 2 * 3) = 140.
  CHECK(multiVertexCycles(target, {24}, castCost(target, FLOAT, HALF)) == 140);

  // The per-operation costs behind C.
  CHECK(opCycles(BinaryOpType::DIVIDE, FLOAT) == 4);
  CHECK(opCycles(BinaryOpType::REMAINDER, UNSIGNED_INT) == 32);
  CHECK(opCycles(UnaryOpType::SIN, HALF) == 30);
}
