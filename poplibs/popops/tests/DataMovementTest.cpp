// Slicing, gathering, one-hot, sorting, top-k, padding and allTrue against
// host loops on every device variant.
#include "MovementCase.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <popops/AllTrue.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/Encoding.hpp>
#include <popops/EncodingConstants.hpp>
#include <popops/Gather.hpp>
#include <popops/Pad.hpp>
#include <popops/SelectScalarFromRows.hpp>
#include <popops/Sort.hpp>
#include <popops/TopK.hpp>
#include <popops/UpdateScalarInRows.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

using namespace poplar;
using namespace popops;
using namespace popops_test;
using Catch::Matchers::Contains;

namespace {


// Half values go through float on the host.
void putHalf(Engine &e, const Target &target, const std::string &h,
             const std::vector<float> &v) {
  std::vector<std::uint16_t> x(v.size());
  copyFloatToDeviceHalf(target, v.data(), x.data(), x.size());
  e.writeTensor(h, x.data(), x.data() + x.size());
}
std::vector<float> getHalf(Engine &e, const Target &target,
                           const std::string &h, std::size_t n) {
  std::vector<std::uint16_t> x(n);
  std::vector<float> v(n);
  e.readTensor(h + "-r", x.data(), x.data() + n);
  copyDeviceHalfToFloat(target, x.data(), v.data(), n);
  return v;
}

// Float or half values as floats on the host.
void putHalfOr(Engine &e, const Target &target, const Type &type,
               const std::string &h, const std::vector<float> &v) {
  if (type == HALF)
    putHalf(e, target, h, v);
  else
    put(e, h, v);
}
std::vector<float> getHalfOr(Engine &e, const Target &target, const Type &type,
                             const std::string &h, std::size_t n) {
  return type == HALF ? getHalf(e, target, h, n) : get<float>(e, h, n);
}

std::vector<float> iotaF(std::size_t n) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 0.0f);
  return v;
}

} // namespace

TEST_CASE("dynamicSlice and dynamicUpdate wrap around", "[popops][slice]") {
  Case c;
  Tensor t = c.var(FLOAT, {5, 3}, "t");
  Tensor off = c.var(UNSIGNED_INT, {1}, "off");
  Tensor s = dynamicSlice(c.graph, t, off, {0}, {2}, c.prog, "slice");
  CHECK(s.shape() == std::vector<std::size_t>{2, 3});
  Tensor u = c.var(FLOAT, {5, 2}, "u");
  Tensor src = c.var(FLOAT, {5, 1}, "src");
  dynamicUpdate(c.graph, u, src, off, {1}, {1}, c.prog, "update");
  c.read("s", s);
  c.read("u", u);
  Engine e = c.engine();
  put(e, "t", iotaF(15));
  put(e, "u", std::vector<float>(10, 0));
  put(e, "src", std::vector<float>{1, 2, 3, 4, 5});
  put(e, "off", std::vector<unsigned>{4});
  e.run();
  // Rows 4 and (4 + 1) % 5 = 0.
  CHECK(get<float>(e, "s", 6) == std::vector<float>{12, 13, 14, 0, 1, 2});
  // Column 4 % 2 = 0 of u.
  CHECK(get<float>(e, "u", 10) ==
        std::vector<float>{1, 0, 2, 0, 3, 0, 4, 0, 5, 0});
}

