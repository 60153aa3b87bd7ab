// The cycle models of src/CycleEstimates.hpp against values worked out by
// hand from their documented formulas.
#include "CycleEstimates.hpp"

#include <poplar/IPUModel.hpp>
#include <poplar/Target.hpp>

#include <catch2/catch.hpp>

using namespace poplar;
using namespace popnn::detail;
using popnn::NonLinearityType;

TEST_CASE("cycle estimates of the non-linearity vertices", "[popnn][cycles]") {
  const Target target = IPUModel("ipu2").createDevice().getTarget();
  REQUIRE(target.getNumWorkerContexts() == 6);
  // FLOAT GELU, one region of 600: each worker 100 elements, 50 vectors of
  // 2; C = 1 load + 1 store + 8. 20 + 6 * (10 + 4 + 50 * 10) = 3104.
  CHECK(nonLinearityCycles(target, FLOAT, NonLinearityType::GELU, false, {600}) ==
        3104);
  // HALF SIGMOID gradient, regions of 10 and 25: W = 4, C = 2 loads +
  // 1 store + 2. The workers get 1,2,2,1,2,2 and 4,4,4,4,4,5 elements; the
  // slowest has ceil(2/4) + ceil(5/4) = 3 vectors.
  // 20 + 6 * (10 + 2 * 4 + 3 * 5) = 218.
  CHECK(nonLinearityCycles(target, HALF, NonLinearityType::SIGMOID, true,
                           {10, 25}) == 218);
  // Every type costs something, and the derivative of erf more than erf.
  for (auto t : {NonLinearityType::SIGMOID, NonLinearityType::HARD_SIGMOID,
                 NonLinearityType::RELU, NonLinearityType::TANH,
                 NonLinearityType::GELU, NonLinearityType::GELU_ERF,
                 NonLinearityType::SWISH})
    CHECK(nonLinearityCost(t, false) > 0);
  CHECK(nonLinearityCost(NonLinearityType::GELU_ERF, true) >
        nonLinearityCost(NonLinearityType::GELU_ERF, false));
}

TEST_CASE("cycle estimates of the loss and pooling vertices",
          "[popnn][cycles]") {
  // 4 rows of 10 FLOAT: 20 + 4 * (10 + 5 vectors * 4) = 140.
  CHECK(rowLoopCycles(4, 10, 2, 4) == 140);
  // 9 windows of 4 elements at 2 cycles: 20 + 9 * (6 + 8) = 146.
  CHECK(windowLoopCycles(9, 4, 2) == 146);
  CHECK(windowLoopCycles(0, 4, 2) == 20);
}
