// spatialSoftMax2D against host loops: one softmax over all the fields'
// elements divided by the temperature, then each field's expected (y, x)
// on coordinates spaced evenly over [-1, 1].
#include "TestRig.hpp"

#include <popnn/SpatialSoftMax.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace poplar;
using Catch::Matchers::Contains;

namespace {

const std::size_t F = 3, H = 4, W = 5;

std::vector<float> expectedCoordinates(const std::vector<float> &fields,
                                       float temperature, bool softmax) {
  std::vector<double> p(fields.begin(), fields.end());
  if (softmax) {
    double maxValue = -1e30, sum = 0;
    for (double &v : p)
      maxValue = std::max(maxValue, v / temperature);
    for (double &v : p)
      sum += (v = std::exp(v / temperature - maxValue));
    for (double &v : p)
      v /= sum;
  }
  std::vector<float> out(F * 2, 0.0f);
  for (std::size_t f = 0; f != F; ++f)
    for (std::size_t i = 0; i != H; ++i)
      for (std::size_t j = 0; j != W; ++j) {
        const double pr = p[(f * H + i) * W + j];
        out[f * 2] += pr * (-1.0 + 2.0 * i / (H - 1));
        out[f * 2 + 1] += pr * (-1.0 + 2.0 * j / (W - 1));
      }
  return out;
}

} // namespace

TEST_CASE("spatialSoftMax2D", "[popnn][spatialsoftmax]") {
  std::vector<float> fields(F * H * W);
  for (std::size_t k = 0; k != fields.size(); ++k)
    fields[k] = std::sin(0.7 * k) + 0.1 * (k % 7);
  for (const bool softmax : {true, false}) {
    INFO("softmax " << softmax);
    std::vector<float> in = fields;
    if (!softmax) // probabilities: positive, summing to one
      for (float &v : in)
        v = (v + 2.0f) / (2.5f * in.size());
    popnntest::Rig rig;
    Tensor t = rig.input(FLOAT, {F, H, W}, "fields", in);
    auto result = popnn::spatialSoftMax2D(rig.graph, rig.prog, t, 0.5f,
                                          !softmax, "ssm");
    REQUIRE(result.first.shape() == std::vector<std::size_t>{F, 2});
    REQUIRE(result.second.rank() == 0);
    rig.output(result.first, "coordinates");
    rig.output(result.second, "temperature");
    auto got = rig.run();
    const auto want = expectedCoordinates(in, 0.5f, softmax);
    for (std::size_t k = 0; k != want.size(); ++k)
      CHECK(got["coordinates"][k] == Approx(want[k]).margin(1e-5));
    CHECK(got["temperature"][0] == 0.5f);
  }
}

TEST_CASE("spatialSoftMax2D rejects fields that are not [F, H, W] of FLOAT "
          "or HALF",
          "[popnn][spatialsoftmax]") {
  popnntest::Rig rig;
  Tensor flat = rig.graph.addVariable(FLOAT, {4, 4}, "flat");
  CHECK_THROWS_WITH(
      popnn::spatialSoftMax2D(rig.graph, rig.prog, flat, 1.0f, false, "flat"),
      Contains("flat") && Contains("rank 3"));
  Tensor ints = rig.graph.addVariable(INT, {1, 2, 2}, "ints");
  CHECK_THROWS_AS(
      popnn::spatialSoftMax2D(rig.graph, rig.prog, ints, 1.0f, false, "ints"),
      poputil::poplibs_error);
}
