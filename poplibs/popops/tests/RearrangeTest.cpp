// popops::rearrange: transpositions and regrouping against host loops on
// every device.
#include "MovementCase.hpp"

#include <popops/Rearrange.hpp>
#include <poputil/VarStructure.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <numeric>

using namespace poplar;
using namespace popops;
using namespace popops_test;

TEST_CASE("partialTranspose transposes the innermost two dimensions",
          "[popops][rearrange]") {
  Case c;
  Tensor in = c.var(INT, {3, 2, 5}, "in");
  ComputeSet cs = c.graph.addComputeSet("transpose");
  Tensor out = rearrange::partialTranspose(c.graph, in, cs, "pt");
  c.prog.add(program::Execute(cs));
  CHECK(out.shape() == std::vector<std::size_t>{3, 5, 2});
  c.read("out", out);
  Engine e = c.engine();
  std::vector<int> v(30);
  std::iota(v.begin(), v.end(), 0);
  put(e, "in", v);
  e.run();
  std::vector<int> want(30);
  for (std::size_t k = 0; k != 3; ++k)
    for (std::size_t r = 0; r != 2; ++r)
      for (std::size_t col = 0; col != 5; ++col)
        want[k * 10 + col * 2 + r] = v[k * 10 + r * 5 + col];
  CHECK(get<int>(e, "out", 30) == want);
}

TEST_CASE("regroupTensor and regroupIfBeneficial keep the contents and "
          "change the grouping",
          "[popops][rearrange]") {
  Case c;
  Tensor t = c.var(FLOAT, {8, 4}, "t"); // grouped along dimension 1
  ComputeSet cs = c.graph.addComputeSet("unused");
  Tensor r = rearrange::regroupTensor(c.graph, t, c.prog, cs, {1, 4}, {0, 4},
                                      "rg");
  CHECK(r.shape() == t.shape());
  const auto g = poputil::detectDimGroupings(c.graph, r);
  REQUIRE(!g.empty());
  // Groups of 4 along dimension 0, cut where t's mapping changes tile.
  CHECK(g[0].first == 0);
  CHECK(4 % g[0].second == 0);
  // Beneficial towards a reference grouped along dimension 0 (a transposed
  // variable); not when the grouping already matches.
  Tensor refStorage = c.graph.addVariable(FLOAT, {4, 8}, "refStorage");
  c.graph.setTileMapping(refStorage, 0);
  Tensor b = rearrange::regroupIfBeneficial(c.graph, t, refStorage.transpose(),
                                            c.prog, "rib");
  CHECK(poputil::detectDimGroupings(c.graph, b)[0].first == 0);
  Tensor same = rearrange::regroupIfBeneficial(c.graph, t, 2, c.prog);
  CHECK(same.getVarRegions() == t.getVarRegions());
  c.read("r", r);
  c.read("b", b);
  Engine e = c.engine();
  std::vector<float> v(32);
  std::iota(v.begin(), v.end(), 0.0f);
  put(e, "t", v);
  e.run();
  CHECK(get<float>(e, "r", 32) == v);
  CHECK(get<float>(e, "b", 32) == v);
  CHECK_THROWS_AS(
      rearrange::regroupTensor(c.graph, t, c.prog, cs, {1, 4}, {0, 3}),
      poputil::poplibs_error);
}

TEST_CASE("Transposition rules and grain sizes", "[popops][rearrange]") {
  Case c;
  const Target &target = c.graph.getTarget();
  CHECK(rearrange::getMinimumRegroupGrainSize(HALF) == 4);
  CHECK(rearrange::getMinimumRegroupGrainSize(FLOAT) == 2);
  CHECK(rearrange::getMinimumRegroupGrainSize(BOOL) == 1);
  CHECK(rearrange::canUseFastTranspose(target, HALF, 8, 4, 3));
  CHECK_FALSE(rearrange::canUseFastTranspose(target, HALF, 6, 4, 3));
  CHECK(rearrange::canUseFastTranspose(target, FLOAT, 2, 6, 1));
  CHECK_FALSE(rearrange::canUseFastTranspose(target, FLOAT, 2, 6, 0));
  Tensor v = c.var(FLOAT, {4}, "v");
  ComputeSet cs = c.graph.addComputeSet("cs");
  CHECK_THROWS_AS(rearrange::partialTranspose(c.graph, v, cs),
                  poputil::poplibs_error);
}
