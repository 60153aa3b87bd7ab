// poplin::matMul and friends against a host triple loop, on every test
// device: shapes from 1x1x1 to prime sizes, grouped, accumulation, HALF
// inputs, operands made by createMatMulInput*, options and errors.
#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include "TestValues.hpp"
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <sstream>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;

namespace {

// out[g][i][j] = sum over l of a[g][i][l] * b[g][l][j]
std::vector<double> hostMatMul(const std::vector<float> &a,
                               const std::vector<float> &b, std::size_t groups,
                               std::size_t m, std::size_t k, std::size_t n) {
  std::vector<double> out(groups * m * n, 0.0);
  for (std::size_t g = 0; g != groups; ++g)
    for (std::size_t i = 0; i != m; ++i)
      for (std::size_t j = 0; j != n; ++j) {
        double acc = 0;
        for (std::size_t l = 0; l != k; ++l)
          acc +=
              double(a[(g * m + i) * k + l]) * double(b[(g * k + l) * n + j]);
        out[(g * m + i) * n + j] = acc;
      }
  return out;
}

struct Rig {
  Device device;
  Graph graph;
  Sequence prog;
  explicit Rig(unsigned tiles = 4)
      : device(sdktest::createTestDevice(tiles)), graph(device.getTarget()) {
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
  }

  void write(Engine &e, const std::string &h, const Type &t,
             const std::vector<float> &v) {
    if (t == FLOAT) {
      e.writeTensor(h, v.data(), v.data() + v.size());
    } else {
      std::vector<std::uint16_t> x(v.size());
      copyFloatToDeviceHalf(graph.getTarget(), v.data(), x.data(), x.size());
      e.writeTensor(h, x.data(), x.data() + x.size());
    }
  }
  std::vector<float> read(Engine &e, const std::string &h, const Type &t,
                          std::size_t n) {
    std::vector<float> v(n);
    if (t == FLOAT) {
      e.readTensor(h, v.data(), v.data() + n);
    } else {
      std::vector<std::uint16_t> x(n);
      e.readTensor(h, x.data(), x.data() + n);
      copyDeviceHalfToFloat(graph.getTarget(), x.data(), v.data(), n);
    }
    return v;
  }
};

void checkClose(const std::vector<float> &got, const std::vector<double> &want,
                double tol = 1e-4) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i != got.size(); ++i) {
    INFO("element " << i);
    REQUIRE(std::abs(double(got[i]) - want[i]) <=
            tol * (1.0 + std::abs(want[i])));
  }
}

// Runs A x B (grouped when groups > 0) with linearly mapped operands.
std::vector<float> runMatMul(std::size_t groups, std::size_t m, std::size_t k,
                             std::size_t n, const Type &inType,
                             const Type &outType, const std::vector<float> &a,
                             const std::vector<float> &b, unsigned tiles = 4,
                             const OptionFlags &options = {}) {
  Rig r(tiles);
  const bool grouped = groups > 0;
  const std::size_t g = grouped ? groups : 1;
  std::vector<std::size_t> aShape{m, k}, bShape{k, n};
  if (grouped) {
    aShape.insert(aShape.begin(), g);
    bShape.insert(bShape.begin(), g);
  }
  Tensor A = r.graph.addVariable(inType, aShape, "A");
  Tensor B = r.graph.addVariable(inType, bShape, "B");
  poputil::mapTensorLinearly(r.graph, A);
  poputil::mapTensorLinearly(r.graph, B);
  Tensor C =
      grouped
          ? poplin::matMulGrouped(r.graph, A, B, r.prog, outType, "C", options)
          : poplin::matMul(r.graph, A, B, r.prog, outType, "C", options);
  REQUIRE(C.elementType() == outType);
  r.graph.createHostWrite("a", A);
  r.graph.createHostWrite("b", B);
  r.graph.createHostRead("c", C);
  Engine e(r.graph, r.prog);
  e.load(r.device);
  r.write(e, "a", inType, a);
  r.write(e, "b", inType, b);
  e.run(0);
  return r.read(e, "c", outType, g * m * n);
}

} // namespace

