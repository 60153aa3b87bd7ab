// On the CPU device, whose one tile holds a whole convolution: a FLOAT
// convolution (and its weight gradient) large enough for ConvPartial (and
// ConvWeightGradPartial) to share it over the host's threads gives the same
// bits for 1, 2 and 8 threads, close to the host oracle (ConvOracle.hpp),
// with channels past the last whole block of 16; and a floating-point
// exception raised by a part that another thread computed still stops the
// run. Depthwise convolutions (the CPU device's DepthwiseConvPartial, the
// IPU Model's single-channel ConvPartials) match a host loop bit for bit.
#include "ConvOracle.hpp"
#include "TestDevice.hpp"
#include "TestValues.hpp"

#include <poplar/CSRFunctions.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>

#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;

namespace {

std::size_t product(const std::vector<std::size_t> &v) {
  std::size_t n = 1;
  for (std::size_t d : v)
    n *= d;
  return n;
}

// The convolution's output [B, Co, field...] on the test device's one tile
// with `threads` host threads.
std::vector<float>
run(const poplin::ConvParams &p, const std::vector<float> &x,
    const std::vector<float> &w, unsigned threads,
    const FloatingPointBehaviour *fp,
    sdktest::DeviceType type = sdktest::deviceTypeFromEnvironment()) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            threads);
  Device device = sdktest::createTestDevice(type, 1, 1);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  Sequence prog;
  if (fp)
    setFloatingPointBehaviour(graph, prog, *fp, "fp");
  Tensor in = poplin::createInput(graph, p, "in");
  Tensor weights = poplin::createWeights(graph, p, "weights");
  Tensor out = poplin::convolution(graph, in, weights, p, false, prog, "conv");
  graph.createHostWrite("x", in);
  graph.createHostWrite("w", weights);
  graph.createHostRead("y", out);
  Engine engine(graph, prog);
  engine.load(device);
  engine.writeTensor("x", x.data(), x.data() + x.size());
  engine.writeTensor("w", w.data(), w.data() + w.size());
  engine.run(0);
  std::vector<float> y(out.numElements());
  engine.readTensor("y", y.data(), y.data() + y.size());
  return y;
}

// The weight deltas of the convolution from its input `x` and output
// gradient `dy` on the test device's one tile with `threads` host threads.
std::vector<float> runWeightDeltas(const poplin::ConvParams &p,
                                   const std::vector<float> &x,
                                   const std::vector<float> &dy,
                                   unsigned threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            threads);
  Device device = sdktest::createTestDevice(1);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  Sequence prog;
  Tensor in = poplin::createInput(graph, p, "in");
  Tensor deltas = poplin::createConvOutput(graph, p, "dy");
  Tensor dw = poplin::calculateWeightDeltas(graph, deltas, in, p, prog, "wu");
  graph.createHostWrite("x", in);
  graph.createHostWrite("dy", deltas);
  graph.createHostRead("dw", dw);
  Engine engine(graph, prog);
  engine.load(device);
  engine.writeTensor("x", x.data(), x.data() + x.size());
  engine.writeTensor("dy", dy.data(), dy.data() + dy.size());
  engine.run(0);
  std::vector<float> result(dw.numElements());
  engine.readTensor("dw", result.data(), result.data() + result.size());
  return result;
}

// Whether the kernels fuse their multiply-adds on this host (they do
// where it has AVX2 and FMA).
bool hostFusesMultiplyAdds() {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

double macs(const poplin::ConvParams &p) {
  return double(p.batchSize) * product(p.getOutputFieldShape()) *
         product(p.kernelShape) * p.inputChannelsPerConvGroup *
         p.outputChannelsPerConvGroup * p.numConvGroups;
}

} // namespace

