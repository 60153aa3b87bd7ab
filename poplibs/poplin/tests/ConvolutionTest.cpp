// poplin::convolution, its input-gradient and weight-update passes against
// the host model of ConvOracle.hpp on every test device: 1-D, 2-D and 3-D
// fields with strides, padding, dilation, truncation, flips, groups and
// batches, FLOAT and HALF, operands from createInput/createWeights and
// plain linearly mapped ones; biases; errors.
#include "ConvOracle.hpp"
#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/ConvUtil.hpp>
#include <poplin/ConvPreplan.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MultiConvolution.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include "TestValues.hpp"
#include <cmath>
#include <random>
#include <sstream>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;
using poplin::ConvParams;

namespace {

struct Rig {
  Device device;
  Graph graph;
  Sequence prog;
  explicit Rig(unsigned tiles)
      : device(sdktest::createTestDevice(tiles)), graph(device.getTarget()) {
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
  }
  void write(Engine &e, const std::string &h, const Type &t,
             const std::vector<float> &v) {
    if (t == FLOAT) {
      e.writeTensor(h, v.data(), v.data() + v.size());
      return;
    }
    std::vector<std::uint16_t> x(v.size());
    copyFloatToDeviceHalf(graph.getTarget(), v.data(), x.data(), x.size());
    e.writeTensor(h, x.data(), x.data() + x.size());
  }
  std::vector<float> read(Engine &e, const std::string &h, const Type &t,
                          std::size_t n) {
    std::vector<float> v(n);
    if (t == FLOAT) {
      e.readTensor(h, v.data(), v.data() + n);
      return v;
    }
    std::vector<std::uint16_t> x(n);
    e.readTensor(h, x.data(), x.data() + n);
    copyDeviceHalfToFloat(graph.getTarget(), x.data(), v.data(), n);
    return v;
  }
};

void checkClose(const std::vector<float> &got, const std::vector<double> &want,
                double tol) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i != got.size(); ++i) {
    INFO("element " << i);
    REQUIRE(std::abs(double(got[i]) - want[i]) <=
            tol * (1.0 + std::abs(want[i])));
  }
}

double tolerance(const Type &t) { return t == HALF ? 2e-3 : 1e-5; }

Tensor addMapped(Graph &graph, const Type &type,
                 const std::vector<std::size_t> &shape,
                 const std::string &name) {
  Tensor t = graph.addVariable(type, shape, name);
  poputil::mapTensorLinearly(graph, t);
  return t;
}

std::vector<std::size_t> inShape(const ConvParams &p) {
  std::vector<std::size_t> s{p.batchSize, p.getNumInputChans()};
  s.insert(s.end(), p.inputFieldShape.begin(), p.inputFieldShape.end());
  return s;
}
std::vector<std::size_t> outShape(const ConvParams &p) {
  std::vector<std::size_t> s{p.batchSize, p.getNumOutputChans()};
  const auto f = p.getOutputFieldShape();
  s.insert(s.end(), f.begin(), f.end());
  return s;
}
std::vector<std::size_t> weightShape(const ConvParams &p) {
  std::vector<std::size_t> s{p.numConvGroups, p.outputChannelsPerConvGroup,
                             p.inputChannelsPerConvGroup};
  s.insert(s.end(), p.kernelShape.begin(), p.kernelShape.end());
  return s;
}

