// Slicing beyond one row at a time: multiSlice and the multiUpdate family
// with slices wider than 1 along several dimensions, their grouped forms,
// dynamicSliceWithOutput and dynamicUpdate along several dimensions, the
// tensors laid out for slicing, and SlicePlan / embedding::plan; against
// host loops on every device.
#include "MovementCase.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/exceptions.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <functional>
#include <numeric>
#include <sstream>

using namespace poplar;
using namespace popops;
using namespace popops_test;
using Catch::Matchers::Contains;

namespace {

std::vector<float> iotaF(std::size_t n, float start = 0) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

std::size_t product(const std::vector<std::size_t> &s) {
  return std::accumulate(s.begin(), s.end(), std::size_t(1),
                         std::multiplies<>());
}

/// Calls f(flat index in t, flat index in the slice) for every element of
/// the slice of t (row-major shape) at `offsets` along dims with sizes;
/// returns false (calling nothing) when the slice does not fit.
bool forSlice(const std::vector<std::size_t> &shape,
              const std::vector<std::size_t> &dims,
              const std::vector<std::size_t> &sizes,
              const std::vector<unsigned> &offsets,
              const std::function<void(std::size_t, std::size_t)> &f) {
  auto sliceShape = shape;
  std::vector<std::size_t> start(shape.size(), 0);
  for (std::size_t j = 0; j != dims.size(); ++j) {
    if (offsets[j] + sizes[j] > shape[dims[j]])
      return false;
    sliceShape[dims[j]] = sizes[j];
    start[dims[j]] = offsets[j];
  }
  const std::size_t n = product(sliceShape);
  for (std::size_t i = 0; i != n; ++i) {
    std::size_t rest = i, flat = 0, stride = 1;
    for (std::size_t d = shape.size(); d-- > 0;) {
      const std::size_t at = rest % sliceShape[d] + start[d];
      rest /= sliceShape[d];
      flat += at * stride;
      stride *= shape[d];
    }
    f(flat, i);
  }
  return true;
}

} // namespace

TEST_CASE("multiSlice and multiUpdate* with wide slices along two dimensions",
          "[popops][slice]") {
  const std::vector<std::size_t> shape{5, 4, 6}, dims{2, 0}, sizes{3, 2};
  // Offsets along dims {2, 0}: the last slice does not fit (6 - 3 < 4).
  const std::vector<std::vector<unsigned>> offs{{0, 0}, {3, 3}, {1, 2}, {4, 1}};
  const std::size_t k = offs.size();
  const std::size_t sliceElems = 2 * 4 * 3;
  Case c;
  Tensor t = c.var(FLOAT, shape, "t");
  Tensor off = c.var(UNSIGNED_INT, {k, 2}, "off");
  Tensor out =
      multiSlice(c.graph, t, off, dims, sizes, c.prog, SlicePlan(), {}, "ms");
  CHECK(out.shape() == std::vector<std::size_t>{k, 2, 4, 3});
  Tensor upd = c.var(FLOAT, {k, 2, 4, 3}, "upd");
  Tensor add = c.var(FLOAT, shape, "add");
  Tensor scale = c.var(FLOAT, {}, "scale");
  multiUpdateAdd(c.graph, add, upd, off, scale, dims, sizes, c.prog,
                 SlicePlan(), {}, "mua");
  Tensor set = c.var(FLOAT, shape, "set");
  multiUpdate(c.graph, set, upd, off, dims, sizes, c.prog, SlicePlan(), {},
              "mu");
  Tensor mx = c.var(FLOAT, shape, "mx");
  multiUpdateMax(c.graph, mx, upd, off, dims, sizes, c.prog, SlicePlan(), {},
                 "mmax");
  for (auto [n, tt] :
       {std::pair{"out", out}, {"add", add}, {"set", set}, {"mx", mx}})
    c.read(n, tt);
  Engine e = c.engine();
  const auto tv = iotaF(product(shape));
  const auto uv = iotaF(k * sliceElems, 1000);
  std::vector<unsigned> offFlat;
  for (const auto &o : offs)
    offFlat.insert(offFlat.end(), o.begin(), o.end());
  put(e, "t", tv);
  put(e, "off", offFlat);
  put(e, "upd", uv);
  put(e, "add", std::vector<float>(tv.size(), 1.0f));
  put(e, "set", std::vector<float>(tv.size(), -1.0f));
  put(e, "mx", iotaF(tv.size(), 1010));
  put(e, "scale", std::vector<float>{0.5f});
  e.run();
  // Host loops.
  std::vector<float> wantOut(k * sliceElems, 0.0f), wantAdd(tv.size(), 1.0f),
      wantSet(tv.size(), -1.0f), wantMax = iotaF(tv.size(), 1010);
  for (std::size_t s = 0; s != k; ++s)
    forSlice(shape, dims, sizes, offs[s], [&](std::size_t at, std::size_t i) {
      wantOut[s * sliceElems + i] = tv[at];
      wantAdd[at] += 0.5f * uv[s * sliceElems + i];
      wantSet[at] = uv[s * sliceElems + i];
      wantMax[at] = std::max(wantMax[at], uv[s * sliceElems + i]);
    });
  CHECK(get<float>(e, "out", wantOut.size()) == wantOut);
  CHECK(get<float>(e, "add", tv.size()) == wantAdd);
  CHECK(get<float>(e, "set", tv.size()) == wantSet);
  CHECK(get<float>(e, "mx", tv.size()) == wantMax);
  // The slices at {0,0} and {1,2} overlap (rows 1, columns 1..2), so some
  // elements of `add` received two updates.
  CHECK(wantAdd[0 * 24 + 1 * 6 + 1] != 1.0f);
}