TEST_CASE("multiSlice, multiUpdate, multiUpdateAdd and gather",
          "[popops][slice]") {
  Case c;
  Tensor table = c.var(FLOAT, {6, 4}, "table");
  Tensor idx = c.var(UNSIGNED_INT, {3, 1}, "idx");
  Tensor rows = multiSlice(c.graph, table, idx, {0}, {1}, c.prog, SlicePlan(),
                           {}, "ms");
  CHECK(rows.shape() == std::vector<std::size_t>{3, 1, 4});
  Tensor gathered = gather(c.graph, table, idx.reshape({3}), 1, c.prog, {}, "g");
  CHECK(gathered.shape() == std::vector<std::size_t>{6, 3});
  Tensor acc = c.var(FLOAT, {6, 4}, "acc");
  Tensor upd = c.var(FLOAT, {3, 1, 4}, "upd");
  Tensor scale = c.graph.addConstant(FLOAT, {}, 2.0f, "scale");
  c.graph.setTileMapping(scale, 0);
  multiUpdateAdd(c.graph, acc, upd, idx, scale, {0}, {1}, c.prog, SlicePlan(),
                 {}, "mua");
  Tensor dst = c.var(FLOAT, {6, 4}, "dst");
  multiUpdate(c.graph, dst, upd, idx, {0}, {1}, c.prog, SlicePlan(), {}, "mu");
  c.read("rows", rows);
  c.read("gathered", gathered);
  c.read("acc", acc);
  c.read("dst", dst);
  Engine e = c.engine();
  put(e, "table", iotaF(24));
  put(e, "idx", std::vector<unsigned>{5, 1, 9}); // 9 is out of range
  put(e, "acc", std::vector<float>(24, 1));
  put(e, "dst", std::vector<float>(24, -1));
  std::vector<float> updValues(12);
  std::iota(updValues.begin(), updValues.end(), 100.0f);
  put(e, "upd", updValues);
  e.run();
  CHECK(get<float>(e, "rows", 12) ==
        std::vector<float>{20, 21, 22, 23, 4, 5, 6, 7, 0, 0, 0, 0});
  // Along axis 1 (4 columns) indices 5 and 9 are out of range: zeros.
  const auto g = get<float>(e, "gathered", 18);
  for (unsigned r = 0; r != 6; ++r) {
    CHECK(g[r * 3 + 0] == 0);
    CHECK(g[r * 3 + 1] == float(r * 4 + 1));
    CHECK(g[r * 3 + 2] == 0);
  }
  const auto a = get<float>(e, "acc", 24);
  const auto d = get<float>(e, "dst", 24);
  for (unsigned r = 0; r != 6; ++r)
    for (unsigned col = 0; col != 4; ++col) {
      float wantAcc = 1, wantDst = -1;
      if (r == 5) {
        wantAcc += 2 * updValues[col];
        wantDst = updValues[col];
      }
      if (r == 1) {
        wantAcc += 2 * updValues[4 + col];
        wantDst = updValues[4 + col];
      }
      CHECK(a[r * 4 + col] == wantAcc);
      CHECK(d[r * 4 + col] == wantDst);
    }
}

TEST_CASE("Slices of transposed half tensors", "[popops][slice][half]") {
  Case c;
  const Target &target = c.graph.getTarget();
  // t is [4, 6]; its transpose [6, 4] is sliced along dimension 0, so each
  // slice row is a column of t, spread over the tiles.
  Tensor t = c.var(HALF, {4, 6}, "t");
  Tensor off = c.var(UNSIGNED_INT, {1}, "off");
  Tensor s = dynamicSlice(c.graph, t.transpose(), off, {0}, {2}, c.prog, "ds");
  CHECK(s.shape() == std::vector<std::size_t>{2, 4});
  Tensor u = c.var(HALF, {3, 5}, "u");
  Tensor src = c.var(HALF, {1, 3}, "src");
  dynamicUpdate(c.graph, u.transpose(), src, off, {0}, {1}, c.prog, "du");
  Tensor idx = c.var(UNSIGNED_INT, {3}, "idx");
  Tensor rows = multiSlice(c.graph, t.transpose(), idx, {0}, {1}, c.prog,
                           SlicePlan(), {}, "ms");
  CHECK(rows.shape() == std::vector<std::size_t>{3, 1, 4});
  c.read("s", s);
  c.read("u", u);
  c.read("rows", rows);
  Engine e = c.engine();
  putHalf(e, target, "t", iotaF(24));
  putHalf(e, target, "u", std::vector<float>(15, 0));
  putHalf(e, target, "src", {0.5f, 1.5f, 2.5f});
  put(e, "off", std::vector<unsigned>{5});
  put(e, "idx", std::vector<unsigned>{1, 5, 1});
  e.run();
  // Columns 5 and (5 + 1) % 6 = 0 of t.
  CHECK(getHalf(e, target, "s", 8) ==
        std::vector<float>{5, 11, 17, 23, 0, 6, 12, 18});
  // Column 5 % 5 = 0 of u.
  CHECK(getHalf(e, target, "u", 15) == std::vector<float>{0.5f, 0, 0, 0, 0,
                                                          1.5f, 0, 0, 0, 0,
                                                          2.5f, 0, 0, 0, 0});
  CHECK(getHalf(e, target, "rows", 12) ==
        std::vector<float>{1, 7, 13, 19, 5, 11, 17, 23, 1, 7, 13, 19});
}