TEST_CASE("A convolution shared over the host threads gives the same bits "
          "for any thread count",
          "[poplin][conv]") {
  std::vector<poplin::ConvParams> cases;
  // Padded 3x3, 40 output channels: two whole blocks of 16 and a tail of 8.
  cases.emplace_back(FLOAT, 2, std::vector<std::size_t>{16, 16},
                     std::vector<std::size_t>{3, 3}, 32, 40, 1);
  cases.back().inputTransform.paddingLower = {1, 1};
  cases.back().inputTransform.paddingUpper = {1, 1};
  // Strided 3x3 over an odd field, 64 output channels.
  cases.emplace_back(FLOAT, 1, std::vector<std::size_t>{41, 39},
                     std::vector<std::size_t>{3, 3}, 48, 64, 1);
  cases.back().outputTransform.stride = {2, 2};
  unsigned seed = 11;
  for (const auto &p : cases) {
    INFO(p);
    REQUIRE(macs(p) >= double(1 << 22));
    const auto x = poplin_test::uniformValues(
        p.batchSize * p.inputChannelsPerConvGroup * product(p.inputFieldShape),
        seed++);
    const auto w = poplin_test::uniformValues(
        p.outputChannelsPerConvGroup * p.inputChannelsPerConvGroup *
            product(p.kernelShape),
        seed++);
    const std::vector<float> one = run(p, x, w, 1, nullptr);
    CHECK(poplin_test::sameBits(one, run(p, x, w, 2, nullptr)));
    CHECK(poplin_test::sameBits(one, run(p, x, w, 8, nullptr)));
    std::vector<double> want(one.size(), 0.0), scale(one.size(), 0.0);
    convoracle::forEachTriple(p, [&](std::size_t o, std::size_t i,
                                     std::size_t k) {
      want[o] += double(x[i]) * double(w[k]);
      scale[o] += std::abs(double(x[i]) * double(w[k]));
    });
    for (std::size_t o = 0; o != one.size(); ++o) {
      INFO("output element " << o);
      REQUIRE(std::abs(double(one[o]) - want[o]) <= 1e-5 * (scale[o] + 1e-30));
    }
  }
}

TEST_CASE("An overflow in a convolution part another host thread computed "
          "stops the run",
          "[poplin][conv]") {
  poplin::ConvParams p(FLOAT, 1, {32, 32}, {3, 3}, 32, 48, 1);
  REQUIRE(macs(p) >= double(1 << 22));
  std::vector<float> x(p.inputChannelsPerConvGroup * 32 * 32, 0.5f);
  std::vector<float> w(p.outputChannelsPerConvGroup *
                           p.inputChannelsPerConvGroup * 9,
                       0.25f);
  // Only the last output row of the last channel overflows: the input's
  // last row times the last output channel's weights.
  for (std::size_t c = 0; c != p.inputChannelsPerConvGroup; ++c)
    for (std::size_t i = 0; i != 32; ++i)
      x[(c * 32 + 31) * 32 + i] = 1e30f;
  for (std::size_t k = 0; k != p.inputChannelsPerConvGroup * 9; ++k)
    w[(p.outputChannelsPerConvGroup - 1) * p.inputChannelsPerConvGroup * 9 +
      k] = 1e30f;
  FloatingPointBehaviour overflowTraps(false, false, true, false, false);
  for (unsigned threads : {1u, 2u}) {
    INFO(threads << " threads");
    REQUIRE_THROWS_WITH(run(p, x, w, threads, &overflowTraps),
                        Contains("overflow") && Contains("ConvPartial"));
  }
  // Without the trap the run completes and the overflow is an infinity.
  const std::vector<float> y = run(p, x, w, 2, nullptr);
  CHECK(std::isinf(y.back()));
  CHECK(y.front() == 0.5f * 0.25f * 9 * 32);
}

TEST_CASE("A weight gradient shared over the host threads gives the same "
          "bits for any thread count",
          "[poplin][conv]") {
  std::vector<poplin::ConvParams> cases;
  // A strided 7x7 over 3 input channels (the rows of a kernel row are its
  // (kx, channel) pairs: 21, not a whole number of register tiles), 40
  // output channels (a tile of 32, one of 8).
  cases.emplace_back(FLOAT, 2, std::vector<std::size_t>{40, 38},
                     std::vector<std::size_t>{7, 7}, 3, 40, 1);
  cases.back().inputTransform.paddingLower = {3, 3};
  cases.back().inputTransform.paddingUpper = {3, 3};
  cases.back().outputTransform.stride = {2, 2};
  // A kernel dilated along x (each kx its own rows), 30 input and 53 output
  // channels (single channels past the vectors).
  cases.emplace_back(FLOAT, 2, std::vector<std::size_t>{20, 24},
                     std::vector<std::size_t>{3, 3}, 30, 53, 1);
  cases.back().kernelTransform.dilation = {1, 2};
  unsigned seed = 21;
  for (const auto &p : cases) {
    INFO(p);
    REQUIRE(macs(p) >= double(1 << 22));
    const auto x = poplin_test::uniformValues(
        p.batchSize * p.inputChannelsPerConvGroup * product(p.inputFieldShape),
        seed++);
    const auto dy = poplin_test::uniformValues(
        p.batchSize * p.outputChannelsPerConvGroup *
            product(p.getOutputFieldShape()),
        seed++);
    const std::vector<float> one = runWeightDeltas(p, x, dy, 1);
    CHECK(poplin_test::sameBits(one, runWeightDeltas(p, x, dy, 2)));
    CHECK(poplin_test::sameBits(one, runWeightDeltas(p, x, dy, 8)));
    std::vector<double> want(one.size(), 0.0), scale(one.size(), 0.0);
    convoracle::forEachTriple(p, [&](std::size_t o, std::size_t i,
                                     std::size_t k) {
      want[k] += double(dy[o]) * double(x[i]);
      scale[k] += std::abs(double(dy[o]) * double(x[i]));
    });
    for (std::size_t k = 0; k != one.size(); ++k) {
      INFO("weight element " << k);
      REQUIRE(std::abs(double(one[k]) - want[k]) <= 1e-5 * (scale[k] + 1e-30));
    }
  }
}