TEST_CASE("Grouped multiSlice and multiUpdateAdd", "[popops][slice]") {
  const std::size_t groups = 3, rows = 6, cols = 4, k = 2;
  Case c;
  const auto plan = embedding::plan(c.graph, INT, groups, rows, cols, {k}, {});
  Tensor t = createGroupedSliceableTensor(c.graph, INT, groups, {rows, cols},
                                          {0}, {2}, plan, {}, "t");
  c.graph.createHostWrite("t", t);
  Tensor off =
      createGroupedIndicesTensor(c.graph, groups, {0}, k, plan, {}, "off");
  c.graph.createHostWrite("off", off);
  CHECK(off.shape() == std::vector<std::size_t>{groups, k, 1});
  Tensor out =
      groupedMultiSlice(c.graph, t, off, {0}, {2}, c.prog, plan, {}, "gms");
  CHECK(out.shape() == std::vector<std::size_t>{groups, k, 2, cols});
  Tensor upd = createGroupedSliceTensor(c.graph, INT, groups, {rows, cols}, {0},
                                        {2}, k, plan, {}, "upd");
  c.graph.createHostWrite("upd", upd);
  Tensor acc = c.var(INT, {groups, rows, cols}, "acc");
  Tensor scale = c.var(INT, {}, "scale");
  groupedMultiUpdateAdd(c.graph, acc, upd, off, scale, {0}, {2}, c.prog, plan,
                        {}, "gmua");
  c.read("out", out);
  c.read("acc", acc);
  Engine e = c.engine();
  std::vector<int> tv(groups * rows * cols), uv(groups * k * 2 * cols);
  std::iota(tv.begin(), tv.end(), 0);
  std::iota(uv.begin(), uv.end(), 100);
  const std::vector<unsigned> offs{0, 4, 5, 1, 2, 2}; // group 1's 5 is out
  put(e, "t", tv);
  put(e, "off", offs);
  put(e, "upd", uv);
  put(e, "acc", std::vector<int>(tv.size(), 0));
  put(e, "scale", std::vector<int>{2});
  e.run();
  std::vector<int> wantOut(uv.size(), 0), wantAcc(tv.size(), 0);
  for (std::size_t g = 0; g != groups; ++g)
    for (std::size_t s = 0; s != k; ++s) {
      const unsigned o = offs[g * k + s];
      if (o + 2 > rows)
        continue;
      for (std::size_t r = 0; r != 2; ++r)
        for (std::size_t col = 0; col != cols; ++col) {
          const std::size_t at = (g * rows + o + r) * cols + col;
          const std::size_t i = ((g * k + s) * 2 + r) * cols + col;
          wantOut[i] = tv[at];
          wantAcc[at] += 2 * uv[i];
        }
    }
  CHECK(get<int>(e, "out", wantOut.size()) == wantOut);
  CHECK(get<int>(e, "acc", wantAcc.size()) == wantAcc);
}