TEST_CASE("Slices and updates of empty tensors", "[popops][slice][empty]") {
  Case c;
  Tensor off = c.var(UNSIGNED_INT, {1}, "off");
  // No columns: every slice is empty too.
  Tensor noCols = c.graph.addVariable(FLOAT, {5, 0}, "noCols");
  Tensor s = dynamicSlice(c.graph, noCols, off, {0}, {2}, c.prog, "ds");
  CHECK(s.shape() == std::vector<std::size_t>{2, 0});
  dynamicUpdate(c.graph, noCols, c.graph.addVariable(FLOAT, {1, 0}), off, {0},
                {1}, c.prog, "du");
  Tensor idx = c.var(UNSIGNED_INT, {2}, "idx");
  Tensor ms = multiSlice(c.graph, noCols, idx, {0}, {1}, c.prog, SlicePlan(),
                         {}, "ms");
  CHECK(ms.shape() == std::vector<std::size_t>{2, 1, 0});
  // No offsets: nothing is sliced or updated.
  Tensor t = c.var(FLOAT, {4, 3}, "t");
  Tensor noIdx = c.graph.addVariable(UNSIGNED_INT, {0}, "noIdx");
  Tensor none = multiSlice(c.graph, t, noIdx, {0}, {1}, c.prog, SlicePlan(),
                           {}, "none");
  CHECK(none.shape() == std::vector<std::size_t>{0, 1, 3});
  Tensor scale = c.graph.addConstant(FLOAT, {}, 1.0f, "scale");
  c.graph.setTileMapping(scale, 0);
  multiUpdateAdd(c.graph, t, c.graph.addVariable(FLOAT, {0, 1, 3}), noIdx,
                 scale, {0}, {1}, c.prog, SlicePlan(), {}, "mua");
  c.read("t", t);
  Engine e = c.engine();
  put(e, "off", std::vector<unsigned>{3});
  put(e, "idx", std::vector<unsigned>{0, 4});
  put(e, "t", iotaF(12));
  e.run();
  CHECK(get<float>(e, "t", 12) == iotaF(12));
}

