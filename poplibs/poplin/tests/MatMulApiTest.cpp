// The rest of poplin's matmul API against host loops: empty products
// (m, n, k or groups zero), preArrangeMatMulInputRHS, preplanMatMuls, the
// options of the original and their errors.
#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/exceptions.hpp>
#include <poplar/Graph.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <sstream>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;

namespace {

struct Rig {
  Device device = sdktest::createTestDevice(4);
  Graph graph{device.getTarget()};
  Sequence prog;
  Rig() {
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
  }
  Tensor mapped(const Type &type, std::vector<std::size_t> shape,
                const std::string &name) {
    Tensor t = graph.addVariable(type, shape, name);
    poputil::mapTensorLinearly(graph, t);
    return t;
  }
};

std::vector<float> iota(std::size_t n, float scale) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i != n; ++i)
    v[i] = float(int(i % 7) - 3) * scale;
  return v;
}

} // namespace

TEST_CASE("Empty products", "[poplin][matmul]") {
  Rig r;
  // k = 0: the sum over nothing, all zeros (also over what C held).
  Tensor A0 = r.mapped(FLOAT, {3, 0}, "A0");
  Tensor B0 = r.mapped(FLOAT, {0, 4}, "B0");
  Tensor zeros = poplin::matMul(r.graph, A0, B0, r.prog, "zeros");
  REQUIRE(zeros.shape() == std::vector<std::size_t>{3, 4});
  Tensor given = r.mapped(FLOAT, {3, 4}, "given");
  poplin::matMulWithOutput(r.graph, A0, B0, given, r.prog);
  Tensor acc = r.mapped(FLOAT, {3, 4}, "acc");
  poplin::matMulAcc(r.graph, acc, 2.0f, A0, B0, r.prog);
  // m = 0, n = 0 and no groups: results without elements.
  Tensor rows = poplin::matMul(r.graph, r.mapped(FLOAT, {0, 5}, "Am"),
                               r.mapped(FLOAT, {5, 2}, "Bm"), r.prog);
  REQUIRE(rows.shape() == std::vector<std::size_t>{0, 2});
  Tensor cols = poplin::matMul(r.graph, r.mapped(HALF, {2, 5}, "An"),
                               r.mapped(HALF, {5, 0}, "Bn"), r.prog);
  REQUIRE(cols.shape() == std::vector<std::size_t>{2, 0});
  REQUIRE(cols.elementType() == HALF);
  Tensor none =
      poplin::matMulGrouped(r.graph, r.mapped(FLOAT, {0, 2, 3}, "Ag"),
                            r.mapped(FLOAT, {0, 3, 2}, "Bg"), r.prog, FLOAT);
  REQUIRE(none.shape() == std::vector<std::size_t>{0, 2, 2});
  // The create functions give the shapes asked for.
  REQUIRE(poplin::createMatMulInputLHS(r.graph, FLOAT, {0, 4}, {4, 3}, "L")
              .shape() == std::vector<std::size_t>{0, 4});
  REQUIRE(poplin::createMatMulInputRHS(r.graph, FLOAT, {2, 0}, {0, 3}, "R")
              .shape() == std::vector<std::size_t>{0, 3});
  Tensor out0 = poplin::createMatMulOutput(r.graph, FLOAT, {2, 0}, {0, 3}, "O");
  REQUIRE(out0.shape() == std::vector<std::size_t>{2, 3});

  for (auto [name, t] :
       {std::pair{"zeros", zeros}, {"given", given}, {"acc", acc}})
    r.graph.createHostRead(name, t);
  r.graph.createHostWrite("givenIn", given);
  r.graph.createHostWrite("accIn", acc);
  Engine e(r.graph, r.prog);
  e.load(r.device);
  const std::vector<float> before = iota(12, 0.5f);
  e.writeTensor("givenIn", before.data(), before.data() + before.size());
  e.writeTensor("accIn", before.data(), before.data() + before.size());
  e.run(0);
  std::vector<float> got(12);
  e.readTensor("zeros", got.data(), got.data() + got.size());
  REQUIRE(got == std::vector<float>(12, 0.0f));
  e.readTensor("given", got.data(), got.data() + got.size());
  REQUIRE(got == std::vector<float>(12, 0.0f));
  e.readTensor("acc", got.data(), got.data() + got.size());
  REQUIRE(got == before);
}