// Forward, input gradient (through getGradientParams and transposed,
// flipped weights) and weight gradient of p, checked against the oracle.
void checkAllPasses(const ConvParams &p, unsigned tiles, bool useCreate,
                    const OptionFlags &options = {}) {
  INFO(p);
  const Type t = p.inputType;
  const auto x = poplin_test::halfExactValues(convoracle::inputElems(p), 1, 4);
  const auto w = poplin_test::halfExactValues(convoracle::weightElems(p), 2, 4);
  const auto dy =
      poplin_test::halfExactValues(convoracle::outputElems(p), 3, 4);
  Rig r(tiles);
  Tensor in = useCreate ? poplin::createInput(r.graph, p, "in", options)
                        : addMapped(r.graph, t, inShape(p), "in");
  Tensor weights = useCreate
                       ? poplin::createWeights(r.graph, p, "weights", options)
                       : addMapped(r.graph, t, weightShape(p), "weights");
  Tensor dyT = addMapped(r.graph, t, outShape(p), "dy");
  REQUIRE(in.shape() == inShape(p));
  REQUIRE(weights.shape() == weightShape(p));
  poplin::PlanningCache cache;
  Tensor y = poplin::convolution(r.graph, in, weights, p, false, r.prog, "fwd",
                                 options, &cache);
  REQUIRE(y.shape() == outShape(p));
  REQUIRE(y.elementType() == p.outputType);
  const ConvParams bwd = poplin::getGradientParams(p);
  Tensor dx = poplin::convolution(r.graph, dyT, weights, bwd, true, r.prog,
                                  "bwd", options, &cache);
  REQUIRE(dx.shape() == inShape(p));
  Tensor dw = poplin::calculateWeightDeltas(r.graph, dyT, in, p, r.prog, "wu",
                                            options, &cache);
  REQUIRE(dw.shape() == weightShape(p));
  r.graph.createHostWrite("x", in);
  r.graph.createHostWrite("w", weights);
  r.graph.createHostWrite("dy", dyT);
  r.graph.createHostRead("y", y);
  r.graph.createHostRead("dx", dx);
  r.graph.createHostRead("dw", dw);
  Engine e(r.graph, r.prog);
  e.load(r.device);
  r.write(e, "x", t, x);
  r.write(e, "w", t, w);
  r.write(e, "dy", t, dy);
  e.run(0);
  {
    INFO("forward");
    checkClose(r.read(e, "y", p.outputType, convoracle::outputElems(p)),
               convoracle::forward(p, x, w), tolerance(p.outputType));
  }
  {
    INFO("input gradient");
    checkClose(r.read(e, "dx", bwd.outputType, convoracle::inputElems(p)),
               convoracle::inputGradient(p, dy, w), tolerance(t));
  }
  {
    INFO("weight gradient");
    checkClose(r.read(e, "dw", t, convoracle::weightElems(p)),
               convoracle::weightGradient(p, dy, x), tolerance(t));
  }
}

ConvParams plain(const Type &t, std::size_t batch,
                 std::vector<std::size_t> field,
                 std::vector<std::size_t> kernel, std::size_t ci,
                 std::size_t co, std::size_t groups) {
  return ConvParams(t, batch, std::move(field), std::move(kernel), ci, co,
                    groups);
}

} // namespace

TEST_CASE("ConvParams sizes and printing", "[poplin][conv]") {
  ConvParams p(FLOAT, 2, {7, 6}, {3, 2}, 4, 5, 1);
  p.inputTransform.paddingLower = {1, 0};
  p.inputTransform.paddingUpper = {1, 2};
  p.inputTransform.dilation = {2, 1};
  p.outputTransform.stride = {2, 3};
  // Input 7 dilated 2 is 13, padded 15; kernel 3: 13 results, stride 2: 7.
  // Input 6 padded 8; kernel 2: 7 results, stride 3: 3.
  CHECK(p.getTransformedInputSize(0) == 15);
  CHECK(p.getUntransformedOutputSize(0) == 13);
  CHECK(p.getOutputFieldShape() == std::vector<std::size_t>{7, 3});
  CHECK(p.getNumOutputChans() == 5);
  std::ostringstream os;
  os << p;
  CHECK_THAT(os.str(), Contains("Params: inputType                  float"));
  CHECK_THAT(os.str(), Contains("        inputDilation              {2,1}\n"));
  CHECK_THAT(os.str(), Contains("        outputFieldShape           {7,3}\n"));
  CHECK(p == ConvParams(p));
  CHECK(std::hash<ConvParams>()(p) == std::hash<ConvParams>()(ConvParams(p)));
  // 6 results with stride 3 keep results 0 and 3 and read inputs 0 to 5:
  // the results the stride skips are truncated, then the two unused
  // inputs, and that truncation of the input replaces the output's.
  ConvParams q(FLOAT, 1, {8}, {3}, 1, 1, 1);
  q.outputTransform.stride = {3};
  const ConvParams cq = q.canonicalize();
  CHECK(cq.inputTransform.truncationUpper == std::vector<unsigned>{2});
  CHECK(cq.outputTransform.truncationUpper == std::vector<unsigned>{0});
  CHECK(cq.getOutputFieldShape() == q.getOutputFieldShape());
}