TEST_CASE("multiUpdateAdd with repeated offsets", "[popops][slice]") {
  Case c;
  const Target &target = c.graph.getTarget();
  Tensor acc = c.var(FLOAT, {4, 5}, "acc");
  Tensor accH = c.var(HALF, {4, 5}, "accH");
  Tensor accI = c.var(INT, {4, 5}, "accI");
  Tensor idx = c.var(UNSIGNED_INT, {5}, "idx");
  Tensor upd = c.var(FLOAT, {5, 1, 5}, "upd");
  Tensor updH = c.var(HALF, {5, 1, 5}, "updH");
  Tensor updI = c.var(INT, {5, 1, 5}, "updI");
  Tensor scale = c.graph.addConstant(FLOAT, {}, 0.5f, "scale");
  c.graph.setTileMapping(scale, 1 % c.graph.getTarget().getNumTiles());
  auto addRows = [&](const Tensor &a, const Tensor &u, const char *name) {
    multiUpdateAdd(c.graph, a, u, idx, scale, {0}, {1}, c.prog, SlicePlan(),
                   {}, name);
  };
  addRows(acc, upd, "f");
  addRows(accH, updH, "h");
  addRows(accI, updI, "i");
  c.read("acc", acc);
  c.read("accH", accH);
  c.read("accI", accI);
  Engine e = c.engine();
  // Row 2 three times, row 0 once, and one offset out of range.
  const std::vector<unsigned> offsets{2, 0, 2, 7, 2};
  std::vector<float> updates(25);
  for (std::size_t i = 0; i != 25; ++i)
    updates[i] = float(2 * (i % 7)) + 2;
  put(e, "idx", offsets);
  put(e, "acc", std::vector<float>(20, 1));
  put(e, "upd", updates);
  putHalf(e, target, "accH", std::vector<float>(20, 1));
  putHalf(e, target, "updH", updates);
  put(e, "accI", std::vector<int>(20, 1));
  put(e, "updI", std::vector<int>(updates.begin(), updates.end()));
  e.run();
  std::vector<float> want(20, 1);
  for (std::size_t k = 0; k != offsets.size(); ++k)
    if (offsets[k] < 4)
      for (std::size_t col = 0; col != 5; ++col)
        want[offsets[k] * 5 + col] += 0.5f * updates[k * 5 + col];
  CHECK(get<float>(e, "acc", 20) == want);
  CHECK(getHalf(e, target, "accH", 20) == want);
  const auto gotI = get<int>(e, "accI", 20);
  CHECK(std::vector<float>(gotI.begin(), gotI.end()) == want);
}

TEST_CASE("multiUpdateMax and multiUpdateMul", "[popops][slice]") {
  Case c;
  const Target &target = c.graph.getTarget();
  Tensor idx = c.var(UNSIGNED_INT, {4}, "idx");
  for (const Type type : {FLOAT, HALF, INT}) {
    const std::string n = type.toString().str();
    Tensor mx = c.var(type, {4, 3}, "max-" + n);
    Tensor ml = c.var(type, {4, 3}, "mul-" + n);
    Tensor s = c.var(type, {4, 1, 3}, "s-" + n);
    multiUpdateMax(c.graph, mx, s, idx, {0}, {1}, c.prog, SlicePlan(), {},
                   "max");
    multiUpdateMul(c.graph, ml, s, idx, {0}, {1}, c.prog, SlicePlan(), {},
                   "mul");
    c.read("max-" + n, mx);
    c.read("mul-" + n, ml);
  }
  Engine e = c.engine();
  // Row 1 twice, row 3 once, one offset out of range.
  const std::vector<unsigned> offsets{1, 3, 9, 1};
  const std::vector<float> base{1, -2, 3, 4, -5, 6, 0, 2, -1, 5, 5, 5};
  const std::vector<float> s{2, -3, 2, 7, -6, 1, 9, 9, 9, -1, 8, 2};
  put(e, "idx", offsets);
  for (const Type type : {FLOAT, HALF, INT}) {
    const std::string n = type.toString().str();
    for (const std::string &h : {"max-" + n, "mul-" + n, "s-" + n}) {
      const auto &v = h[0] == 's' ? s : base;
      if (type == FLOAT)
        put(e, h, v);
      else if (type == HALF)
        putHalf(e, target, h, v);
      else
        put(e, h, std::vector<int>(v.begin(), v.end()));
    }
  }
  e.run();
  std::vector<float> wantMax = base, wantMul = base;
  for (std::size_t k = 0; k != offsets.size(); ++k)
    if (offsets[k] < 4)
      for (std::size_t col = 0; col != 3; ++col) {
        float &m = wantMax[offsets[k] * 3 + col];
        m = std::max(m, s[k * 3 + col]);
        wantMul[offsets[k] * 3 + col] *= s[k * 3 + col];
      }
  CHECK(get<float>(e, "max-float", 12) == wantMax);
  CHECK(get<float>(e, "mul-float", 12) == wantMul);
  CHECK(getHalf(e, target, "max-half", 12) == wantMax);
  CHECK(getHalf(e, target, "mul-half", 12) == wantMul);
  const auto maxI = get<int>(e, "max-int", 12), mulI = get<int>(e, "mul-int", 12);
  CHECK(std::vector<float>(maxI.begin(), maxI.end()) == wantMax);
  CHECK(std::vector<float>(mulI.begin(), mulI.end()) == wantMul);
  // A NaN in the slice or in the tensor stays NaN.
  std::vector<float> withNaN = base;
  withNaN[9] = std::numeric_limits<float>::quiet_NaN(); // row 3, column 0
  std::vector<float> sNaN = s;
  sNaN[1] = std::numeric_limits<float>::quiet_NaN(); // slice 0 -> row 1, col 1
  put(e, "max-float", withNaN);
  put(e, "s-float", sNaN);
  e.run();
  const auto got = get<float>(e, "max-float", 12);
  CHECK(std::isnan(got[9]));
  CHECK(std::isnan(got[4]));
  CHECK(got[0] == wantMax[0]);
  Tensor b = c.var(BOOL, {2, 2}, "b");
  Tensor bs = c.var(BOOL, {1, 1, 2}, "bs");
  Tensor one = c.var(UNSIGNED_INT, {1}, "one");
  CHECK_THROWS_WITH(multiUpdateMax(c.graph, b, bs, one, {0}, {1}, c.prog,
                                   SlicePlan(), {}),
                    Contains("'b'") && Contains("bool"));
}

