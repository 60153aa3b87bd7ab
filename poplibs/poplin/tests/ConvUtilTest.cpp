// ConvUtil's index arithmetic and weight update params against the host
// model of convolutions (ConvOracle.hpp), which enumerates the (output,
// input, kernel) triples that contribute.
#include "ConvOracle.hpp"

#include <poplin/ConvUtil.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <random>

using poplin::ConvParams;

namespace {

// 1-D params of one channel: input size, kernel size, and the transforms.
ConvParams params1d(std::size_t in, std::size_t k, ConvParams::InputTransform it,
                    ConvParams::InputTransform kt, ConvParams::OutputTransform ot) {
  return ConvParams(poplar::FLOAT, poplar::FLOAT, 1, {in}, {k}, 1, 1, 1, it, kt,
                    ot);
}

std::vector<ConvParams> cases1d() {
  using IT = ConvParams::InputTransform;
  using OT = ConvParams::OutputTransform;
  return {
      params1d(7, 3, IT({0}, {0}, {1}, {0}, {0}, {false}),
               IT({0}, {0}, {1}, {0}, {0}, {false}),
               OT({0}, {0}, {1}, {0}, {0})),
      params1d(9, 3, IT({1}, {0}, {2}, {1}, {2}, {false}),
               IT({0}, {1}, {2}, {0}, {1}, {true}),
               OT({0}, {0}, {2}, {1}, {2})),
      // Every output reads only dilation's zeros: nothing takes part.
      params1d(9, 3, IT({1}, {0}, {2}, {1}, {2}, {false}),
               IT({0}, {1}, {2}, {0}, {1}, {true}),
               OT({1}, {0}, {2}, {1}, {2})),
      params1d(8, 4, IT({0}, {2}, {1}, {3}, {0}, {true}),
               IT({1}, {0}, {1}, {1}, {0}, {false}),
               OT({0}, {1}, {3}, {0}, {1})),
  };
}

} // namespace

TEST_CASE("getInputIndex and getKernelIndex follow the triples that "
          "contribute",
          "[poplin][convutil]") {
  for (const auto &p : cases1d()) {
    std::map<std::pair<unsigned, unsigned>, unsigned> inputOf, kernelOf;
    convoracle::forEachTriple(p, [&](std::size_t o, std::size_t i,
                                     std::size_t k) {
      inputOf[{unsigned(o), unsigned(k)}] = unsigned(i);
      kernelOf[{unsigned(o), unsigned(i)}] = unsigned(k);
    });
    const unsigned outSize = unsigned(p.getOutputSize(0));
    for (unsigned o = 0; o != outSize; ++o) {
      for (unsigned k = 0; k != p.kernelShape[0]; ++k) {
        auto it = inputOf.find({o, k});
        CHECK(poplin::getInputIndex(0, o, k, p) ==
              (it == inputOf.end() ? ~0u : it->second));
      }
      for (unsigned i = 0; i != p.inputFieldShape[0]; ++i) {
        auto it = kernelOf.find({o, i});
        CHECK(poplin::getKernelIndex(0, o, i, p) ==
              (it == kernelOf.end() ? ~0u : it->second));
      }
    }
    // Ranges: the extent of the indices that take part.
    const std::pair<unsigned, unsigned> all(0, outSize);
    for (unsigned k = 0; k != p.kernelShape[0]; ++k) {
      unsigned oLo = ~0u, oHi = 0, iLo = ~0u, iHi = 0;
      for (const auto &e : inputOf)
        if (e.first.second == k) {
          oLo = std::min(oLo, e.first.first);
          oHi = std::max(oHi, e.first.first + 1);
          iLo = std::min(iLo, e.second);
          iHi = std::max(iHi, e.second + 1);
        }
      const auto out = poplin::getOutputRangeForKernelIndex(0, all, k, p);
      const auto in = poplin::getInputRange(0, all, k, p);
      if (oLo == ~0u) {
        CHECK(out.first == out.second);
        CHECK(in.first == in.second);
      } else {
        CHECK(out == std::make_pair(oLo, oHi));
        CHECK(in == std::make_pair(iLo, iHi));
      }
    }
    const auto kAll = std::make_pair(0u, unsigned(p.kernelShape[0]));
    const auto inAll = std::make_pair(0u, unsigned(p.inputFieldShape[0]));
    unsigned iLo = ~0u, iHi = 0, kLo = ~0u, kHi = 0;
    for (const auto &e : inputOf) {
      iLo = std::min(iLo, e.second);
      iHi = std::max(iHi, e.second + 1);
      kLo = std::min(kLo, e.first.second);
      kHi = std::max(kHi, e.first.second + 1);
    }
    auto expect = [](std::pair<unsigned, unsigned> got, unsigned lo,
                     unsigned hi) {
      if (lo == ~0u) // nothing takes part: an empty range
        CHECK(got.first == got.second);
      else
        CHECK(got == std::make_pair(lo, hi));
    };
    expect(poplin::getInputRange(0, all, p), iLo, iHi);
    expect(poplin::getInputRange(0, all, kAll, p), iLo, iHi);
    expect(poplin::getKernelRange(0, all, inAll, p), kLo, kHi);
    const auto outUsed = poplin::getOutputRangeForInputRange(0, all, inAll, p);
    CHECK(outUsed == poplin::getOutputRangeForKernelRange(0, all, kAll, p));
  }
  CHECK(poplin::getDilatedSize(4, 3) == 10);
  CHECK(poplin::getDilatedSize(0, 3) == 0);
  CHECK_THROWS_AS(poplin::getInputIndex(1, 0, 0, cases1d()[0]),
                  poputil::poplibs_error);
}