TEST_CASE("canonicalize keeps the convolution", "[poplin][conv]") {
  std::vector<ConvParams> cases;
  cases.push_back(ConvParams(FLOAT, 2, {7, 6}, {3, 2}, 2, 3, 1));
  cases.back().inputTransform.paddingLower = {1, 0};
  cases.back().inputTransform.paddingUpper = {1, 2};
  cases.back().inputTransform.dilation = {2, 1};
  cases.back().outputTransform.stride = {2, 3};
  cases.push_back(ConvParams(FLOAT, 1, {11}, {3}, 2, 2, 1));
  cases.back().inputTransform.flip = {true};
  cases.back().inputTransform.paddingLower = {4};
  cases.back().kernelTransform.paddingLower = {2};
  cases.back().kernelTransform.dilation = {2};
  cases.back().outputTransform.truncationLower = {1};
  cases.back().outputTransform.paddingUpper = {2};
  // Padding wider than the kernel: some outputs see only zeros.
  cases.push_back(ConvParams(FLOAT, 1, {4, 3}, {2, 2}, 1, 2, 1));
  cases.back().inputTransform.paddingLower = {3, 0};
  cases.back().inputTransform.paddingUpper = {0, 4};
  cases.back().kernelTransform.flip = {true, false};
  // Every output zero: the kernel sees only padding.
  cases.push_back(ConvParams(FLOAT, 1, {3}, {2}, 1, 1, 1));
  cases.back().inputTransform.paddingLower = {6};
  cases.back().outputTransform.truncationUpper = {3};
  for (const ConvParams &p : cases) {
    INFO(p);
    const ConvParams c = p.canonicalize();
    INFO(c);
    CHECK(c.canonicalize() == c);
    REQUIRE(c.getOutputFieldShape() == p.getOutputFieldShape());
    const auto x =
        poplin_test::halfExactValues(convoracle::inputElems(p), 7, 4);
    const auto w =
        poplin_test::halfExactValues(convoracle::weightElems(p), 8, 4);
    const auto want = convoracle::forward(p, x, w);
    const auto got = convoracle::forward(c, x, w);
    REQUIRE(got == want);
  }
}

TEST_CASE("convolution passes match the host model", "[poplin][conv]") {
  const unsigned tiles = 4;
  SECTION("2-D, padding and stride") {
    ConvParams p = plain(FLOAT, 2, {7, 6}, {3, 3}, 5, 6, 1);
    p.inputTransform.paddingLower = {1, 1};
    p.inputTransform.paddingUpper = {1, 1};
    p.outputTransform.stride = {2, 1};
    checkAllPasses(p, tiles, true);
    checkAllPasses(p, tiles, false);
  }
  SECTION("1-D, dilation, flips and output padding") {
    ConvParams p = plain(FLOAT, 3, {11}, {3}, 2, 3, 1);
    p.inputTransform.dilation = {2};
    p.inputTransform.flip = {true};
    p.inputTransform.paddingLower = {2};
    p.kernelTransform.dilation = {2};
    p.kernelTransform.flip = {true};
    p.outputTransform.stride = {3};
    p.outputTransform.paddingLower = {1};
    p.outputTransform.paddingUpper = {2};
    checkAllPasses(p, tiles, false);
  }
  SECTION("2-D, truncation and kernel padding") {
    ConvParams p = plain(FLOAT, 1, {9, 8}, {4, 3}, 3, 2, 1);
    p.inputTransform.truncationLower = {1, 0};
    p.inputTransform.truncationUpper = {0, 2};
    p.kernelTransform.truncationLower = {1, 0};
    p.kernelTransform.paddingUpper = {0, 1};
    p.kernelTransform.flip = {false, true};
    p.outputTransform.truncationLower = {1, 0};
    p.outputTransform.truncationUpper = {0, 1};
    checkAllPasses(p, tiles, true);
  }
  SECTION("3-D with groups and stride") {
    ConvParams p = plain(FLOAT, 2, {4, 5, 6}, {2, 3, 2}, 3, 4, 2);
    p.inputTransform.paddingLower = {0, 1, 1};
    p.inputTransform.paddingUpper = {1, 1, 0};
    p.outputTransform.stride = {1, 2, 2};
    checkAllPasses(p, tiles, true);
  }
  SECTION("depthwise, many channels, 1x1 and HALF") {
    checkAllPasses(plain(FLOAT, 2, {5, 5}, {3, 3}, 1, 1, 6), tiles, true);
    // Rows longer than the single-channel kernel's 64 positions, strided
    // along each dimension in turn, and HALF.
    for (std::vector<unsigned> stride :
         {std::vector<unsigned>{2, 1}, std::vector<unsigned>{1, 2}}) {
      ConvParams dw = plain(FLOAT, 1, {5, 70}, {3, 3}, 1, 1, 3);
      dw.inputTransform.paddingLower = {1, 1};
      dw.inputTransform.paddingUpper = {1, 1};
      dw.outputTransform.stride = stride;
      checkAllPasses(dw, tiles, true);
    }
    checkAllPasses(plain(HALF, 2, {6, 6}, {3, 3}, 1, 1, 4), tiles, true);
    checkAllPasses(plain(FLOAT, 1, {3, 3}, {1, 1}, 40, 20, 1), tiles, true);
    // Full 16-channel blocks (the vector fast path) with edges.
    ConvParams wide = plain(FLOAT, 2, {5, 7}, {3, 3}, 9, 35, 1);
    wide.inputTransform.paddingLower = {1, 1};
    wide.inputTransform.paddingUpper = {1, 1};
    checkAllPasses(wide, 1, true);
    checkAllPasses(wide, tiles, false);
    ConvParams h = plain(HALF, 2, {6, 5}, {3, 2}, 4, 18, 1);
    h.inputTransform.paddingLower = {1, 1};
    h.outputTransform.stride = {2, 2};
    checkAllPasses(h, tiles, true);
    checkAllPasses(ConvParams(HALF, FLOAT, 1, {6}, {3}, 3, 2, 1), tiles, false);
  }
  SECTION("FLOAT weights in blocks of 16 output channels") {
    // Two groups of 32 output channels (two blocks each) from 16 inputs, so
    // that the input gradient's convolution has whole blocks too; with
    // createWeights (on the CPU device stored in blocks and read where they
    // are), a plain variable, and a flipped kernel (read through a view).
    ConvParams p = plain(FLOAT, 2, {5, 6}, {3, 3}, 16, 32, 2);
    p.inputTransform.paddingLower = {1, 1};
    p.inputTransform.paddingUpper = {1, 0};
    checkAllPasses(p, 1, true);
    checkAllPasses(p, 1, false);
    p.kernelTransform.flip = {true, false};
    checkAllPasses(p, 1, true);
    Rig r(1);
    const Tensor w = poplin::createWeights(r.graph, p, "w");
    // [G, Co, Ci, Y, X] as [G, Co / 16, Y, X, Ci, 16]: the order of storage
    // on the CPU device.
    const Tensor blocks =
        w.reshape({2, 2, 16, 16, 3, 3}).dimShuffle({0, 1, 4, 5, 3, 2});
    CHECK(blocks.isContiguous() ==
          (r.graph.getTarget().getTargetType() == poplar::TargetType::CPU));
  }
  SECTION("more tiles than work, and a tight memory budget") {
    checkAllPasses(plain(FLOAT, 2, {6, 6}, {3, 3}, 24, 20, 1), 64, true);
    checkAllPasses(plain(FLOAT, 2, {6, 6}, {3, 3}, 24, 20, 1), 16, true,
                   {{"availableMemoryProportion", "0.05"}});
  }
}

