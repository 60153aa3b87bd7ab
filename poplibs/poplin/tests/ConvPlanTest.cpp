// The convolution planner and cycle model: vertex estimates by hand, the
// spread of a ResNet layer over the Mk2 tiles, input-channel splits when
// the output is small, the memory limit, and the weight-update pass.
#include "ConvPlan.hpp"
#include "ConvLayout.hpp"

#include <poplar/Target.hpp>
#include <poplar/exceptions.hpp>
#include <poplin/ConvParams.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <chrono>

using namespace poplar;
using namespace poplin::detail;

namespace {

ConvGeometry resnetLayer() {
  poplin::ConvParams p(FLOAT, 8, {56, 56}, {3, 3}, 64, 64, 1);
  p.inputTransform.paddingLower = {1, 1};
  p.inputTransform.paddingUpper = {1, 1};
  return foldGeometry(p);
}

} // namespace

TEST_CASE("Conv vertex estimates follow the matrix unit", "[poplin][plan]") {
  const Target mk1 = Target::createIPUTarget(1, "ipu1");
  const Target mk2 = Target::createIPUTarget(1, "ipu2");
  CHECK(convMacsPerCycle(mk1, FLOAT) == 8);
  CHECK(convMacsPerCycle(mk1, HALF) == 32);
  CHECK(convMacsPerCycle(mk2, FLOAT) == 16);
  CHECK(convMacsPerCycle(mk2, HALF) == 64);
  // 2 rows of 56 positions, a 3x3 kernel, 16 -> 32 channels on Mk2 FLOAT:
  // 30 + 6 * 2 * 9 + 112 * 9 * 16 * 32 / 16.
  CHECK(convPartialCycles(mk2, FLOAT, 2, 112, 9, 16, 32) == 30 + 108 + 32256);
  // Weight gradient: per weight row (kernel element, input channel).
  CHECK(convWeightGradCycles(mk1, HALF, 100, 9, 4, 8) ==
        30 + 6 * 36 + (100 * 9 * 4 * 8 + 31) / 32);
  CHECK(convReduceCycles(1000, 3) == 30 + 1500);
}

TEST_CASE("Folding ConvParams into a geometry", "[poplin][plan]") {
  poplin::ConvParams p(FLOAT, 2, {9}, {4}, 3, 5, 1);
  p.inputTransform.dilation = {2};         // 17 elements
  p.kernelTransform.truncationLower = {1}; // 3 kernel elements
  p.kernelTransform.dilation = {2};        // spanning 5
  p.kernelTransform.paddingLower = {1};    // transformed kernel 7
  p.outputTransform.truncationLower = {2}; // 11 results, 9 kept
  p.outputTransform.stride = {2};          // 5 outputs
  p.outputTransform.paddingUpper = {1};
  const ConvGeometry g = foldGeometry(p);
  CHECK(g.inSize[2] == 17);
  CHECK(g.kernel[2] == 3);
  CHECK(g.kernelDilation[2] == 2);
  CHECK(g.base[2] == 3); // output truncation 2 + kernel padding 1
  CHECK(g.outSize[2] == 5);
  CHECK(g.outSize[0] == 1);
  CHECK(g.fieldDim() == 2);
}

TEST_CASE("A ResNet layer spreads over the Mk2 tiles", "[poplin][plan]") {
  const Target mk2 = Target::createIPUTarget(1, "ipu2");
  const auto start = std::chrono::steady_clock::now();
  const ConvPlan plan = planConv(mk2, FLOAT, resnetLayer(), mk2.getNumTiles(),
                                 {}, ConvPass::Forward);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  INFO(plan.splitB << "/" << plan.splitF << "/" << plan.splitCo << "/"
                   << plan.splitCi);
  CHECK(seconds < 5);
  CHECK(plan.tilesUsed() >= 1000);
  CHECK(plan.tilesUsed() <= mk2.getNumTiles());
  CHECK(plan.bytesPerTile <= 0.6 * mk2.getBytesPerTile());
  // The MACs alone take 8*56*56*64*64*9 / (16 * 1472) cycles.
  CHECK(plan.computeCycles >= 7854);
  const ConvPlan few =
      planConv(mk2, FLOAT, resnetLayer(), 64, {}, ConvPass::Forward);
  CHECK(few.totalCycles() > plan.totalCycles());
}

TEST_CASE("Small outputs split the input channels", "[poplin][plan]") {
  const Target mk2 = Target::createIPUTarget(1, "ipu2");
  poplin::ConvParams p(FLOAT, 1, {2, 2}, {1, 1}, 512, 8, 1);
  const ConvPlan plan =
      planConv(mk2, FLOAT, foldGeometry(p), 64, {}, ConvPass::Forward);
  CHECK(plan.splitCi > 1);
  CHECK(plan.reductionDepth() == plan.splitCi);
  CHECK(plan.reduceCycles > 0);
}

TEST_CASE("The conv memory limit is honoured", "[poplin][plan]") {
  const Target mk2 = Target::createIPUTarget(1, "ipu2");
  ConvOptions tight;
  tight.availableMemoryProportion = 0.3;
  const ConvPlan plan =
      planConv(mk2, FLOAT, resnetLayer(), 256, tight, ConvPass::Forward);
  CHECK(plan.bytesPerTile <= 0.3 * mk2.getBytesPerTile());
  CHECK_THROWS_AS(
      planConv(mk2, FLOAT, resnetLayer(), 1, tight, ConvPass::Forward),
      poputil::poplibs_error);
}

TEST_CASE("The weight update reduces over batch and field", "[poplin][plan]") {
  const Target mk2 = Target::createIPUTarget(1, "ipu2");
  const ConvPlan plan = planConv(mk2, FLOAT, resnetLayer(), mk2.getNumTiles(),
                                 {}, ConvPass::WeightUpdate);
  CHECK(plan.reductionDepth() == plan.splitB * plan.splitF);
  CHECK(plan.tilesUsed() >= 512);
  CHECK(plan.bytesPerTile <= 0.6 * mk2.getBytesPerTile());
}

TEST_CASE("Conv options are validated", "[poplin][plan]") {
  CHECK(parseConvOptions({{"partialsType", "half"}}).partialsType == HALF);
  CHECK(parseConvOptions({{"pass", "FC_TRAINING_WU"}}).pass ==
        "FC_TRAINING_WU");
  CHECK_THROWS_AS(parseConvOptions({{"partialsType", "int"}}),
                  poplar::invalid_option);
  CHECK_THROWS_AS(parseConvOptions({{"enableFastReduce", "yes"}}),
                  poplar::invalid_option);
}
