// sequenceSlice, histogram, normaliseImage and the host-copy layouts
// against host loops on every device.
#include "MovementCase.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <popops/GatherStatistics.hpp>
#include <popops/HostSliceTensor.hpp>
#include <popops/NormaliseImage.hpp>
#include <popops/SequenceSlice.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>

using namespace poplar;
using namespace popops;
using namespace popops_test;
using Catch::Matchers::Contains;

namespace {} // namespace

TEST_CASE("sequenceSlice copies runs of rows", "[popops][sequenceSlice]") {
  for (bool zeroUnused : {false, true}) {
    INFO("zeroUnused " << zeroUnused);
    Case c;
    Tensor in = c.var(INT, {6, 2, 3}, "in");
    Tensor out = c.var(INT, {7, 6}, "out");
    Tensor n = c.var(UNSIGNED_INT, {4}, "n");
    Tensor inOff = c.var(UNSIGNED_INT, {4}, "inOff");
    Tensor outOff = c.var(UNSIGNED_INT, {4}, "outOff");
    sequenceSlice(c.graph, in, out, n, inOff, outOff, zeroUnused, c.prog, "ss");
    c.read("out", out);
    Engine e = c.engine();
    std::vector<int> inV(36);
    std::iota(inV.begin(), inV.end(), 1);
    // Entries: 2 rows 0->5 (the second off the end of out), 3 rows 3->0,
    // then a 0 that ends the list before the last entry.
    const std::vector<unsigned> nV{2, 3, 0, 1}, inOffV{0, 3, 0, 5},
        outOffV{6, 0, 0, 4};
    put(e, "in", inV);
    put(e, "out", std::vector<int>(42, -1));
    put(e, "n", nV);
    put(e, "inOff", inOffV);
    put(e, "outOff", outOffV);
    e.run();
    std::vector<int> want(42, -1);
    std::vector<bool> written(7, false);
    for (std::size_t i = 0; i != nV.size() && nV[i] != 0; ++i)
      for (unsigned r = 0; r != nV[i]; ++r) {
        const unsigned s = inOffV[i] + r, d = outOffV[i] + r;
        if (s >= 6 || d >= 7)
          continue;
        std::copy_n(inV.begin() + s * 6, 6, want.begin() + d * 6);
        written[d] = true;
      }
    if (zeroUnused)
      for (unsigned d = 0; d != 7; ++d)
        if (!written[d])
          std::fill_n(want.begin() + d * 6, 6, 0);
    CHECK(get<int>(e, "out", 42) == want);
  }
}

TEST_CASE("histogram counts into the level bins", "[popops][histogram]") {
  Case c;
  const std::size_t n = 1000;
  Tensor in = c.var(FLOAT, {10, 100}, "in");
  Tensor levels = c.var(FLOAT, {4}, "levels");
  Tensor counts = histogram(c.graph, in, levels, false, c.prog, "h");
  Tensor absCounts = histogram(c.graph, in.transpose(), levels, true, c.prog,
                               "habs", {{"useFloatArithmetic", "true"}});
  CHECK(counts.elementType() == UNSIGNED_INT);
  CHECK(absCounts.elementType() == FLOAT);
  Tensor acc = c.var(UNSIGNED_INT, {5}, "acc");
  histogram(c.graph, in, acc, true, levels, false, c.prog, "hacc");
  c.read("counts", counts);
  c.read("abs", absCounts);
  c.read("acc", acc);
  Engine e = c.engine();
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> dist(-4, 4);
  std::vector<float> x(n);
  for (auto &v : x)
    v = dist(gen);
  x[0] = -1.0f; // exactly on a level: counts in the bin above
  x[1] = std::nanf("");
  const std::vector<float> lv{-2, -1, 0.5f, 3};
  put(e, "in", x);
  put(e, "levels", lv);
  put(e, "acc", std::vector<unsigned>{1, 1, 1, 1, 1});
  e.run();
  auto bin = [&](float v) {
    if (std::isnan(v))
      return std::size_t(0);
    return std::size_t(std::upper_bound(lv.begin(), lv.end(), v) - lv.begin());
  };
  std::vector<unsigned> want(5, 0), wantAcc(5, 1);
  std::vector<float> wantAbs(5, 0);
  for (float v : x) {
    ++want[bin(v)];
    ++wantAcc[bin(v)];
    wantAbs[bin(std::fabs(v))] += 1;
  }
  CHECK(get<unsigned>(e, "counts", 5) == want);
  CHECK(get<float>(e, "abs", 5) == wantAbs);
  CHECK(get<unsigned>(e, "acc", 5) == wantAcc);
}