TEST_CASE("addBias on activations stored channels first and channels last",
          "[poplin][conv]") {
  // [2, 3, 4, 5] activations: one variable in that order, and one stored
  // [2, 4, 5, 3] (a convolution's channels-innermost output) seen as it.
  const std::vector<float> bias{0.5f, -1.0f, 2.25f};
  Rig r(4);
  Tensor first = addMapped(r.graph, FLOAT, {2, 3, 4, 5}, "first");
  Tensor last =
      addMapped(r.graph, FLOAT, {2, 4, 5, 3}, "last").dimShuffle({0, 3, 1, 2});
  Tensor biases = addMapped(r.graph, FLOAT, {3}, "biases");
  poplin::addBias(r.graph, first, biases, r.prog);
  poplin::addBias(r.graph, last, biases, r.prog);
  r.graph.createHostWrite("first", first);
  r.graph.createHostWrite("last", last);
  r.graph.createHostWrite("b", biases);
  r.graph.createHostRead("first", first);
  r.graph.createHostRead("last", last);
  Engine e(r.graph, r.prog);
  e.load(r.device);
  std::vector<float> x(120);
  for (std::size_t i = 0; i != x.size(); ++i)
    x[i] = 0.25f * float(i) - 7.0f;
  r.write(e, "first", FLOAT, x);
  r.write(e, "last", FLOAT, x);
  r.write(e, "b", FLOAT, bias);
  e.run(0);
  std::vector<double> want(x.size());
  for (std::size_t i = 0; i != x.size(); ++i) // [n][c][y][x] order
    want[i] = double(x[i] + bias[(i / 20) % 3]);
  checkClose(r.read(e, "first", FLOAT, x.size()), want, 0);
  checkClose(r.read(e, "last", FLOAT, x.size()), want, 0);
}