TEST_CASE("matMul matches a host loop", "[poplin][matmul]") {
  const std::vector<std::array<std::size_t, 3>> shapes = {
      {1, 1, 1},   {1, 1, 7},   {5, 1, 3},    {3, 7, 1},  {2, 3, 4},
      {7, 13, 11}, {17, 31, 5}, {16, 64, 16}, {40, 9, 33}};
  for (const auto &[m, k, n] : shapes) {
    INFO(m << "x" << k << "x" << n);
    const auto a = poplin_test::halfExactValues(m * k, 1, 8),
               b = poplin_test::halfExactValues(k * n, 2, 8);
    checkClose(runMatMul(0, m, k, n, FLOAT, FLOAT, a, b),
               hostMatMul(a, b, 1, m, k, n));
  }
}

TEST_CASE("matMul on many tiles splits k", "[poplin][matmul]") {
  const std::size_t m = 3, k = 97, n = 2;
  const auto a = poplin_test::halfExactValues(m * k, 3, 8),
             b = poplin_test::halfExactValues(k * n, 4, 8);
  checkClose(runMatMul(0, m, k, n, FLOAT, FLOAT, a, b, 64),
             hostMatMul(a, b, 1, m, k, n));
}

TEST_CASE("HALF inputs and outputs", "[poplin][matmul]") {
  const std::size_t m = 6, k = 10, n = 5;
  const auto a = poplin_test::halfExactValues(m * k, 5, 8),
             b = poplin_test::halfExactValues(k * n, 6, 8);
  const auto want = hostMatMul(a, b, 1, m, k, n);
  checkClose(runMatMul(0, m, k, n, HALF, FLOAT, a, b), want);
  checkClose(runMatMul(0, m, k, n, HALF, HALF, a, b), want, 1e-3);
  checkClose(runMatMul(0, m, k, n, FLOAT, HALF, a, b), want, 1e-3);
  checkClose(
      runMatMul(0, m, k, n, HALF, HALF, a, b, 4, {{"partialsType", "half"}}),
      want, 1e-3);
}

// The splits of the product's plan, from matMulReportPlan's
// "split m/n/k: M/N/K" line.
std::array<unsigned, 3> planSplits(const Graph &graph, std::size_t m,
                                   std::size_t k, std::size_t n,
                                   const OptionFlags &options) {
  std::ostringstream report;
  poplin::matMulReportPlan(report, graph, HALF, HALF, {m, k}, {k, n},
                           options);
  const std::string text = report.str();
  const std::size_t at = text.find("split m/n/k: ");
  REQUIRE(at != std::string::npos);
  std::array<unsigned, 3> splits{};
  char slash;
  std::istringstream(text.substr(at + 13)) >> splits[0] >> slash >>
      splits[1] >> slash >> splits[2];
  return splits;
}

TEST_CASE("HALF partials are rounded before the k blocks are summed",
          "[poplin][matmul]") {
  // Each row of A puts 2048 + 1 in the first k block and -2048 in the
  // second: float partials give 1, HALF partials round 2049 to 2048 and
  // give 0 when k is split (the plan of a one-tile device does not; its
  // one partial is then 2049 rounded to 2048).
  const std::size_t m = 2, k = 4096, n = 2;
  const unsigned tiles = 16;
  const OptionFlags halfPartials{{"partialsType", "half"}};
  Rig probe(tiles);
  const unsigned splitK = planSplits(probe.graph, m, k, n, halfPartials)[2];
  if (probe.graph.getTarget().getNumTiles() > 1)
    REQUIRE(splitK > 1);
  const std::size_t secondBlock = k / splitK;
  std::vector<float> a(m * k, 0.0f), b(k * n, 1.0f);
  for (std::size_t i = 0; i != m; ++i) {
    a[i * k] = 2048.0f;
    a[i * k + 1] = 1.0f;
    if (splitK > 1)
      a[i * k + secondBlock] = -2048.0f;
  }
  // The host's sum of the blocks' partials, each rounded to half.
  const float expected = splitK > 1 ? 0.0f : 2048.0f;
  const std::vector<float> got =
      runMatMul(0, m, k, n, HALF, FLOAT, a, b, tiles, halfPartials);
  for (float x : got)
    REQUIRE(x == expected);
  // With float partials the same product is exact.
  const std::vector<float> exact = runMatMul(0, m, k, n, HALF, FLOAT, a, b,
                                             tiles, {{"partialsType", "float"}});
  for (float x : exact)
    REQUIRE(x == (splitK > 1 ? 1.0f : 2049.0f));
}

