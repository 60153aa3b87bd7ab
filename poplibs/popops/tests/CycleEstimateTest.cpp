// The cycle models of src/CycleEstimates.hpp, src/ReduceEstimates.hpp and
// src/DataMovementEstimates.hpp against values worked out by hand from
// their documented formulas, e.g. for the element-wise families:
//   cycles = 20 + workers * max_w (10 + sum_r (4 + ceil(n(r,w) / W) * C)).
#include "CycleEstimates.hpp"
#include "DataMovementEstimates.hpp"
#include "ExprOpInfo.hpp"
#include "ReduceEstimates.hpp"

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

TEST_CASE("Cycle estimates of reduction vertices", "[popops][cycles]") {
  // 11 + workers * max over workers of the outputs it takes (round robin),
  // each 8 + sum over its segments of (4 + ceil(size / vector width)).
  const Target target = IPUModel("ipu2").createDevice().getTarget();
  REQUIRE(target.getVectorWidth(FLOAT) == 2);
  REQUIRE(target.getVectorWidth(HALF) == 4);

  // Float, output 0 from segments of 10 and 5, output 1 from one of 7:
  // worker 0: 8 + (4 + 5) + (4 + 3) = 24; worker 1: 8 + 4 + 4 = 16.
  // 11 + 6 * 24 = 155.
  CHECK(popops::reduceVertexCycles(target, FLOAT, {2, 1}, {10, 5, 7}) == 155);

  // Half, seven outputs of one 8-element segment each (8 + 4 + 2 = 14):
  // worker 0 takes outputs 0 and 6. 11 + 6 * 28 = 179.
  CHECK(popops::reduceVertexCycles(target, HALF, {1, 1, 1, 1, 1, 1, 1},
                                   std::vector<std::size_t>(7, 8)) == 179);

  // A 1-element segment still costs a whole vector: 11 + 6 * (8 + 4 + 1).
  CHECK(popops::reduceVertexCycles(target, HALF, {1}, {1}) == 89);

  // An output with no segments (an empty reduction) costs its store only:
  // 11 + 6 * 8; no outputs at all, the supervisor's 11.
  CHECK(popops::reduceVertexCycles(target, FLOAT, {0}, {}) == 59);
  CHECK(popops::reduceVertexCycles(target, FLOAT, {}, {}) == 11);
}

TEST_CASE("Cycle estimates of data-movement vertices", "[popops][cycles]") {
  // Slices and plain updates: 20 + rows * (10 + ceil(columns / 2)).
  CHECK(rowCopyCycles(3, 5) == 20 + 3 * (10 + 3));   // 59
  CHECK(rowCopyCycles(1, 4) == 32);
  CHECK(rowCopyCycles(0, 100) == 20);

  // Updates that combine (add, max, mul): 20 + rows * (10 + 3 * columns).
  CHECK(rowCombineCycles(2, 4) == 64);

  // One-hot: 20 + rows * (8 + ceil(columns / 2)): 20 + 4 * 13.
  CHECK(oneHotCycles(4, 10) == 72);

  // Sorting rows of 8: ceil(log2 8) = 3, 20 + 2 * (10 + 4 * 8 * 3) = 232;
  // rows of 5 round the logarithm up to 3 too: 20 + (10 + 60) = 90; a row
  // of one still counts one pass: 20 + 10 + 4 = 34.
  CHECK(sortRowsCycles(2, 8) == 232);
  CHECK(sortRowsCycles(1, 5) == 90);
  CHECK(sortRowsCycles(1, 1) == 34);

  // Top-k over rows of 6: 20 + 3 * (10 + 36) = 158.
  CHECK(topKRowsCycles(3, 6) == 158);

  // Gathering 4 positions: 20 + 10 * 4.
  CHECK(gatherPositionsCycles(4) == 60);
  // 12 row indices of slices along 2 dimensions: 20 + 12 * (4 + 6).
  CHECK(rowIndicesCycles(12, 2) == 140);
  // 10 elements into 4 levels (5 bins, 3 search steps): 20 + 10 * (4 + 6).
  CHECK(histogramCycles(10, 4) == 120);
  // 3 transpositions of 2x5 matrices: 20 + 3 * (10 + 10).
  CHECK(transposeCycles(3, 10) == 80);

  // One element from each of 5 rows: 20 + 8 * 5; updating 3 row pieces:
  // 20 + 10 * 3.
  CHECK(selectFromRowsCycles(5) == 60);
  CHECK(updateInRowsCycles(3) == 50);
}