TEST_CASE("dynamicSliceWithOutput and dynamicUpdate along two dimensions",
          "[popops][slice]") {
  Case c;
  Tensor t = c.var(FLOAT, {4, 5}, "t");
  Tensor off = c.var(UNSIGNED_INT, {2}, "off");
  Tensor out = c.var(FLOAT, {2, 3}, "out");
  dynamicSliceWithOutput(c.graph, out, t, off, {0, 1}, {2, 3}, c.prog, "dswo");
  Tensor u = c.var(FLOAT, {4, 5}, "u");
  Tensor src = c.var(FLOAT, {2, 3}, "src");
  dynamicUpdate(c.graph, u, src, off, {0, 1}, {2, 3}, c.prog, "du2");
  c.read("out", out);
  c.read("u", u);
  Engine e = c.engine();
  put(e, "t", iotaF(20));
  put(e, "off", std::vector<unsigned>{3, 4}); // both wrap around
  put(e, "u", std::vector<float>(20, 0));
  put(e, "src", iotaF(6, 1));
  e.run();
  std::vector<float> wantOut, wantU(20, 0);
  for (unsigned r = 0; r != 2; ++r)
    for (unsigned col = 0; col != 3; ++col) {
      const unsigned at = ((3 + r) % 4) * 5 + (4 + col) % 5;
      wantOut.push_back(float(at));
      wantU[at] = float(r * 3 + col + 1);
    }
  CHECK(get<float>(e, "out", 6) == wantOut);
  CHECK(get<float>(e, "u", 20) == wantU);
}

TEST_CASE("Tensors laid out for slicing", "[popops][slice][layout]") {
  Case c;
  const unsigned tiles = c.graph.getTarget().getNumTiles();
  Tensor t = createSliceableTensor(c.graph, HALF, {10, 8}, {0}, {1},
                                   SlicePlan(), {}, "table");
  // Every row's columns on the same tiles as row 0's.
  const auto row0 = c.graph.getTileMapping(t[0]);
  for (std::size_t r = 1; r != 10; ++r)
    CHECK(c.graph.getTileMapping(t[r]) == row0);
  Tensor s = createSliceTensor(c.graph, t, {0}, {1}, 3, "slices");
  CHECK(s.shape() == std::vector<std::size_t>{3, 1, 8});
  CHECK(c.graph.getTileMapping(s[2][0]) == row0);
  CHECK(getSliceMapping(c.graph, t, {0}, {1}) == row0);
  Tensor idx = createIndicesTensor(c.graph, {0}, 7, SlicePlan(), {}, "idx");
  CHECK(idx.shape() == std::vector<std::size_t>{7, 1});
  CHECK(idx.elementType() == UNSIGNED_INT);
  Tensor fromSlice =
      createSliceableTensorFromSlice(c.graph, s[0], {0}, {5}, "fromSlice");
  CHECK(fromSlice.shape() == std::vector<std::size_t>{5, 8});
  for (std::size_t r = 0; r != 5; ++r)
    CHECK(c.graph.getTileMapping(fromSlice[r]) == row0);
  if (tiles > 1) {
    std::size_t used = 0;
    for (const auto &m : row0)
      used += !m.empty();
    CHECK(used > 1);
  }
}

TEST_CASE("SlicePlan and embedding::plan", "[popops][slice][plan]") {
  Case c;
  const SlicePlan none;
  const auto p = embedding::plan(
      c.graph, FLOAT, 100, 16, {4, 8},
      {{"usedForUpdate", "false"}, {"availableMemoryProportion", "0.3"}});
  const auto q = p;
  CHECK(p == q);
  CHECK(p != none);
  CHECK(((p < none) != (none < p)));
  std::ostringstream os;
  os << p << ' ' << none;
  CHECK_THAT(os.str(),
             Contains("numEntries=100") && Contains("SlicePlan(none)"));
  CHECK_THROWS_WITH(
      embedding::plan(c.graph, FLOAT, 10, 4, {1}, {{"bogus", "1"}}),
      Contains("unknown option 'bogus'"));
  CHECK_THROWS_WITH(
      embedding::plan(c.graph, FLOAT, 10, 4, {1},
                      {{"usedForSlice", "false"}, {"usedForUpdate", "false"}}),
      Contains("both be false"));
  CHECK_THROWS_WITH(embedding::plan(c.graph, FLOAT, 10, 4, {1},
                                    {{"availableMemoryProportion", "2"}}),
                    Contains("availableMemoryProportion"));
  CHECK_THROWS_WITH(createGroupedSliceableTensor(c.graph, FLOAT, 2, {4, 3}, {0},
                                                 {1}, none, {}),
                    Contains("needs a plan"));
  CHECK_THROWS_WITH(
      createGroupedSliceableTensor(c.graph, FLOAT, 2, {4, 3}, {0}, {1}, p, {}),
      Contains("group size of 1, not 2"));
  // A plan made only for slicing refuses updates.
  Tensor t = c.var(FLOAT, {4, 3}, "t");
  Tensor off = c.var(UNSIGNED_INT, {2, 1}, "off");
  Tensor s = c.var(FLOAT, {2, 1, 3}, "s");
  CHECK_THROWS_WITH(multiUpdate(c.graph, t, s, off, {0}, {1}, c.prog, p, {}),
                    Contains("usedForUpdate=false"));
}