TEST_CASE("HALF partials over split k match a host loop", "[poplin][matmul]") {
  const std::size_t m = 24, k = 300, n = 20;
  const auto a = poplin_test::halfExactValues(m * k, 11, 4),
             b = poplin_test::halfExactValues(k * n, 12, 4);
  // Small half-integers: every partial sum is exact in half.
  const auto want = hostMatMul(a, b, 1, m, k, n);
  checkClose(runMatMul(0, m, k, n, HALF, HALF, a, b, 16,
                       {{"partialsType", "half"}}),
             want, 0);
  checkClose(runMatMul(0, m, k, n, HALF, FLOAT, a, b, 16,
                       {{"partialsType", "half"}}),
             want, 0);
}

TEST_CASE("matMulGrouped", "[poplin][matmul]") {
  const std::size_t g = 3, m = 4, k = 5, n = 7;
  const auto a = poplin_test::halfExactValues(g * m * k, 7, 8),
             b = poplin_test::halfExactValues(g * k * n, 8, 8);
  checkClose(runMatMul(g, m, k, n, FLOAT, FLOAT, a, b),
             hostMatMul(a, b, g, m, k, n));
  checkClose(runMatMul(g, m, k, n, FLOAT, FLOAT, a, b, 2),
             hostMatMul(a, b, g, m, k, n));
}

TEST_CASE("matMulAcc and matMulWithOutput", "[poplin][matmul]") {
  const std::size_t m = 5, k = 3, n = 4;
  const auto a = poplin_test::halfExactValues(m * k, 9, 8),
             b = poplin_test::halfExactValues(k * n, 10, 8);
  const auto c0 = poplin_test::halfExactValues(m * n, 11, 8);
  const auto ab = hostMatMul(a, b, 1, m, k, n);
  Rig r;
  Tensor A = poplin::createMatMulInputLHS(r.graph, FLOAT, {m, k}, {k, n}, "A");
  Tensor B =
      poplin::createMatMulInputRHS(r.graph, FLOAT, FLOAT, {m, k}, {k, n}, "B");
  REQUIRE(A.shape() == std::vector<std::size_t>{m, k});
  REQUIRE(B.shape() == std::vector<std::size_t>{k, n});
  Tensor C1 =
      poplin::createMatMulOutput(r.graph, FLOAT, FLOAT, {m, k}, {k, n}, "C1");
  Tensor C2 = r.graph.clone(C1, "C2");
  Tensor C3 = r.graph.clone(C1, "C3");
  Tensor kScale = r.graph.addConstant(FLOAT, {}, -0.5f, "k");
  r.graph.setTileMapping(kScale, 0);
  poplin::matMulAcc(r.graph, C1, 2.0f, A, B, r.prog);
  poplin::matMulAcc(r.graph, C2, kScale, A, B, r.prog);
  poplin::matMulWithOutput(r.graph, A, B, C3, r.prog);
  r.graph.createHostWrite("a", A);
  r.graph.createHostWrite("b", B);
  for (auto [name, t] : {std::pair{"c1", C1}, {"c2", C2}, {"c3", C3}}) {
    r.graph.createHostWrite(std::string(name) + "w", t);
    r.graph.createHostRead(name, t);
  }
  Engine e(r.graph, r.prog);
  e.load(r.device);
  r.write(e, "a", FLOAT, a);
  r.write(e, "b", FLOAT, b);
  r.write(e, "c1w", FLOAT, c0);
  r.write(e, "c2w", FLOAT, c0);
  r.write(e, "c3w", FLOAT, c0);
  e.run(0);
  std::vector<double> want1(m * n), want2(m * n);
  for (std::size_t i = 0; i != m * n; ++i) {
    want1[i] = c0[i] + 2.0 * ab[i];
    want2[i] = c0[i] - 0.5 * ab[i];
  }
  checkClose(r.read(e, "c1", FLOAT, m * n), want1);
  checkClose(r.read(e, "c2", FLOAT, m * n), want2);
  checkClose(r.read(e, "c3", FLOAT, m * n), ab);
}