TEST_CASE("weight update, biases and weight transposition", "[poplin][conv]") {
  ConvParams p = plain(FLOAT, 2, {5, 4}, {3, 2}, 3, 4, 1);
  p.inputTransform.paddingLower = {1, 0};
  const auto x = poplin_test::halfExactValues(convoracle::inputElems(p), 4, 4);
  const auto w = poplin_test::halfExactValues(convoracle::weightElems(p), 5, 4);
  const auto dy =
      poplin_test::halfExactValues(convoracle::outputElems(p), 6, 4);
  const std::vector<float> bias{0.5f, -1.0f, 2.0f, 1.5f};
  Rig r(4);
  Tensor in = poplin::createInput(r.graph, p, "in");
  Tensor weights = poplin::createWeights(r.graph, p, "weights");
  Tensor weights2 = poplin::createWeights(r.graph, p, "weights2");
  Tensor dyT = addMapped(r.graph, FLOAT, outShape(p), "dy");
  Tensor y = poplin::convolution(r.graph, in, weights, p, false, r.prog);
  Tensor biases = poplin::createBiases(r.graph, y);
  REQUIRE(biases.shape() == std::vector<std::size_t>{4});
  poplin::addBias(r.graph, y, biases, r.prog);
  // Transposed weights [G, Ci, Co, k] flipped in space.
  std::vector<std::size_t> tShape{1, 3, 4, 3, 2};
  Tensor transposed = addMapped(r.graph, FLOAT, tShape, "transposed");
  poplin::weightsTransposeChansFlipXY(r.graph, weights, transposed, r.prog);
  // Float and tensor scales: weights += -0.5 dW, weights2 += 0.25 dW.
  poplin::convolutionWeightUpdate(r.graph, dyT, weights, in, p, -0.5f, r.prog);
  Tensor scale = r.graph.addConstant(FLOAT, {}, 0.25f);
  r.graph.setTileMapping(scale, 0);
  poplin::convolutionWeightUpdate(r.graph, dyT, weights2, in, p, scale, r.prog);
  poplin::convolutionBiasUpdate(r.graph, dyT, biases, 2.0f, {}, r.prog);
  r.graph.createHostWrite("x", in);
  r.graph.createHostWrite("w", weights);
  r.graph.createHostWrite("w2", weights2);
  r.graph.createHostWrite("b", biases);
  r.graph.createHostWrite("dy", dyT);
  r.graph.createHostRead("y", y);
  r.graph.createHostRead("w", weights);
  r.graph.createHostRead("w2", weights2);
  r.graph.createHostRead("t", transposed);
  r.graph.createHostRead("b", biases);
  Engine e(r.graph, r.prog);
  e.load(r.device);
  r.write(e, "x", FLOAT, x);
  r.write(e, "w", FLOAT, w);
  r.write(e, "w2", FLOAT, w);
  r.write(e, "b", FLOAT, bias);
  r.write(e, "dy", FLOAT, dy);
  e.run(0);

  const auto fwd = convoracle::forward(p, x, w);
  std::vector<double> withBias(fwd.size());
  const std::size_t field = fwd.size() / (2 * 4);
  for (std::size_t i = 0; i != fwd.size(); ++i)
    withBias[i] = fwd[i] + bias[(i / field) % 4];
  checkClose(r.read(e, "y", FLOAT, fwd.size()), withBias, 1e-5);
  const auto dw = convoracle::weightGradient(p, dy, x);
  std::vector<double> w1(w.size()), w2(w.size());
  for (std::size_t i = 0; i != w.size(); ++i) {
    w1[i] = w[i] - 0.5 * dw[i];
    w2[i] = w[i] + 0.25 * dw[i];
  }
  checkClose(r.read(e, "w", FLOAT, w.size()), w1, 1e-5);
  checkClose(r.read(e, "w2", FLOAT, w.size()), w2, 1e-5);
  // transposed[0][i][o][ky][kx] = w[0][o][i][2 - ky][1 - kx]
  const auto t = r.read(e, "t", FLOAT, w.size());
  for (std::size_t i = 0; i != 3; ++i)
    for (std::size_t o = 0; o != 4; ++o)
      for (std::size_t ky = 0; ky != 3; ++ky)
        for (std::size_t kx = 0; kx != 2; ++kx)
          REQUIRE(t[((i * 4 + o) * 3 + ky) * 2 + kx] ==
                  w[((o * 3 + i) * 3 + (2 - ky)) * 2 + (1 - kx)]);
  const auto b = r.read(e, "b", FLOAT, 4);
  for (std::size_t c = 0; c != 4; ++c) {
    double sum = 0;
    for (std::size_t n = 0; n != 2; ++n)
      for (std::size_t f = 0; f != field; ++f)
        sum += dy[(n * 4 + c) * field + f];
    REQUIRE(std::abs(b[c] - (bias[c] + 2.0 * sum)) < 1e-4);
  }
}

TEST_CASE("planning cache and preplanning", "[poplin][conv]") {
  Rig r(16);
  ConvParams p = plain(FLOAT, 2, {8, 8}, {3, 3}, 16, 16, 1);
  poplin::PlanningCache cache;
  OptionFlags options{{"pass", "TRAINING_FWD"}};
  poplin::preplanConvolutions({{&r.graph.getTarget(), p, &options}}, cache);
  CHECK(cache.size() == 1);
  poplin::createWeights(r.graph, p, "w", options, &cache);
  CHECK(cache.size() == 1);
  std::ostringstream os;
  poplin::reportPlanInfo(os, r.graph, p, options, &cache);
  CHECK_THAT(os.str(), Contains("estimated cycles"));
  CHECK(poplin::getFwdFlops(p) == 2ull * 2 * 36 * 16 * 16 * 9);
  CHECK(poplin::getFwdEstimatedCycles(r.graph, p, options, &cache) > 0);
}

