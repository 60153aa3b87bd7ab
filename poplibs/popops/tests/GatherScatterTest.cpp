// XLA-style gather and scatter, and CircBuf, against host loops on every
// device.
#include "MovementCase.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <popops/CircBuf.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Gather.hpp>
#include <popops/Scatter.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

using namespace poplar;
using namespace popops;
using namespace popops_test;
using Catch::Matchers::Contains;

namespace {

using Shape = std::vector<std::size_t>;

std::size_t product(const Shape &s) {
  return std::accumulate(s.begin(), s.end(), std::size_t(1),
                         std::multiplies<>());
}
Shape unflatten(std::size_t i, const Shape &shape) {
  Shape c(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    c[d] = i % shape[d];
    i /= shape[d];
  }
  return c;
}
std::size_t flatten(const Shape &c, const Shape &shape) {
  std::size_t f = 0;
  for (std::size_t d = 0; d != shape.size(); ++d)
    f = f * shape[d] + c[d];
  return f;
}
bool has(const Shape &v, std::size_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

/// XLA's gather, element by element, as its specification reads.
std::vector<float> hostGather(const std::vector<float> &in,
                              const Shape &inShape, const std::vector<int> &idx,
                              const Shape &idxShape, std::size_t ivd,
                              const Shape &offsetDims, const Shape &sliceSizes,
                              const Shape &collapsed, const Shape &startMap,
                              Shape &outShape) {
  Shape batch;
  for (std::size_t d = 0; d != idxShape.size(); ++d)
    if (d != ivd)
      batch.push_back(idxShape[d]);
  const std::size_t outRank = batch.size() + inShape.size() - collapsed.size();
  outShape.assign(outRank, 0);
  std::size_t b = 0, o = 0;
  Shape keptDims;
  for (std::size_t d = 0; d != inShape.size(); ++d)
    if (!has(collapsed, d))
      keptDims.push_back(d);
  for (std::size_t p = 0; p != outRank; ++p)
    outShape[p] = has(offsetDims, p) ? sliceSizes[keptDims[o++]] : batch[b++];
  std::vector<float> out(product(outShape));
  for (std::size_t i = 0; i != out.size(); ++i) {
    const Shape oc = unflatten(i, outShape);
    Shape bc, off;
    for (std::size_t p = 0; p != outRank; ++p)
      (has(offsetDims, p) ? off : bc).push_back(oc[p]);
    Shape start(inShape.size(), 0);
    for (std::size_t k = 0; k != startMap.size(); ++k) {
      Shape ic;
      for (std::size_t d = 0, bi = 0; d != idxShape.size() || d == ivd; ++d) {
        if (d == ivd) {
          if (ivd < idxShape.size())
            ic.push_back(k);
        } else {
          ic.push_back(bc[bi++]);
        }
        if (d + 1 > idxShape.size())
          break;
      }
      Shape fullIdxShape = idxShape;
      const long v = idx[flatten(ic, fullIdxShape)];
      const std::size_t d = startMap[k];
      const long hi = long(inShape[d] - sliceSizes[d]);
      start[d] = std::size_t(std::clamp(v, 0L, hi));
    }
    Shape inC = start;
    for (std::size_t j = 0; j != keptDims.size(); ++j)
      inC[keptDims[j]] += off[j];
    out[i] = in[flatten(inC, inShape)];
  }
  return out;
}

} // namespace

TEST_CASE("XLA gather: the documented example", "[popops][gather]") {
  Case c;
  Tensor in = c.var(FLOAT, {3, 3}, "in");
  Tensor idx = c.var(UNSIGNED_INT, {2, 2}, "idx");
  Tensor out =
      gather(c.graph, in, idx, 1, {}, {1, 1}, {0, 1}, {0, 1}, c.prog, "g");
  CHECK(out.shape() == Shape{2});
  c.read("out", out);
  Engine e = c.engine();
  put(e, "in", std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  put(e, "idx", std::vector<unsigned>{1, 1, 2, 1});
  e.run();
  CHECK(get<float>(e, "out", 2) == std::vector<float>{5, 8});
}

TEST_CASE("XLA gather with batch and offset dimensions and clamping",
          "[popops][gather]") {
  struct Form {
    Shape inShape, idxShape;
    std::size_t ivd;
    Shape offsetDims, sliceSizes, collapsed, startMap;
  };
  const std::vector<Form> forms = {
      // take along axis 1 with [2, 3] scalar indices -> [5, 2, 3, 3].
      {{5, 4, 3}, {2, 3}, 2, {0, 3}, {5, 1, 3}, {1}, {1}},
      // 2x2 windows at (row, column) pairs, index vectors along dim 0.
      {{6, 5}, {2, 4}, 0, {1, 2}, {2, 2}, {}, {0, 1}},
      // pairs in reversed order (startIndexMap {1, 0}), one dim collapsed.
      {{4, 6, 2}, {3, 2}, 1, {1, 2}, {1, 3, 2}, {0}, {1, 0}}};
  for (const auto &f : forms) {
    Case c;
    Tensor in = c.var(FLOAT, f.inShape, "in");
    Tensor idx = c.var(INT, f.idxShape, "idx");
    Tensor out =
        gather(c.graph, in, idx, f.ivd, f.offsetDims, f.sliceSizes, f.collapsed,
               std::vector<unsigned>(f.startMap.begin(), f.startMap.end()),
               c.prog, "g");
    c.read("out", out);
    Engine e = c.engine();
    std::vector<float> inV(product(f.inShape));
    std::iota(inV.begin(), inV.end(), 0.0f);
    // Indices from -1 (clamped to 0) to beyond every dimension (clamped).
    std::vector<int> idxV(product(f.idxShape));
    for (std::size_t i = 0; i != idxV.size(); ++i)
      idxV[i] = int(i * 7 % 9) - 1;
    put(e, "in", inV);
    put(e, "idx", idxV);
    e.run();
    Shape outShape;
    const auto want =
        hostGather(inV, f.inShape, idxV, f.idxShape, f.ivd, f.offsetDims,
                   f.sliceSizes, f.collapsed, f.startMap, outShape);
    CHECK(out.shape() == outShape);
    CHECK(get<float>(e, "out", want.size()) == want);
  }
}

TEST_CASE("XLA scatter of rows and of 2-D windows, with an update "
          "computation",
          "[popops][scatter]") {
  Case c;
  Tensor rows = c.var(FLOAT, {6, 4}, "rows");
  Tensor rowIdx = c.var(UNSIGNED_INT, {3}, "rowIdx");
  Tensor rowUpd = c.var(FLOAT, {3, 4}, "rowUpd");
  scatter(c.graph, rows, rowIdx, rowUpd, 1, {1}, {0}, {0}, c.prog, "s1");
  Tensor acc = c.var(FLOAT, {6, 4}, "acc");
  UpdateComputationFunc addFn = [](Graph &g, Tensor &a, Tensor &b,
                                   program::Sequence &p) {
    return popops::add(g, a, b, p);
  };
  scatter(c.graph, acc, rowIdx, rowUpd, 1, {1}, {0}, {0}, addFn, c.prog, "s2");
  Tensor grid = c.var(INT, {5, 6}, "grid");
  Tensor winIdx = c.var(UNSIGNED_INT, {2, 2}, "winIdx");
  Tensor winUpd = c.var(INT, {2, 2, 3}, "winUpd");
  scatter(c.graph, grid, winIdx, winUpd, 1, {1, 2}, {}, {0, 1}, c.prog, "s3");
  c.read("rows", rows);
  c.read("acc", acc);
  c.read("grid", grid);
  Engine e = c.engine();
  std::vector<float> upd(12);
  std::iota(upd.begin(), upd.end(), 100.0f);
  const std::vector<unsigned> ri{4, 9, 1}; // 9 is out of range: skipped
  put(e, "rows", std::vector<float>(24, 0));
  put(e, "acc", std::vector<float>(24, 1));
  put(e, "rowIdx", ri);
  put(e, "rowUpd", upd);
  std::vector<int> wu(12);
  std::iota(wu.begin(), wu.end(), 1);
  const std::vector<unsigned> wi{3, 2, 0, 4}; // windows at (3,2) and (0,4)
  put(e, "grid", std::vector<int>(30, 0));
  put(e, "winIdx", wi);
  put(e, "winUpd", wu);
  e.run();
  std::vector<float> wantRows(24, 0), wantAcc(24, 1);
  for (std::size_t k = 0; k != 3; ++k)
    if (ri[k] < 6)
      for (std::size_t j = 0; j != 4; ++j) {
        wantRows[ri[k] * 4 + j] = upd[k * 4 + j];
        wantAcc[ri[k] * 4 + j] += upd[k * 4 + j];
      }
  std::vector<int> wantGrid(30, 0);
  for (std::size_t k = 0; k != 2; ++k) {
    const unsigned r = wi[k * 2], col = wi[k * 2 + 1];
    if (r + 2 > 5 || col + 3 > 6)
      continue; // (0, 4) does not fit 3 columns: skipped
    for (std::size_t a = 0; a != 2; ++a)
      for (std::size_t b = 0; b != 3; ++b)
        wantGrid[(r + a) * 6 + col + b] = wu[(k * 2 + a) * 3 + b];
  }
  CHECK(get<float>(e, "rows", 24) == wantRows);
  CHECK(get<float>(e, "acc", 24) == wantAcc);
  CHECK(get<int>(e, "grid", 30) == wantGrid);
}

TEST_CASE("CircBuf keeps the last entries", "[popops][circbuf]") {
  Case c;
  CircBuf buf(c.graph, FLOAT, 3, {2}, "buf");
  CHECK(buf.size() == 3);
  Tensor x = c.var(FLOAT, {2}, "x");
  buf.add(x, c.prog, "add");
  Tensor p0 = buf.prev(0, c.prog), p1 = buf.prev(1, c.prog),
         p2 = buf.prev(2, c.prog);
  c.read("p0", p0);
  c.read("p1", p1);
  c.read("p2", p2);
  c.read("index", buf.getIndex());
  CHECK(!buf.getTileMapping().empty());
  Engine e = c.engine();
  for (unsigned run = 0; run != 4; ++run) {
    put(e, "x", std::vector<float>{float(run), float(run + 10)});
    e.run();
    CHECK(get<float>(e, "p0", 2) ==
          std::vector<float>{float(run), float(run + 10)});
    if (run >= 1)
      CHECK(get<float>(e, "p1", 2) ==
            std::vector<float>{float(run - 1), float(run + 9)});
    if (run >= 2)
      CHECK(get<float>(e, "p2", 2) ==
            std::vector<float>{float(run - 2), float(run + 8)});
    CHECK(get<unsigned>(e, "index", 1)[0] == (run + 1) % 3);
  }
  CHECK_THROWS_WITH(buf.prev(3, c.prog), Contains("entry 3"));
  Tensor wrong = c.var(FLOAT, {3}, "wrong");
  CHECK_THROWS_WITH(buf.add(wrong, c.prog), Contains("'wrong'"));
}

TEST_CASE("Gather and scatter errors name the tensor", "[popops][gather]") {
  Case c;
  Tensor in = c.var(FLOAT, {3, 3}, "in");
  Tensor fIdx = c.var(FLOAT, {2, 2}, "fIdx");
  CHECK_THROWS_WITH(
      gather(c.graph, in, fIdx, 1, {}, {1, 1}, {0, 1}, {0, 1}, c.prog),
      Contains("'fIdx'"));
  Tensor idx = c.var(UNSIGNED_INT, {2, 3}, "idx");
  CHECK_THROWS_WITH(
      gather(c.graph, in, idx, 1, {}, {1, 1}, {0, 1}, {0, 1}, c.prog),
      Contains("'idx'") && Contains("startIndexMap"));
  CHECK_THROWS_WITH(
      gather(c.graph, in, idx, 1, {}, {4, 1}, {1}, {0, 1}, c.prog),
      Contains("'in'"));
  Tensor upd = c.var(FLOAT, {2, 2}, "upd");
  Tensor rIdx = c.var(UNSIGNED_INT, {3}, "rIdx");
  CHECK_THROWS_WITH(scatter(c.graph, in, rIdx, upd, 1, {1}, {0}, {0}, c.prog),
                    Contains("'upd'"));
}