TEST_CASE("Depthwise convolutions sum each window in order, the same bits "
          "for any thread count and on both devices",
          "[poplin][conv]") {
  // One channel a group. On the CPU device one DepthwiseConvPartial (16,
  // 8 and single groups side by side; the last case large enough for the
  // host threads), on the IPU Model one ConvPartial per group (the
  // single-channel kernel: 16 positions a vector, the last partial); strides
  // 1 and 2 along x, a dilated kernel. Every output is the kernel window
  // summed element by element from zero, the padding included, with fused
  // multiply-adds where the host has them.
  struct Case {
    std::size_t batch, groups, height, width;
    unsigned stride, dilation;
  };
  const Case cases[] = {{1, 6, 7, 7, 1, 1},    {2, 3, 14, 14, 1, 1},
                        {1, 4, 23, 37, 1, 1},  {2, 5, 35, 33, 2, 1},
                        {1, 3, 9, 48, 2, 1},   {1, 4, 19, 21, 1, 2},
                        {1, 27, 14, 15, 2, 1}, {1, 144, 56, 56, 1, 1}};
  const bool fused = hostFusesMultiplyAdds();
  unsigned seed = 31;
  for (const Case &c : cases) {
    poplin::ConvParams p(FLOAT, c.batch, {c.height, c.width}, {3, 3}, 1, 1,
                         c.groups);
    p.inputTransform.paddingLower = {1, 1};
    p.inputTransform.paddingUpper = {1, 1};
    p.kernelTransform.dilation = {c.dilation, c.dilation};
    p.outputTransform.stride = {c.stride, c.stride};
    INFO(p);
    const auto x = poplin_test::uniformValues(
        c.batch * c.groups * c.height * c.width, seed++);
    const auto w = poplin_test::uniformValues(c.groups * 9, seed++);
    const std::vector<float> one = run(p, x, w, 1, nullptr);
    CHECK(poplin_test::sameBits(one, run(p, x, w, 2, nullptr)));
    CHECK(poplin_test::sameBits(one, run(p, x, w, 8, nullptr)));
    if (c.groups * c.height * c.width < 4096)
      CHECK(poplin_test::sameBits(
          one, run(p, x, w, 2, nullptr, sdktest::DeviceType::IpuModel2)));
    const auto field = p.getOutputFieldShape();
    const long oh = long(field[0]), ow = long(field[1]);
    std::vector<float> want;
    for (std::size_t b = 0; b != c.batch; ++b)
      for (std::size_t g = 0; g != c.groups; ++g)
        for (long oy = 0; oy != oh; ++oy)
          for (long ox = 0; ox != ow; ++ox) {
            float acc = 0.0f;
            for (long ky = 0; ky != 3; ++ky)
              for (long kx = 0; kx != 3; ++kx) {
                const long iy = oy * c.stride - 1 + ky * c.dilation;
                const long ix = ox * c.stride - 1 + kx * c.dilation;
                const bool inside = iy >= 0 && iy < long(c.height) &&
                                    ix >= 0 && ix < long(c.width);
                const float v =
                    inside ? x[((b * c.groups + g) * c.height + iy) * c.width +
                               ix]
                           : 0.0f;
                const float k = w[g * 9 + ky * 3 + kx];
                acc = fused ? std::fma(v, k, acc) : acc + v * k;
              }
            want.push_back(acc);
          }
    CHECK(poplin_test::sameBits(one, want));
  }
}