TEST_CASE("preplan plans convolutions and matmuls into one cache",
          "[poplin][conv]") {
  Rig r(16);
  const Target &target = r.graph.getTarget();
  ConvParams p = plain(FLOAT, 2, {8, 8}, {3, 3}, 16, 16, 1);
  poplin::MatMulParams mm{FLOAT, FLOAT, {24, 40}, {40, 8}};
  const OptionFlags convOptions{{"pass", "TRAINING_FWD"}}, mmOptions;
  poplin::matmul::PlanningCache cache;
  poplin::preplan({{&target, p, &convOptions}}, {{&target, mm, &mmOptions}},
                  cache.getImpl());
  CHECK(cache.getImpl().size() == 2);
  CHECK(cache.size() == 2);
  // Both find their plans: nothing more is planned.
  Tensor in = poplin::createInput(r.graph, p, "in", convOptions,
                                  &cache.getImpl());
  Tensor w = poplin::createWeights(r.graph, p, "w", convOptions,
                                   &cache.getImpl());
  Tensor y = poplin::convolution(r.graph, in, w, p, false, r.prog, "conv",
                                 convOptions, &cache.getImpl());
  Tensor a = poplin::createMatMulInputLHS(r.graph, FLOAT, mm.aShape,
                                          mm.bShape, "a", mmOptions, &cache);
  Tensor b = poplin::createMatMulInputRHS(r.graph, FLOAT, mm.aShape,
                                          mm.bShape, "b", mmOptions, &cache);
  Tensor c = poplin::matMul(r.graph, a, b, r.prog, "mm", mmOptions, &cache);
  CHECK(cache.size() == 2);
  // The products run as planned.
  const auto av = poplin_test::halfExactValues(24 * 40, 6, 4),
             bv = poplin_test::halfExactValues(40 * 8, 7, 4);
  r.graph.createHostWrite("a", a);
  r.graph.createHostWrite("b", b);
  r.graph.createHostRead("c", c);
  Engine e(r.graph, r.prog);
  e.load(r.device);
  r.write(e, "a", FLOAT, av);
  r.write(e, "b", FLOAT, bv);
  e.run(0);
  const auto cv = r.read(e, "c", FLOAT, 24 * 8);
  for (std::size_t i = 0; i != 24; ++i)
    for (std::size_t j = 0; j != 8; ++j) {
      double want = 0;
      for (std::size_t l = 0; l != 40; ++l)
        want += double(av[i * 40 + l]) * bv[l * 8 + j];
      REQUIRE(cv[i * 8 + j] == want);
    }
  // preplanMatMuls keeps using the same cache.
  poplin::MatMulParams other{FLOAT, FLOAT, {8, 8}, {8, 8}};
  poplin::preplanMatMuls({{&target, other, &mmOptions}}, cache);
  CHECK(cache.size() == 3);
  CHECK_THROWS_WITH(
      poplin::preplan({}, {{nullptr, mm, &mmOptions}}, cache.getImpl()),
      Contains("no target"));
}

TEST_CASE("convolution errors name what is wrong", "[poplin][conv]") {
  Rig r(4);
  ConvParams p = plain(FLOAT, 2, {6, 6}, {3, 3}, 4, 5, 1);
  Tensor in = addMapped(r.graph, FLOAT, {2, 4, 6, 6}, "in");
  Tensor w = addMapped(r.graph, FLOAT, {1, 5, 4, 3, 3}, "w");
  Tensor badIn = addMapped(r.graph, FLOAT, {2, 3, 6, 6}, "badIn");
  Tensor badW = addMapped(r.graph, FLOAT, {1, 5, 4, 3, 2}, "badW");
  Tensor halfIn = addMapped(r.graph, HALF, {2, 4, 6, 6}, "halfIn");
  CHECK_THROWS_WITH(poplin::convolution(r.graph, badIn, w, p, false, r.prog),
                    Contains("input tensor has shape [2, 3, 6, 6]") &&
                        Contains("[2, 4, 6, 6]"));
  CHECK_THROWS_WITH(poplin::convolution(r.graph, in, badW, p, false, r.prog),
                    Contains("weights tensor has shape [1, 5, 4, 3, 2]"));
  // Transposed weights are [G, Ci, Co, k].
  CHECK_THROWS_WITH(poplin::convolution(r.graph, in, w, p, true, r.prog),
                    Contains("weights tensor"));
  CHECK_THROWS_WITH(poplin::convolution(r.graph, halfIn, w, p, false, r.prog),
                    Contains("input (half)"));
  CHECK_THROWS_WITH(poplin::convolution(r.graph, in, w, p, false, r.prog, {},
                                        {{"availableMemoryProportion", "2"}}),
                    Contains("availableMemoryProportion"));
  CHECK_THROWS_WITH(poplin::createWeights(r.graph, p, "w", {{"bogus", "1"}}),
                    Contains("unknown convolution option 'bogus'"));
  CHECK_THROWS_WITH(poplin::createInput(r.graph, p, "in", {{"pass", "FWD"}}),
                    Contains("pass"));
  ConvParams big = p;
  big.kernelShape = {7, 3};
  CHECK_THROWS_AS(poplin::convolution(r.graph, in, w, big, false, r.prog),
                  poputil::poplibs_error);
  ConvParams zeroStride = p;
  zeroStride.outputTransform.stride = {0, 1};
  CHECK_THROWS_WITH(zeroStride.validate(), Contains("stride"));
  ConvParams wrongDims = p;
  wrongDims.inputTransform.dilation = {1};
  CHECK_THROWS_WITH(wrongDims.validate(), Contains("input dilation"));
  CHECK_THROWS_WITH(poplin::calculateWeightDeltas(r.graph, in, in, p, r.prog),
                    Contains("zDeltas tensor has shape"));
  Tensor biases = addMapped(r.graph, FLOAT, {4}, "biases");
  Tensor out = addMapped(r.graph, FLOAT, {2, 5, 4, 4}, "out");
  CHECK_THROWS_WITH(poplin::addBias(r.graph, out, biases, r.prog),
                    Contains("biases tensor has shape"));
  // No plan fits a tiny memory budget for a large convolution.
  ConvParams huge = plain(FLOAT, 64, {224, 224}, {7, 7}, 64, 64, 1);
  CHECK_THROWS_WITH(
      poplin::createWeights(r.graph, huge, "w",
                            {{"availableMemoryProportion", "0.001"}}),
      Contains("no convolution plan"));
}