TEST_CASE("normaliseImage pads to 4 channels and normalises",
          "[popops][normaliseImage]") {
  for (const Type &type : {UNSIGNED_CHAR, FLOAT}) {
    INFO(type.toString().str());
    Case c;
    Tensor img = createNormaliseImageInput(c.graph, type, {2, 5, 3}, "img");
    c.graph.createHostWrite("img", img);
    const Type outType = type == UNSIGNED_CHAR ? HALF : type;
    Tensor off = c.var(outType, {3}, "off");
    Tensor sc = c.var(outType, {3}, "sc");
    Tensor out = normaliseImage(c.graph, c.prog, img, 0.5f, off, sc, "norm");
    CHECK(out.shape() == std::vector<std::size_t>{2, 5, 4});
    CHECK(out.elementType() == outType);
    Tensor asFloat = out;
    if (outType == HALF) {
      c.graph.createHostRead("out-r", out);
    } else {
      c.read("out", out);
    }
    Engine e = c.engine();
    std::vector<unsigned char> px(30);
    for (std::size_t i = 0; i != px.size(); ++i)
      px[i] = static_cast<unsigned char>(i * 8);
    const std::vector<float> offV{1, 2, 3}, scV{0.5f, 0.25f, 2};
    if (type == UNSIGNED_CHAR) {
      put(e, "img", px);
      std::vector<std::uint16_t> h(3);
      copyFloatToDeviceHalf(c.graph.getTarget(), offV.data(), h.data(), 3);
      put(e, "off", h);
      copyFloatToDeviceHalf(c.graph.getTarget(), scV.data(), h.data(), 3);
      put(e, "sc", h);
    } else {
      put(e, "img", std::vector<float>(px.begin(), px.end()));
      put(e, "off", offV);
      put(e, "sc", scV);
    }
    e.run();
    std::vector<float> got(40);
    if (outType == HALF) {
      std::vector<std::uint16_t> h(40);
      e.readTensor("out-r", h.data(), h.data() + 40);
      copyDeviceHalfToFloat(c.graph.getTarget(), h.data(), got.data(), 40);
    } else {
      got = get<float>(e, "out", 40);
    }
    for (std::size_t p = 0; p != 10; ++p) {
      for (std::size_t ch = 0; ch != 3; ++ch)
        CHECK(
            got[p * 4 + ch] ==
            Approx((px[p * 3 + ch] * 0.5f - offV[ch]) * scV[ch]).epsilon(1e-3));
      CHECK(got[p * 4 + 3] == 0.0f);
    }
  }
  Case c;
  Tensor bad = c.var(FLOAT, {2, 4}, "bad");
  Tensor off = c.var(FLOAT, {3}, "off");
  CHECK_THROWS_WITH(normaliseImage(c.graph, c.prog, bad, 1.0f, off, off),
                    Contains("'bad'") && Contains("3 channels"));
  CHECK_THROWS_WITH(createNormaliseImageInput(c.graph, INT, {4, 3}, "i"),
                    Contains("unsigned char, half or float"));
}

TEST_CASE("Host-copy layouts and the errors of these operations",
          "[popops][hostSlice]") {
  Case c;
  const auto it =
      createHostSliceableTensor(c.graph, HALF, {3, 100}, false, "hs");
  CHECK(it.tensor.shape() == std::vector<std::size_t>{3, 100});
  CHECK(it.indices.shape() == std::vector<std::size_t>{3});
  CHECK(it.indices.elementType() == UNSIGNED_INT);
  // Rows share one column mapping, in 64-byte (32 half) pieces.
  const auto row0 = c.graph.getTileMapping(it.tensor[0]);
  CHECK(c.graph.getTileMapping(it.tensor[2]) == row0);
  for (const auto &tile : row0)
    for (const auto &i : tile)
      CHECK((i.begin() % 32 == 0));
  Tensor t = createHostTransferableTensor(c.graph, FLOAT, {7}, true, "ht");
  bool complete = false;
  c.graph.getTileMapping(t, &complete);
  CHECK(complete);
  CHECK_THROWS_WITH(createHostSliceableTensor(c.graph, FLOAT, {3}, true),
                    Contains("2 dimensions"));
  Tensor in = c.var(INT, {4}, "in");
  Tensor lv = c.var(FLOAT, {2}, "lv");
  CHECK_THROWS_WITH(histogram(c.graph, in, lv, false, c.prog),
                    Contains("'in'"));
  Tensor a = c.var(FLOAT, {4, 2}, "a"), b = c.var(FLOAT, {4, 3}, "b");
  Tensor n = c.var(UNSIGNED_INT, {1}, "n");
  CHECK_THROWS_WITH(sequenceSlice(c.graph, a, b, n, n, n, false, c.prog),
                    Contains("'a'") && Contains("'b'"));
}