TEST_CASE("Wide-slice errors name the tensor", "[popops][slice]") {
  Case c;
  Tensor t = c.var(FLOAT, {4, 5}, "t");
  Tensor off = c.var(UNSIGNED_INT, {3, 2}, "off");
  CHECK_THROWS_WITH(
      multiSlice(c.graph, t, off, {0}, {1}, c.prog, SlicePlan(), {}),
      Contains("'off'") && Contains("[K, 1]"));
  CHECK_THROWS_WITH(
      multiSlice(c.graph, t, off, {0, 0}, {1, 1}, c.prog, SlicePlan(), {}),
      Contains("more than once"));
  Tensor s = c.var(FLOAT, {3, 2, 2}, "s");
  CHECK_THROWS_WITH(
      multiUpdate(c.graph, t, s, off, {0, 1}, {2, 3}, c.prog, SlicePlan(), {}),
      Contains("'s'") && Contains("{3,2,3}"));
  Tensor out = c.var(FLOAT, {2, 2}, "out");
  Tensor off2 = c.var(UNSIGNED_INT, {2}, "off2");
  CHECK_THROWS_WITH(
      dynamicSliceWithOutput(c.graph, out, t, off2, {0, 1}, {2, 3}, c.prog),
      Contains("'out'"));
  Tensor badScale = c.var(INT, {}, "badScale");
  Tensor one = c.var(FLOAT, {3, 2, 5}, "one");
  Tensor off1 = c.var(UNSIGNED_INT, {3, 1}, "off1");
  CHECK_THROWS_WITH(multiUpdateAdd(c.graph, t, one, off1, badScale, {0}, {2},
                                   c.prog, SlicePlan(), {}),
                    Contains("'badScale'"));
}

TEST_CASE("multiSlice options: remapOutOfBoundIndices and unknown options",
          "[popops][slice]") {
  Case c;
  Tensor t = c.var(FLOAT, {4, 3}, "t");
  Tensor off = c.var(UNSIGNED_INT, {3, 1}, "off");
  Tensor remapped =
      multiSlice(c.graph, t, off, {0}, {2}, c.prog, SlicePlan(),
                 {{"remapOutOfBoundIndices", "true"}}, "remapped");
  Tensor padded = multiSlice(c.graph, t, off, {0}, {2}, c.prog, SlicePlan(),
                             {{"paddingIndexUsed", "true"}}, "padded");
  c.read("remapped", remapped);
  c.read("padded", padded);
  CHECK_THROWS_AS(multiSlice(c.graph, t, off, {0}, {1}, c.prog, SlicePlan(),
                             {{"bogus", "1"}}),
                  poplar::invalid_option);
  Engine e = c.engine();
  put(e, "t", iotaF(12));
  put(e, "off", std::vector<unsigned>{1, 3, 4}); // 3 and 4 do not fit 2 rows
  e.run();
  // Rows 1-2, then rows 0-1 twice (remapped) or zeros (padding).
  CHECK(get<float>(e, "remapped", 18) == std::vector<float>{3, 4, 5, 6, 7, 8, 0,
                                                            1, 2, 3, 4, 5, 0, 1,
                                                            2, 3, 4, 5});
  CHECK(get<float>(e, "padded", 18) == std::vector<float>{3, 4, 5, 6, 7, 8, 0,
                                                          0, 0, 0, 0, 0, 0, 0,
                                                          0, 0, 0, 0});
}
