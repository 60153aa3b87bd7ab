// fc::getMatMulPrePlanParameters: the products of a layer's passes, which
// preplanMatMuls plans and matMulGrouped then runs with the same options.
#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplin/FullyConnected.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <set>

using namespace poplar;
using Catch::Matchers::Contains;
using Shape = std::vector<std::size_t>;

TEST_CASE("The passes of a fully connected layer", "[poplin][fc]") {
  const poplin::fc::FullyConnectedParams layer{2, 8, 5, 3};
  const poplar::OptionFlags user{{"availableMemoryProportion", "0.3"}};
  auto training =
      poplin::fc::getMatMulPrePlanParameters(layer, user, FLOAT, false);
  REQUIRE(training.size() == 3);
  CHECK(training[0].first.aShape == Shape{2, 8, 5});
  CHECK(training[0].first.bShape == Shape{2, 5, 3});
  CHECK(training[0].second.at("fullyConnectedPass") == "TRAINING_FWD");
  CHECK(training[1].first.aShape == Shape{2, 8, 3});
  CHECK(training[1].first.bShape == Shape{2, 3, 5});
  CHECK(training[1].second.at("fullyConnectedPass") == "TRAINING_BWD");
  CHECK(training[2].first.aShape == Shape{2, 5, 8});
  CHECK(training[2].first.bShape == Shape{2, 8, 3});
  CHECK(training[2].second.at("fullyConnectedPass") == "TRAINING_WU");
  for (const auto &p : training) {
    CHECK(p.first.inputType == FLOAT);
    CHECK(p.second.at("availableMemoryProportion") == "0.3");
  }
  auto inference =
      poplin::fc::getMatMulPrePlanParameters(layer, user, HALF, true);
  REQUIRE(inference.size() == 1);
  CHECK(inference[0].second.at("fullyConnectedPass") == "INFERENCE_FWD");
  CHECK(inference[0].first.outputType == HALF);

  // The options are ones matMul accepts: plan them, then run the forward
  // pass with them.
  Device device = sdktest::createTestDevice(4);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  poplin::matmul::PlanningCache cache;
  std::set<poplin::MatMulPlanParams> plans;
  for (const auto &p : training)
    plans.emplace(&graph.getTarget(), p.first, &p.second);
  poplin::preplanMatMuls(plans, cache);
  program::Sequence prog;
  Tensor a = poplin::createMatMulGroupedInputLHS(graph, FLOAT, FLOAT, {2, 8, 5},
                                                 {2, 5, 3}, "a",
                                                 training[0].second, &cache);
  Tensor b = poplin::createMatMulGroupedInputRHS(graph, FLOAT, FLOAT, {2, 8, 5},
                                                 {2, 5, 3}, "b",
                                                 training[0].second, &cache);
  Tensor c = poplin::matMulGrouped(graph, a, b, prog, FLOAT, "c",
                                   training[0].second, &cache);
  CHECK(c.shape() == Shape{2, 8, 3});
  Engine engine(graph, prog);
}

TEST_CASE("A layer with a size of zero is an error", "[poplin][fc]") {
  CHECK_THROWS_WITH(poplin::fc::getMatMulPrePlanParameters({1, 4, 0, 2}, {},
                                                           FLOAT, true),
                    Contains("inputSize"));
}
