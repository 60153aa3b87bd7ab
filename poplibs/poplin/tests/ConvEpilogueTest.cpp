// poplin::convolution with a ConvEpilogue (a bias per output channel, then
// a clamp) gives the bits of convolution(), addBias() and a popops Clamp
// run one after the other, NaN and infinities included, on the CPU device
// (where the convolution's vertices apply it) and on the IPU Model (where
// it runs as those operations); the values are the host oracle's; a
// floating-point exception of the fused bias names the convolution's
// vertex; biases of the wrong shape or type are refused by name.
#include "ConvOracle.hpp"
#include "TestDevice.hpp"
#include "TestValues.hpp"

#include <poplar/CSRFunctions.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;

namespace {

namespace pe = popops::expr;

constexpr float inf = std::numeric_limits<float>::infinity();

struct Epilogue {
  bool bias;
  bool clamp;
  float lower, upper;
};

struct Outputs {
  std::vector<float> fused, apart;
};

// The convolution with the epilogue, and the convolution followed by
// addBias and the clamp, of the same operands in one engine.
Outputs run(const poplin::ConvParams &p, const Epilogue &e,
            const std::vector<float> &x, const std::vector<float> &w,
            const std::vector<float> &b,
            const FloatingPointBehaviour *fp = nullptr) {
  // (The IPU Model's tiles hold the largest case in 16.)
  Device device = sdktest::createTestDevice(16);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  Sequence prog;
  if (fp)
    setFloatingPointBehaviour(graph, prog, *fp, "fp");
  Tensor in = poplin::createInput(graph, p, "in");
  Tensor weights = poplin::createWeights(graph, p, "weights");
  Tensor biases = graph.addVariable(FLOAT, {p.getNumOutputChans()}, "biases");
  poputil::mapTensorLinearly(graph, biases);
  poplin::ConvEpilogue epilogue;
  if (e.bias)
    epilogue.biases = biases;
  epilogue.clamp = e.clamp;
  epilogue.lowerBound = e.lower;
  epilogue.upperBound = e.upper;
  Tensor fused = poplin::convolution(graph, in, weights, p, false, epilogue,
                                     prog, "fused");
  Tensor apart =
      poplin::convolution(graph, in, weights, p, false, prog, "conv");
  if (e.bias)
    poplin::addBias(graph, apart, biases, prog, "bias");
  if (e.clamp)
    popops::mapInPlace(
        graph, pe::Max(pe::Min(pe::_1, pe::Const(e.upper)), pe::Const(e.lower)),
        {apart}, prog, "clamp");
  graph.createHostWrite("x", in);
  graph.createHostWrite("w", weights);
  graph.createHostWrite("b", biases);
  graph.createHostRead("fused", fused);
  graph.createHostRead("apart", apart);
  Engine engine(graph, prog);
  engine.load(device);
  engine.writeTensor("x", x.data(), x.data() + x.size());
  engine.writeTensor("w", w.data(), w.data() + w.size());
  engine.writeTensor("b", b.data(), b.data() + b.size());
  engine.run(0);
  Outputs o{std::vector<float>(fused.numElements()),
            std::vector<float>(apart.numElements())};
  engine.readTensor("fused", o.fused.data(), o.fused.data() + o.fused.size());
  engine.readTensor("apart", o.apart.data(), o.apart.data() + o.apart.size());
  return o;
}

std::vector<poplin::ConvParams> cases() {
  std::vector<poplin::ConvParams> c;
  // Padded 3x3, 40 output channels: two blocks of 16 and a tail of 8.
  c.emplace_back(FLOAT, 1, std::vector<std::size_t>{7, 9},
                 std::vector<std::size_t>{3, 3}, 5, 40, 1);
  c.back().inputTransform.paddingLower = {1, 1};
  c.back().inputTransform.paddingUpper = {1, 1};
  // 1x1 with 32 channels in and out (weights stored in blocks of 16).
  c.emplace_back(FLOAT, 2, std::vector<std::size_t>{6, 6},
                 std::vector<std::size_t>{1, 1}, 8, 32, 1);
  // Two groups of 16 output channels each.
  c.emplace_back(FLOAT, 1, std::vector<std::size_t>{5, 5},
                 std::vector<std::size_t>{3, 3}, 4, 16, 2);
  // Depthwise, strided and padded: 24 groups of one channel.
  c.emplace_back(FLOAT, 1, std::vector<std::size_t>{9, 10},
                 std::vector<std::size_t>{3, 3}, 1, 1, 24);
  c.back().inputTransform.paddingLower = {1, 1};
  c.back().inputTransform.paddingUpper = {1, 1};
  c.back().outputTransform.stride = {2, 2};
  // Large enough for the host threads: a 1x1 of 4M multiply-accumulates,
  // and a depthwise 3x3 of 0.9M.
  c.emplace_back(FLOAT, 1, std::vector<std::size_t>{32, 32},
                 std::vector<std::size_t>{1, 1}, 64, 64, 1);
  c.emplace_back(FLOAT, 1, std::vector<std::size_t>{56, 56},
                 std::vector<std::size_t>{3, 3}, 1, 1, 32);
  c.back().inputTransform.paddingLower = {1, 1};
  c.back().inputTransform.paddingUpper = {1, 1};
  return c;
}

const std::vector<Epilogue> epilogues = {{true, false, 0.0f, 0.0f},
                                         {true, true, 0.0f, inf},
                                         {false, true, 0.0f, 6.0f},
                                         {true, true, -0.5f, 0.25f}};

} // namespace