TEST_CASE("selectScalarFromRows and updateScalarInRows", "[popops][rows]") {
  for (const Type type : {FLOAT, HALF}) {
    INFO(type.toString().str());
    Case c;
    const Target &target = c.graph.getTarget();
    // Rows spread over the tiles, and a transposed copy of the same shape.
    Tensor params = c.var(type, {4, 5}, "params");
    Tensor updated = c.var(type, {4, 5}, "updated");
    Tensor transposed = c.var(type, {5, 4}, "transposed");
    Tensor idx = c.var(UNSIGNED_INT, {4}, "idx");
    Tensor picked = selectScalarFromRows(c.graph, params, idx, c.prog, "sel");
    Tensor pickedT =
        selectScalarFromRows(c.graph, transposed.transpose(), idx, c.prog);
    CHECK(picked.shape() == std::vector<std::size_t>{4});
    updateScalarInRows(c.graph, updated, idx, c.prog, "upd");
    updateScalarInRows(c.graph, transposed.transpose(), idx, c.prog);
    c.read("picked", picked);
    c.read("pickedT", pickedT);
    c.read("updated", updated);
    c.read("transposed", transposed);
    Engine e = c.engine();
    const std::vector<float> pv = iotaF(20);
    std::vector<float> tv(20);
    for (unsigned r = 0; r != 4; ++r)
      for (unsigned col = 0; col != 5; ++col)
        tv[col * 4 + r] = pv[r * 5 + col];
    putHalfOr(e, target, type, "params", pv);
    putHalfOr(e, target, type, "updated", pv);
    putHalfOr(e, target, type, "transposed", tv);
    const unsigned masked = MASKED_LABEL_CODE;
    const std::vector<unsigned> indices{2, 7, masked, 0};
    put(e, "idx", indices);
    e.run();
    // Host loops.
    std::vector<float> wantPicked(4), wantUpdated = pv;
    for (unsigned r = 0; r != 4; ++r) {
      if (indices[r] == masked)
        wantPicked[r] = 0;
      else if (indices[r] >= 5)
        wantPicked[r] = NAN;
      else
        wantPicked[r] = pv[r * 5 + indices[r]];
      for (unsigned col = 0; col != 5; ++col) {
        if (indices[r] != masked && indices[r] >= 5)
          wantUpdated[r * 5 + col] = NAN;
        else if (indices[r] == col)
          wantUpdated[r * 5 + col] -= 1;
      }
    }
    auto same = [](const std::vector<float> &got,
                   const std::vector<float> &want) {
      REQUIRE(got.size() == want.size());
      for (std::size_t i = 0; i != got.size(); ++i) {
        INFO("element " << i);
        if (std::isnan(want[i]))
          CHECK(std::isnan(got[i]));
        else
          CHECK(got[i] == want[i]);
      }
    };
    same(getHalfOr(e, target, type, "picked", 4), wantPicked);
    same(getHalfOr(e, target, type, "pickedT", 4), wantPicked);
    same(getHalfOr(e, target, type, "updated", 20), wantUpdated);
    const auto gotT = getHalfOr(e, target, type, "transposed", 20);
    std::vector<float> backT(20);
    for (unsigned r = 0; r != 4; ++r)
      for (unsigned col = 0; col != 5; ++col)
        backT[r * 5 + col] = gotT[col * 4 + r];
    same(backT, wantUpdated);
  }
  Case c;
  Tensor ints = c.var(INT, {2, 3}, "ints");
  Tensor idx = c.var(UNSIGNED_INT, {2}, "idx");
  Tensor bad = c.var(UNSIGNED_INT, {3}, "bad");
  Tensor f = c.var(FLOAT, {2, 3}, "f");
  CHECK_THROWS_WITH(selectScalarFromRows(c.graph, ints, idx, c.prog),
                    Contains("'ints'") && Contains("int"));
  CHECK_THROWS_WITH(updateScalarInRows(c.graph, f, bad, c.prog),
                    Contains("'bad'"));
}