TEST_CASE("getWeightUpdateParams gives the weight deltas as a convolution",
          "[poplin][convutil]") {
  using IT = ConvParams::InputTransform;
  using OT = ConvParams::OutputTransform;
  std::vector<ConvParams> cases = {
      ConvParams(poplar::FLOAT, 2, {5, 6}, {3, 2}, 3, 2, 2),
      ConvParams(poplar::FLOAT, poplar::FLOAT, 2, {7, 5}, {3, 2}, 2, 3, 2,
                 IT({1, 0}, {0, 1}, {2, 1}, {1, 2}, {2, 0}, {true, false}),
                 IT({0, 1}, {0, 0}, {1, 2}, {1, 0}, {0, 1}, {false, true}),
                 OT({1, 0}, {0, 1}, {2, 1}, {1, 0}, {0, 2})),
  };
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (const auto &fwd : cases) {
    const ConvParams wu = poplin::getWeightUpdateParams(fwd);
    std::vector<float> x(convoracle::inputElems(fwd)),
        dy(convoracle::outputElems(fwd));
    for (auto &v : x)
      v = dist(rng);
    for (auto &v : dy)
      v = dist(rng);
    const auto want = convoracle::weightGradient(fwd, dy, x);
    const std::size_t B = fwd.batchSize, G = fwd.numConvGroups,
                      Ci = fwd.inputChannelsPerConvGroup,
                      Co = fwd.outputChannelsPerConvGroup;
    const std::size_t inField = convoracle::product(fwd.inputFieldShape);
    const std::size_t outField = convoracle::product(fwd.getOutputFieldShape());
    const std::size_t kField = convoracle::product(fwd.kernelShape);
    REQUIRE(wu.getOutputFieldShape() == fwd.kernelShape);
    // x [B][G*Ci][in] -> [Ci][G*B][in]; dy [B][G*Co][out] -> [G][Co][B][out].
    std::vector<float> xT(x.size()), dyT(dy.size());
    for (std::size_t b = 0; b != B; ++b)
      for (std::size_t g = 0; g != G; ++g) {
        for (std::size_t c = 0; c != Ci; ++c)
          for (std::size_t f = 0; f != inField; ++f)
            xT[((c * G + g) * B + b) * inField + f] =
                x[((b * G + g) * Ci + c) * inField + f];
        for (std::size_t c = 0; c != Co; ++c)
          for (std::size_t f = 0; f != outField; ++f)
            dyT[((g * Co + c) * B + b) * outField + f] =
                dy[((b * G + g) * Co + c) * outField + f];
      }
    // The result [Ci][G*Co][kernel] is the deltas [G][Co][Ci][kernel].
    const auto got = convoracle::forward(wu, xT, dyT);
    for (std::size_t g = 0; g != G; ++g)
      for (std::size_t co = 0; co != Co; ++co)
        for (std::size_t ci = 0; ci != Ci; ++ci)
          for (std::size_t k = 0; k != kField; ++k)
            CHECK(got[((ci * G + g) * Co + co) * kField + k] ==
                  Approx(want[((g * Co + co) * Ci + ci) * kField + k])
                      .margin(1e-9));
  }
}