TEST_CASE("A convolution's epilogue gives the bits of addBias and a clamp "
          "after it, and the oracle's values",
          "[poplin][conv]") {
  unsigned seed = 31;
  for (const auto &p : cases()) {
    INFO(p);
    const auto x =
        poplin_test::uniformValues(convoracle::inputElems(p), seed++);
    const auto w =
        poplin_test::uniformValues(convoracle::weightElems(p), seed++);
    const auto b =
        poplin_test::uniformValues(p.getNumOutputChans(), seed++, -0.5f, 0.5f);
    const std::vector<double> sums = convoracle::forward(p, x, w);
    for (const Epilogue &e : epilogues) {
      INFO("bias " << e.bias << ", clamp " << e.clamp << " [" << e.lower << ", "
                   << e.upper << "]");
      const Outputs o = run(p, e, x, w, b);
      REQUIRE(poplin_test::sameBits(o.fused, o.apart));
      // Outputs [B, C, field...]: channel (o / field) % C.
      const std::size_t field = convoracle::product(p.getOutputFieldShape());
      for (std::size_t i = 0; i != sums.size(); ++i) {
        double want = sums[i];
        if (e.bias)
          want += b[(i / field) % p.getNumOutputChans()];
        if (e.clamp)
          want = std::max(double(e.lower), std::min(double(e.upper), want));
        INFO("output element " << i);
        REQUIRE(std::abs(double(o.fused[i]) - want) <=
                1e-5 * (1 + std::abs(want)));
        if (e.clamp)
          REQUIRE((o.fused[i] >= e.lower && o.fused[i] <= e.upper));
      }
    }
  }
}

TEST_CASE("A convolution's epilogue lets NaN through and clamps infinities "
          "as popops does",
          "[poplin][conv]") {
  for (const auto &p : {cases()[0], cases()[3]}) {
    INFO(p);
    auto x = poplin_test::uniformValues(convoracle::inputElems(p), 5);
    const auto w = poplin_test::uniformValues(convoracle::weightElems(p), 6);
    auto b = poplin_test::uniformValues(p.getNumOutputChans(), 7);
    x[3] = std::numeric_limits<float>::quiet_NaN();
    x[x.size() / 2] = inf;
    x[x.size() - 2] = -inf;
    b[1] = inf;
    for (const Epilogue &e : epilogues) {
      const Outputs o = run(p, e, x, w, b);
      REQUIRE(poplin_test::sameBits(o.fused, o.apart));
      const auto nans = std::count_if(o.fused.begin(), o.fused.end(),
                                      [](float v) { return std::isnan(v); });
      CHECK(nans > 0);
    }
  }
}

TEST_CASE("An overflow of a convolution's fused bias stops the run",
          "[poplin][conv]") {
  const poplin::ConvParams p = cases()[0];
  std::vector<float> b(p.getNumOutputChans(), 0.0f);
  b[39] = 3.4e38f;
  b[38] = -3.4e38f;
  // The sums (4e36 to 4.5e37) and the biases are finite; the sums plus
  // the bias of channel 39 pass the largest float.
  const std::vector<float> bigX(convoracle::inputElems(p), 1e36f);
  const std::vector<float> bigW(convoracle::weightElems(p), 1.0f);
  FloatingPointBehaviour overflowTraps(false, false, true, false, false);
  const bool cpu =
      sdktest::deviceTypeFromEnvironment() == sdktest::DeviceType::Cpu;
  REQUIRE_THROWS_WITH(
      run(p, {true, false, 0.0f, 0.0f}, bigX, bigW, b, &overflowTraps),
      Contains("overflow") &&
          Contains(cpu ? "ConvPartialEpilogue" : "popops::"));
  b[39] = b[38] = 1.0f;
  const Outputs o = run(p, {true, false, 0.0f, 0.0f}, bigX, bigW, b);
  CHECK(poplin_test::sameBits(o.fused, o.apart));
}

TEST_CASE("A convolution's epilogue with biases of the wrong shape or type "
          "is refused",
          "[poplin][conv]") {
  Device device = sdktest::createTestDevice(16);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  const poplin::ConvParams p = cases()[0];
  Tensor in = poplin::createInput(graph, p, "in");
  Tensor weights = poplin::createWeights(graph, p, "weights");
  Sequence prog;
  poplin::ConvEpilogue e;
  e.biases = graph.addVariable(FLOAT, {39}, "biases");
  REQUIRE_THROWS_AS(
      poplin::convolution(graph, in, weights, p, false, e, prog, "conv"),
      poputil::poplibs_error);
  REQUIRE_THROWS_WITH(
      poplin::convolution(graph, in, weights, p, false, e, prog, "conv"),
      Contains("epilogue's biases") && Contains("[40]"));
  e.biases = graph.addVariable(HALF, {40}, "halfBiases");
  REQUIRE_THROWS_WITH(
      poplin::convolution(graph, in, weights, p, false, e, prog, "conv"),
      Contains("epilogue's biases") && Contains("half"));
}