TEST_CASE("encodeOneHot", "[popops][encoding]") {
  Case c;
  Tensor idx = c.var(INT, {4}, "idx");
  Tensor enc = c.var(FLOAT, {4, 3}, "enc");
  encodeOneHot(c.graph, idx, enc, c.prog, "onehot");
  c.read("enc", enc);
  Engine e = c.engine();
  put(e, "idx", std::vector<int>{2, 0, 7, -1});
  e.run();
  CHECK(get<float>(e, "enc", 12) ==
        std::vector<float>{0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0});
}

TEST_CASE("sort, sortKeyValue and topK", "[popops][sort]") {
  Case c;
  Tensor t = c.var(FLOAT, {3, 5}, "t");
  Tensor sorted0 = sort(c.graph, t, 0, c.prog, "s0");
  Tensor sorted1 = sort(c.graph, t, 1, c.prog, "s1");
  Tensor keys = c.var(INT, {5}, "keys");
  Tensor vals = c.var(FLOAT, {5}, "vals");
  Tensor byKey = sortKeyValue(c.graph, keys, vals, 0, c.prog, "kv");
  auto [top, where] = topKWithPermutation(
      c.graph, c.prog, t, TopKParams(2, true, SortOrder::DESCENDING), "top");
  Tensor smallest =
      topK(c.graph, c.prog, t, TopKParams(3, false, SortOrder::NONE), "small");
  for (auto &[n, x] : std::vector<std::pair<std::string, Tensor>>{
           {"s0", sorted0}, {"s1", sorted1}, {"kv", byKey}, {"top", top},
           {"where", where}, {"small", smallest}})
    c.read(n, x);
  Engine e = c.engine();
  const std::vector<float> tv{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9};
  put(e, "t", tv);
  put(e, "keys", std::vector<int>{3, -1, 3, 0, -5});
  put(e, "vals", std::vector<float>{10, 11, 12, 13, 14});
  e.run();
  // Host references.
  std::vector<float> s0 = tv, s1 = tv;
  for (unsigned col = 0; col != 5; ++col) {
    std::vector<float> colv{tv[col], tv[5 + col], tv[10 + col]};
    std::sort(colv.begin(), colv.end());
    for (unsigned r = 0; r != 3; ++r)
      s0[r * 5 + col] = colv[r];
  }
  for (unsigned r = 0; r != 3; ++r)
    std::sort(s1.begin() + r * 5, s1.begin() + r * 5 + 5);
  CHECK(get<float>(e, "s0", 15) == s0);
  CHECK(get<float>(e, "s1", 15) == s1);
  CHECK(get<float>(e, "kv", 5) == std::vector<float>{14, 11, 13, 10, 12});
  CHECK(get<float>(e, "top", 6) == std::vector<float>{5, 4, 9, 6, 9, 9});
  CHECK(get<unsigned>(e, "where", 6) == std::vector<unsigned>{4, 2, 0, 2, 2, 4});
  // The three smallest of each row in row order.
  CHECK(get<float>(e, "small", 9) == std::vector<float>{3, 1, 1, 2, 5, 3, 5, 8, 7});
}