TEST_CASE("convolutionWithOutput writes the given tensor", "[poplin][conv]") {
  ConvParams p = plain(HALF, 2, {7, 5}, {3, 2}, 3, 4, 1);
  p.outputType = FLOAT;
  p.outputTransform.stride = {2, 1};
  const auto x = poplin_test::halfExactValues(convoracle::inputElems(p), 4, 4);
  const auto w =
      poplin_test::halfExactValues(convoracle::weightElems(p), 5, 4);
  Rig r(4);
  Tensor in = poplin::createInput(r.graph, p, "in");
  Tensor weights = poplin::createWeights(r.graph, p, "weights");
  Tensor created = poplin::createConvOutput(r.graph, p, "created");
  Tensor linear = addMapped(r.graph, FLOAT, outShape(p), "linear");
  poplin::convolutionWithOutput(r.graph, in, weights, created, p, false,
                                r.prog, "intoCreated");
  poplin::convolutionWithOutput(r.graph, in, weights, linear, p, false,
                                r.prog, "intoLinear");
  r.graph.createHostWrite("x", in);
  r.graph.createHostWrite("w", weights);
  r.graph.createHostRead("created", created);
  r.graph.createHostRead("linear", linear);
  Engine e(r.graph, r.prog);
  e.load(r.device);
  r.write(e, "x", HALF, x);
  r.write(e, "w", HALF, w);
  e.run(0);
  const auto want = convoracle::forward(p, x, w);
  checkClose(r.read(e, "created", FLOAT, want.size()), want, 1e-5);
  checkClose(r.read(e, "linear", FLOAT, want.size()), want, 1e-5);

  Tensor wrongShape = addMapped(r.graph, FLOAT, {2, 4, 3, 3}, "wrongShape");
  CHECK_THROWS_WITH(poplin::convolutionWithOutput(r.graph, in, weights,
                                                  wrongShape, p, false, r.prog),
                    Contains("output tensor has shape [2, 4, 3, 3]") &&
                        Contains("[2, 4, 3, 4]"));
  Tensor wrongType = addMapped(r.graph, HALF, outShape(p), "wrongType");
  CHECK_THROWS_WITH(poplin::convolutionWithOutput(r.graph, in, weights,
                                                  wrongType, p, false, r.prog),
                    Contains("output tensor is half") &&
                        Contains("params give float"));
}