namespace {

// `p` with its input's truncation and padding applied on the host to `x`
// ([B, G * Ci, field...]): the convolution whose input holds the zeros in
// memory, and that input.
std::pair<poplin::ConvParams, std::vector<float>>
paddedOnHost(const poplin::ConvParams &p, const std::vector<float> &x) {
  poplin::ConvParams q = p;
  const std::size_t nd = p.getNumFieldDims();
  auto &t = q.inputTransform;
  std::vector<std::size_t> size(nd);
  for (std::size_t d = 0; d != nd; ++d) {
    size[d] = p.inputFieldShape[d] - t.truncationLower[d] -
              t.truncationUpper[d] + t.paddingLower[d] + t.paddingUpper[d];
    q.inputFieldShape[d] = size[d];
    t.truncationLower[d] = t.truncationUpper[d] = 0;
    t.paddingLower[d] = t.paddingUpper[d] = 0;
  }
  const std::size_t planes = p.batchSize * p.getNumInputChans();
  const std::size_t inPlane = product(p.inputFieldShape);
  const std::size_t outPlane = product(size);
  std::vector<float> y(planes * outPlane, 0.0f);
  const auto &pt = p.inputTransform;
  for (std::size_t plane = 0; plane != planes; ++plane)
    for (std::size_t e = 0; e != outPlane; ++e) {
      // Padded coordinates of e, back to the stored ones.
      std::size_t rest = e, src = 0;
      bool inside = true;
      for (std::size_t d = nd; d-- != 0;) {
        const long c = long(rest % size[d]) - long(pt.paddingLower[d]);
        rest /= size[d];
        const long stored = long(p.inputFieldShape[d] - pt.truncationLower[d] -
                                 pt.truncationUpper[d]);
        inside = inside && c >= 0 && c < stored;
        std::size_t stride = 1;
        for (std::size_t k = d + 1; k != nd; ++k)
          stride *= p.inputFieldShape[k];
        src += (std::size_t(c) + pt.truncationLower[d]) * stride;
      }
      if (inside)
        y[plane * outPlane + e] = x[plane * inPlane + src];
    }
  return {q, y};
}

} // namespace

TEST_CASE("Padding the CPU device's vertices read as zeros gives the bits "
          "of zeros in memory",
          "[poplin][conv]") {
  // Each convolution against the same one over an input padded on the
  // host: the vertices read zeros for the padding, with the products and
  // sums of zeros stored in memory, bit for bit.
  std::vector<poplin::ConvParams> cases;
  auto add = [&](std::size_t batch, std::vector<std::size_t> field,
                 std::vector<std::size_t> kernel, std::size_t ci,
                 std::size_t co, std::size_t groups,
                 std::vector<unsigned> lower, std::vector<unsigned> upper) {
    cases.emplace_back(FLOAT, batch, field, kernel, ci, co, groups);
    cases.back().inputTransform.paddingLower = lower;
    cases.back().inputTransform.paddingUpper = upper;
    return &cases.back();
  };
  // 3x3, blocks of 16 output channels and a tail of 8.
  add(2, {12, 10}, {3, 3}, 32, 40, 1, {1, 1}, {1, 1});
  // ResNet's first layer: 7x7 over 3 channels, stride 2, padding 3.
  add(1, {30, 30}, {7, 7}, 3, 16, 1, {3, 3}, {3, 3})->outputTransform.stride = {
      2, 2};
  // Uneven padding and strides, 7 output channels (the generic blocks).
  add(1, {9, 11}, {3, 3}, 5, 7, 1, {0, 2}, {2, 0})->outputTransform.stride = {
      1, 2};
  // One dimension, padding wider than the kernel on one side.
  add(3, {17}, {5}, 16, 24, 1, {6}, {1});
  // Three dimensions.
  add(1, {5, 6, 7}, {3, 3, 3}, 4, 16, 1, {1, 1, 1}, {1, 1, 1});
  // A dilated kernel, and a truncated input.
  {
    auto *p = add(1, {13, 14}, {3, 3}, 8, 16, 1, {2, 2}, {2, 2});
    p->kernelTransform.dilation = {2, 2};
    p->inputTransform.truncationLower = {1, 0};
    p->inputTransform.truncationUpper = {0, 2};
  }
  // Depthwise (one channel a group): uneven padding, stride 2.
  add(2, {15, 16}, {3, 3}, 1, 1, 20, {2, 0}, {0, 3})->outputTransform.stride = {
      2, 2};
  add(1, {7, 9}, {3, 3}, 1, 1, 33, {1, 1}, {1, 1});
  unsigned seed = 51;
  for (const auto &p : cases) {
    INFO(p);
    const auto x = poplin_test::uniformValues(
        p.batchSize * p.getNumInputChans() * product(p.inputFieldShape),
        seed++);
    auto w = poplin_test::uniformValues(
        p.numConvGroups * p.outputChannelsPerConvGroup *
            p.inputChannelsPerConvGroup * product(p.kernelShape),
        seed++);
    const auto [q, xp] = paddedOnHost(p, x);
    const auto device = sdktest::DeviceType::Cpu;
    CHECK(poplin_test::sameBits(run(p, x, w, 2, nullptr, device),
                                run(q, xp, w, 2, nullptr, device)));
    // An infinite weight: each product with a padding zero is a NaN, as
    // with the zeros in memory (where no output reads only padding, which
    // the canonical form makes output padding).
    bool everyOutputReadsInput = true;
    for (std::size_t d = 0; d != p.getNumFieldDims(); ++d) {
      const std::size_t extent =
          (p.kernelShape[d] - 1) * p.kernelTransform.dilation[d] + 1;
      everyOutputReadsInput = everyOutputReadsInput &&
                              p.inputTransform.paddingLower[d] < extent &&
                              p.inputTransform.paddingUpper[d] < extent;
    }
    if (!everyOutputReadsInput)
      continue;
    w[0] = std::numeric_limits<float>::infinity();
    const std::vector<float> y = run(p, x, w, 2, nullptr, device);
    CHECK(poplin_test::sameBits(y, run(q, xp, w, 2, nullptr, device)));
    CHECK(
        std::any_of(y.begin(), y.end(), [](float v) { return std::isnan(v); }));
  }
}