TEST_CASE("pad with constants, edges and reflections", "[popops][pad]") {
  Case c;
  Tensor t = c.var(INT, {2, 3}, "t");
  Tensor constant = pad(c.graph, t, {1, 0}, {0, 2}, 7);
  CHECK(constant.shape() == std::vector<std::size_t>{3, 5});
  Tensor edge = pad(t, {0, 2}, {0, 1}, padding::Type::EDGE);
  Tensor reflect = pad(t, {0, 2}, {0, 1}, padding::Type::REFLECT);
  Tensor cut = pad(c.graph, t, {0, -1}, {-1, 0}, 0);
  CHECK(cut.shape() == std::vector<std::size_t>{1, 2});
  Tensor out1 = c.var(INT, {3, 5}, "o1"), out2 = c.var(INT, {2, 6}, "o2"),
         out3 = c.var(INT, {2, 6}, "o3");
  c.prog.add(program::Copy(constant, out1));
  c.prog.add(program::Copy(edge, out2));
  c.prog.add(program::Copy(reflect, out3));
  c.read("o1", out1);
  c.read("o2", out2);
  c.read("o3", out3);
  Engine e = c.engine();
  put(e, "t", std::vector<int>{1, 2, 3, 4, 5, 6});
  e.run();
  CHECK(get<int>(e, "o1", 15) ==
        std::vector<int>{7, 7, 7, 7, 7, 1, 2, 3, 7, 7, 4, 5, 6, 7, 7});
  CHECK(get<int>(e, "o2", 12) == std::vector<int>{1, 1, 1, 2, 3, 3, 4, 4, 4, 5, 6, 6});
  CHECK(get<int>(e, "o3", 12) == std::vector<int>{3, 2, 1, 2, 3, 2, 6, 5, 4, 5, 6, 5});
  CHECK_THROWS_AS(pad(t, {0, 5}, {0, 0}, padding::Type::REFLECT),
                  poputil::poplibs_error);
}

TEST_CASE("allTrue", "[popops][allTrue]") {
  Case c;
  Tensor b = c.var(BOOL, {2, 3}, "b");
  Tensor all = allTrue(c.graph, b, c.prog, "all");
  c.read("all", all);
  Engine e = c.engine();
  put(e, "b", std::vector<char>{1, 1, 1, 1, 1, 1});
  e.run();
  CHECK(get<char>(e, "all", 1) == std::vector<char>{1});
  put(e, "b", std::vector<char>{1, 1, 0, 1, 1, 1});
  e.run();
  CHECK(get<char>(e, "all", 1) == std::vector<char>{0});
  Tensor f = c.graph.addVariable(FLOAT, {2}, "f");
  CHECK_THROWS_WITH(allTrue(c.graph, f, c.prog), Contains("'f'") && Contains("bool"));
}

TEST_CASE("Slicing errors name the tensor", "[popops][slice]") {
  Case c;
  Tensor t = c.var(FLOAT, {4, 2}, "t");
  Tensor off = c.var(UNSIGNED_INT, {1}, "off");
  CHECK_THROWS_WITH(dynamicSlice(c.graph, t, off, {2}, {1}, c.prog),
                    Contains("'t'") && Contains("no dimension 2"));
  CHECK_THROWS_WITH(dynamicSlice(c.graph, t, off, {0}, {5}, c.prog),
                    Contains("'t'"));
  Tensor fOff = c.var(FLOAT, {1}, "fOff");
  CHECK_THROWS_WITH(dynamicSlice(c.graph, t, fOff, {0}, {1}, c.prog),
                    Contains("'fOff'"));
  CHECK_THROWS_AS(topK(c.graph, c.prog, t, TopKParams(3, true, SortOrder::NONE)),
                  poputil::poplibs_error);
}