TEST_CASE("preArrangeMatMulInputRHS", "[poplin][matmul]") {
  Rig r;
  const std::size_t m = 6, k = 5, n = 7;
  Tensor A = r.mapped(FLOAT, {m, k}, "A");
  Tensor B = r.mapped(FLOAT, {k, n}, "B");
  // Without both options it is B itself, as in the original.
  Tensor same = poplin::preArrangeMatMulInputRHS(r.graph, {m, k}, B, r.prog);
  REQUIRE(same.getVarRegions() == B.getVarRegions());
  const OptionFlags bwd{{"fullyConnectedPass", "TRAINING_BWD"},
                        {"inputRHSIsPreArranged", "true"}};
  poplin::matmul::PlanningCache cache;
  Tensor arranged = poplin::preArrangeMatMulInputRHS(
      r.graph, {m, k}, B, r.prog, FLOAT, "arranged", bwd, &cache);
  REQUIRE(arranged.shape() == B.shape());
  REQUIRE(arranged.getVarRegions() != B.getVarRegions());
  // Laid out as createMatMulInputRHS lays out B for the same product.
  Tensor created = poplin::createMatMulInputRHS(r.graph, FLOAT, {m, k}, {k, n},
                                                "created", bwd, &cache);
  REQUIRE(r.graph.getTileMapping(arranged) == r.graph.getTileMapping(created));
  Tensor C = poplin::matMul(r.graph, A, arranged, r.prog, "C", bwd, &cache);
  Tensor Bg = r.mapped(FLOAT, {2, k, n}, "Bg");
  Tensor arrangedG = poplin::preArrangeMatMulGroupedInputRHS(
      r.graph, {2, m, k}, Bg, r.prog, FLOAT, "arrangedG", bwd);
  REQUIRE(arrangedG.shape() == Bg.shape());
  REQUIRE_THROWS_WITH(
      poplin::preArrangeMatMulInputRHS(r.graph, {m, k + 1}, B, r.prog),
      Contains("inner dimensions"));

  r.graph.createHostWrite("a", A);
  r.graph.createHostWrite("b", B);
  r.graph.createHostRead("c", C);
  Engine e(r.graph, r.prog);
  e.load(r.device);
  const auto a = iota(m * k, 0.5f), b = iota(k * n, 0.25f);
  e.writeTensor("a", a.data(), a.data() + a.size());
  e.writeTensor("b", b.data(), b.data() + b.size());
  e.run(0);
  std::vector<float> got(m * n);
  e.readTensor("c", got.data(), got.data() + got.size());
  for (std::size_t i = 0; i != m; ++i)
    for (std::size_t j = 0; j != n; ++j) {
      float want = 0;
      for (std::size_t l = 0; l != k; ++l)
        want += a[i * k + l] * b[l * n + j];
      REQUIRE(got[i * n + j] == want);
    }
}

TEST_CASE("preplanMatMuls fills the planning cache", "[poplin][matmul]") {
  Rig r;
  const Target &target = r.graph.getTarget();
  const OptionFlags opts{{"availableMemoryProportion", "0.5"}};
  const OptionFlags other{{"availableMemoryProportion", "0.4"}};
  std::set<poplin::MatMulPlanParams> params;
  params.emplace(&target, poplin::MatMulParams{FLOAT, FLOAT, {8, 4}, {4, 6}},
                 &opts);
  params.emplace(&target, poplin::MatMulParams{HALF, FLOAT, {8, 4}, {4, 6}},
                 &opts);
  params.emplace(&target,
                 poplin::MatMulParams{FLOAT, FLOAT, {2, 8, 4}, {2, 4, 6}},
                 &other);
  poplin::matmul::PlanningCache cache;
  poplin::preplanMatMuls(params, cache);
  REQUIRE(cache.size() == 3);
  // The products themselves find their plans there.
  poplin::createMatMulInputLHS(r.graph, FLOAT, {8, 4}, {4, 6}, "A", opts,
                               &cache);
  poplin::createMatMulGroupedInputRHS(r.graph, FLOAT, FLOAT, {2, 8, 4},
                                      {2, 4, 6}, "B", other, &cache);
  REQUIRE(cache.size() == 3);
  std::ostringstream plan;
  poplin::matMulGroupedReportPlan(plan, r.graph, FLOAT, FLOAT, {2, 8, 4},
                                  {2, 4, 6}, other, &cache);
  REQUIRE_THAT(plan.str(), Contains("2 x [8, 4] x [4, 6]"));
  // Bad parameters are reported as matMul reports them.
  const OptionFlags bad{{"enableFastReduce", "maybe"}};
  std::set<poplin::MatMulPlanParams> badParams;
  badParams.emplace(&target, poplin::MatMulParams{FLOAT, FLOAT, {8, 4}, {4, 6}},
                    &bad);
  REQUIRE_THROWS_WITH(poplin::preplanMatMuls(badParams, cache),
                      Contains("enableFastReduce"));
  std::set<poplin::MatMulPlanParams> badShape;
  badShape.emplace(&target, poplin::MatMulParams{FLOAT, FLOAT, {8, 4}, {5, 6}},
                   &opts);
  REQUIRE_THROWS_AS(poplin::preplanMatMuls(badShape, cache),
                    poputil::poplibs_error);
}

TEST_CASE("The original's matmul options", "[poplin][matmul]") {
  const OptionFlags all{{"availableMemoryProportion", "0.45"},
                        {"partialsType", "half"},
                        {"fullyConnectedPass", "TRAINING_WU"},
                        {"inputRHSIsPreArranged", "false"},
                        {"use128BitConvUnitLoad", "true"},
                        {"enableMultiStageReduce", "false"},
                        {"enableFastReduce", "true"},
                        {"remapOutputTensor", "false"},
                        {"gatherOutput", "true"},
                        {"disableSRForAMPVertices", "true"},
                        {"planConstraints", R"({"method": "AMP"})"}};
  REQUIRE_NOTHROW(poplin::matmulValidateOptions(all));
  for (const char *flag :
       {"inputRHSIsPreArranged", "use128BitConvUnitLoad",
        "enableMultiStageReduce", "enableFastReduce", "remapOutputTensor",
        "gatherOutput", "disableSRForAMPVertices"}) {
    INFO(flag);
    REQUIRE_THROWS_WITH(poplin::matmulValidateOptions({{flag, "yes"}}),
                        Contains(flag));
  }
  REQUIRE_THROWS_WITH(
      poplin::matmulValidateOptions({{"planConstraints", "{not json"}}),
      Contains("planConstraints"));
  REQUIRE_THROWS_WITH(
      poplin::matmulValidateOptions({{"planConstraints", "[1, 2]"}}),
      Contains("planConstraints"));
  REQUIRE_THROWS_WITH(
      poplin::matmulValidateOptions({{"availableMemoryProportion", "1.5"}}),
      Contains("availableMemoryProportion"));
  REQUIRE_THROWS_AS(poplin::matmulValidateOptions({{"noSuchOption", "1"}}),
                    poplar::invalid_option);
}