TEST_CASE("Options are validated", "[poplin][matmul]") {
  Rig r;
  Tensor A = r.graph.addVariable(FLOAT, {2, 3}, "A");
  Tensor B = r.graph.addVariable(FLOAT, {3, 2}, "B");
  poputil::mapTensorLinearly(r.graph, A);
  poputil::mapTensorLinearly(r.graph, B);
  REQUIRE_THROWS_WITH(
      poplin::matMul(r.graph, A, B, r.prog, "C", {{"noSuchOption", "1"}}),
      Contains("noSuchOption"));
  REQUIRE_THROWS_WITH(
      poplin::matMul(r.graph, A, B, r.prog, "C", {{"partialsType", "int"}}),
      Contains("partialsType"));
  REQUIRE_THROWS_WITH(poplin::matMul(r.graph, A, B, r.prog, "C",
                                     {{"fullyConnectedPass", "SIDEWAYS"}}),
                      Contains("fullyConnectedPass"));
  REQUIRE_THROWS_WITH(poplin::matMul(r.graph, A, B, r.prog, "C",
                                     {{"availableMemoryProportion", "x"}}),
                      Contains("availableMemoryProportion"));
  REQUIRE_NOTHROW(poplin::matMul(r.graph, A, B, r.prog, "C",
                                 {{"fullyConnectedPass", "TRAINING_FWD"},
                                  {"availableMemoryProportion", "0.3"},
                                  {"partialsType", "float"}}));
  REQUIRE_THROWS_AS(poplin::matMul(r.graph, A, A, r.prog),
                    poputil::poplibs_error);
  Tensor I = r.graph.addVariable(INT, {3, 2}, "I");
  poputil::mapTensorLinearly(r.graph, I);
  REQUIRE_THROWS_AS(poplin::matMul(r.graph, I, I.transpose(), r.prog),
                    poputil::poplibs_error);
}

TEST_CASE("The planning cache remembers plans", "[poplin][matmul]") {
  Rig r;
  poplin::matmul::PlanningCache cache;
  poplin::createMatMulInputLHS(r.graph, FLOAT, {8, 8}, {8, 8}, "A", {}, &cache);
  poplin::createMatMulInputRHS(r.graph, FLOAT, {8, 8}, {8, 8}, "B", {}, &cache);
  REQUIRE(cache.size() == 1);
  poplin::createMatMulInputRHS(r.graph, FLOAT, {8, 9}, {9, 8}, "B", {}, &cache);
  REQUIRE(cache.size() == 2);
}

TEST_CASE("A 256^3 matmul on the Mk1 model uses many tiles",
          "[poplin][matmul]") {
  Graph graph(Target::createIPUTarget(1, "ipu1"));
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  REQUIRE(graph.getTarget().getNumTiles() == 1216);
  poplin::matmul::PlanningCache cache;
  Tensor A = poplin::createMatMulInputLHS(graph, FLOAT, {256, 256}, {256, 256},
                                          "A", {}, &cache);
  Tensor B = poplin::createMatMulInputRHS(graph, FLOAT, {256, 256}, {256, 256},
                                          "B", {}, &cache);
  std::set<unsigned> tiles;
  for (const Tensor &t : {A, B}) {
    const auto mapping = graph.getTileMapping(t);
    for (unsigned tile = 0; tile != mapping.size(); ++tile)
      if (!mapping[tile].empty())
        tiles.insert(tile);
  }
  INFO(tiles.size() << " tiles");
  REQUIRE(tiles.size() >= 512);
  Sequence prog;
  Tensor C = poplin::matMul(graph, A, B, prog, "C", {}, &cache);
  REQUIRE(C.shape() == std::vector<std::size_t>{256, 256});
  REQUIRE(cache.size() == 1);
}