TEST_CASE("The CPU device's FLOAT convolutions sum each output in kernel and "
          "channel order, whatever block of channels computes it",
          "[poplin][conv]") {
  // Output channels of one block of 16, two (a pair of blocks side by
  // side), three (a pair and one), and a tail of 8 and of 3 past them;
  // strides and padding. Every output is the sum over (ky, kx, input
  // channel) in that order from zero, with fused multiply-adds where the
  // host has them.
  struct Case {
    std::size_t batch, height, width, ci, co, kernel, stride, pad;
  };
  const Case cases[] = {
      {1, 9, 10, 5, 16, 3, 1, 1},  {2, 8, 31, 7, 32, 3, 1, 1},
      {1, 11, 9, 4, 48, 3, 2, 1},  {1, 6, 15, 9, 56, 1, 1, 0},
      {1, 13, 12, 3, 35, 5, 2, 2}, {1, 7, 29, 16, 64, 3, 1, 0}};
  const bool fused = hostFusesMultiplyAdds();
  unsigned seed = 71;
  for (const Case &c : cases) {
    poplin::ConvParams p(FLOAT, c.batch, {c.height, c.width},
                         {c.kernel, c.kernel}, c.ci, c.co, 1);
    p.inputTransform.paddingLower = {unsigned(c.pad), unsigned(c.pad)};
    p.inputTransform.paddingUpper = {unsigned(c.pad), unsigned(c.pad)};
    p.outputTransform.stride = {unsigned(c.stride), unsigned(c.stride)};
    INFO(p);
    const auto x =
        poplin_test::uniformValues(c.batch * c.ci * c.height * c.width, seed++);
    const auto w =
        poplin_test::uniformValues(c.co * c.ci * c.kernel * c.kernel, seed++);
    const std::vector<float> y =
        run(p, x, w, 2, nullptr, sdktest::DeviceType::Cpu);
    const auto field = p.getOutputFieldShape();
    const long k = long(c.kernel);
    std::vector<float> want;
    for (std::size_t b = 0; b != c.batch; ++b)
      for (std::size_t o = 0; o != c.co; ++o)
        for (long oy = 0; oy != long(field[0]); ++oy)
          for (long ox = 0; ox != long(field[1]); ++ox) {
            float acc = 0.0f;
            for (long ky = 0; ky != k; ++ky)
              for (long kx = 0; kx != k; ++kx)
                for (std::size_t i = 0; i != c.ci; ++i) {
                  const long iy = oy * long(c.stride) - long(c.pad) + ky;
                  const long ix = ox * long(c.stride) - long(c.pad) + kx;
                  const bool inside = iy >= 0 && iy < long(c.height) &&
                                      ix >= 0 && ix < long(c.width);
                  const float v =
                      inside
                          ? x[((b * c.ci + i) * c.height + iy) * c.width + ix]
                          : 0.0f;
                  const float wk = w[((o * c.ci + i) * k + ky) * k + kx];
                  acc = fused ? std::fma(v, wk, acc) : acc + v * wk;
                }
            want.push_back(acc);
          }
    CHECK(poplin_test::sameBits(y, want));
  }
}