TEST_CASE("multiconv runs each convolution of the set", "[poplin][conv]") {
  namespace mc = poplin::multiconv;
  ConvParams a = plain(FLOAT, 2, {6, 5}, {3, 3}, 3, 4, 1);
  a.inputTransform.paddingLower = {1, 1};
  ConvParams b = plain(FLOAT, 1, {9}, {2}, 4, 2, 2);
  b.outputTransform.stride = {2};
  Rig r(4);
  const std::vector<mc::CreateTensorArgs> create{{a, {}, "a"}, {b, {}, "b"}};
  std::vector<mc::ConvolutionArgs> args;
  for (unsigned i = 0; i != 2; ++i)
    args.push_back({mc::createInput(r.graph, create, i),
                    mc::createWeights(r.graph, create, i),
                    i ? b : a,
                    {{"availableMemoryProportion", "0.5"},
                     {"pass", "INFERENCE_FWD"}}});
  // The call's options are the multi-plan ones, not convolution options.
  CHECK_THROWS_WITH(mc::convolution(r.graph, args, false, r.prog, "multi",
                                    {{"pass", "INFERENCE_FWD"}}),
                    Contains("'pass'") && Contains("planType"));
  CHECK_THROWS_WITH(mc::convolution(r.graph, args, false, r.prog, "multi",
                                    {{"planType", "diagonal"}}),
                    Contains("planType") && Contains("diagonal"));
  CHECK_THROWS_WITH(mc::createWeights(r.graph, create, 0,
                                      {{"perConvReservedTiles", "many"}}),
                    Contains("perConvReservedTiles"));
  const auto outs = mc::convolution(
      r.graph, args, false, r.prog, "multi",
      {{"planType", "serial"}, {"perConvReservedTiles", "8"},
       {"cycleBackOff", "0.2"}});
  REQUIRE(outs.size() == 2);
  CHECK_THROWS_WITH(mc::createInput(r.graph, create, 2),
                    Contains("index 2 is out of range for 2"));
  std::vector<std::vector<float>> x, w;
  for (unsigned i = 0; i != 2; ++i) {
    const ConvParams &p = i ? b : a;
    x.push_back(
        poplin_test::halfExactValues(convoracle::inputElems(p), 10 + i, 4));
    w.push_back(
        poplin_test::halfExactValues(convoracle::weightElems(p), 20 + i, 4));
    r.graph.createHostWrite("x" + std::to_string(i), args[i].inputs);
    r.graph.createHostWrite("w" + std::to_string(i), args[i].weights);
    r.graph.createHostRead("y" + std::to_string(i), outs[i]);
  }
  Engine e(r.graph, r.prog);
  e.load(r.device);
  for (unsigned i = 0; i != 2; ++i) {
    r.write(e, "x" + std::to_string(i), FLOAT, x[i]);
    r.write(e, "w" + std::to_string(i), FLOAT, w[i]);
  }
  e.run(0);
  for (unsigned i = 0; i != 2; ++i) {
    const ConvParams &p = i ? b : a;
    checkClose(
        r.read(e, "y" + std::to_string(i), FLOAT, convoracle::outputElems(p)),
        convoracle::forward(p, x[i], w[i]), 1e-5);
  }
}

TEST_CASE("the IPU Model's cycles follow the plan's estimate",
          "[poplin][conv]") {
  // The plan prices the largest block's vertex, its operands' exchange and
  // the reduction; the model runs every vertex with its estimate and
  // prices the exchanges itself. Operands from createInput/createWeights.
  IPUModel model("ipu2");
  model.tilesPerIPU = 64;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  ConvParams p = plain(FLOAT, 2, {16, 16}, {3, 3}, 32, 32, 1);
  p.inputTransform.paddingLower = {1, 1};
  p.inputTransform.paddingUpper = {1, 1};
  Sequence prog;
  poplin::PlanningCache cache;
  Tensor in = poplin::createInput(graph, p, "in", {}, &cache);
  Tensor w = poplin::createWeights(graph, p, "w", {}, &cache);
  poplin::convolution(graph, in, w, p, false, prog, "conv", {}, &cache);
  Engine e(graph, prog, {{"debug.instrument", "true"}});
  e.load(device);
  e.run(0);
  const double simulated =
      double(e.getExecutionProfile()["simulation"]["cycles"].asUint());
  const double estimated =
      double(poplin::getFwdEstimatedCycles(graph, p, {}, &cache));
  INFO("simulated " << simulated << ", estimated " << estimated);
  CHECK(std::abs(simulated - estimated) <= 0.15 * estimated);
}

TEST_CASE("tilesPerIPU limits the tiles a convolution uses", "[poplin][conv]") {
  IPUModel model("ipu2");
  model.tilesPerIPU = 16;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  ConvParams p = plain(FLOAT, 2, {8, 8}, {3, 3}, 16, 16, 1);
  const OptionFlags options{{"tilesPerIPU", "4"},
                            {"partialsType.interTile", "float"}};
  Sequence prog;
  Tensor in = poplin::createInput(graph, p, "in", options);
  Tensor w = poplin::createWeights(graph, p, "w", options);
  Tensor out =
      poplin::convolution(graph, in, w, p, false, prog, "conv", options);
  for (const Tensor &t : {in, w, out}) {
    const auto mapping = graph.getTileMapping(t);
    for (std::size_t tile = 4; tile < mapping.size(); ++tile)
      CHECK(mapping[tile].empty());
  }
  CHECK_THROWS_WITH(poplin::createInput(graph, p, "in", {{"tilesPerIPU", "0"}}),
                    Contains("tilesPerIPU"));
}
