// STRING tensors through the C++ API on the device under test
// (SDK_TEST_DEVICE): std::string arrays in a StepIO, Cast to and from
// STRING around device compute over a step of several batches,
// StringNormalizer's value-dependent shape, STRING constants, and the
// errors of STRING data where it cannot go.
#include "PopartTestDevice.hpp"

#include <popart/builder.hpp>
#include <popart/error.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/stepio.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace popart;

namespace {

std::unique_ptr<InferenceSession> sessionOf(Builder &builder,
                                            const DataFlow &flow) {
  auto session = InferenceSession::createFromOnnxModel(
      builder.getModelProto(), flow, popart_test::createTestDevice());
  session->prepareDevice();
  return session;
}

} // namespace

TEST_CASE("Strings are cast to numbers, computed on, and cast back") {
  auto builder = Builder::create();
  auto onnx = builder->aiOnnxOpset13();
  const TensorId x =
      builder->addInputTensor(TensorInfo(DataType::STRING, Shape{4}), "x");
  const TensorId numbers = onnx.cast({x}, "FLOAT");
  const TensorId twice = onnx.add({numbers, numbers});
  const TensorId text = onnx.cast({twice}, "STRING");
  builder->addOutputTensor(text);
  // Two batches a step: the host casts each batch's strings before the step
  // and each result after it.
  auto session = sessionOf(*builder, DataFlow(2, {{text, AnchorReturnType("ALL")},
                                                 {twice, AnchorReturnType("ALL")}}));
  CHECK(session->getInfo(x) == TensorInfo(DataType::STRING, Shape{4}));
  CHECK(session->getInfo(text) == TensorInfo(DataType::STRING, Shape{4}));

  std::vector<std::string> given = {"1.5", "-2", "1e2", "0.25",
                                    "+3", "INF", "-0.125", "1E-1"};
  std::vector<std::string> out(8);
  std::vector<float> sums(8);
  NDArrayWrapper<std::string> in(given.data(), Shape{2, 4});
  NDArrayWrapper<std::string> result(out.data(), Shape{2, 4});
  NDArrayWrapper<float> sumArray(sums.data(), Shape{2, 4});
  StepIO stepio({{x, in}}, {{text, result}, {twice, sumArray}});
  session->run(stepio);

  const std::vector<float> expected = {3.0f, -4.0f, 200.0f, 0.5f,
                                       6.0f, INFINITY, -0.25f, 2 * 0.1f};
  CHECK(sums == expected);
  CHECK(out == std::vector<std::string>{"3", "-4", "200", "0.5", "6", "INF",
                                        "-0.25", "0.2"});
}

TEST_CASE("StringNormalizer's output takes the shape of its value") {
  auto builder = Builder::create();
  const TensorId words =
      builder->addInputTensor(TensorInfo(DataType::STRING, Shape{1, 4}), "w");
  const TensorId kept = builder->aiOnnxOpset13().stringnormalizer(
      {words}, "UPPER", 0, nonstd::nullopt, {"monday"});
  builder->addOutputTensor(kept);
  auto session = sessionOf(*builder, DataFlow(1, {kept}));
  // Before a run: the largest the output can be.
  REQUIRE(session->getInfo(kept).shape() == Shape{1, 4});

  std::vector<std::string> given = {"Monday", "tuesday", "MONDAY", "Friday"};
  std::vector<std::string> out(4);
  NDArrayWrapper<std::string> in(given.data(), Shape{1, 4});
  NDArrayWrapper<std::string> result(out.data(), Shape{1, 4});
  StepIO stepio({{words, in}}, {{kept, result}});
  session->run(stepio);
  CHECK(session->getInfo(kept).shape() == Shape{1, 2});
  CHECK(out[0] == "TUESDAY");
  CHECK(out[1] == "FRIDAY");

  // Everything removed: one empty string, [1, 1] for a [1, C] input.
  given = {"monday", "MONDAY", "Monday", "monDay"};
  StepIO again({{words, in}}, {{kept, result}});
  session->run(again);
  CHECK(session->getInfo(kept).shape() == Shape{1, 1});
  CHECK(out[0].empty());
}

TEST_CASE("A STRING constant cast to numbers is folded") {
  auto builder = Builder::create();
  std::vector<std::string> digits = {"1", "2.5", "-4"};
  const TensorId table = builder->addInitializedInputTensor(
      ConstVoidData(digits.data(), TensorInfo(DataType::STRING, Shape{3})));
  const TensorId x =
      builder->addInputTensor(TensorInfo(DataType::FLOAT, Shape{3}), "x");
  const TensorId product =
      builder->aiOnnxOpset13().mul({x, builder->aiOnnxOpset13().cast({table}, "FLOAT")});
  builder->addOutputTensor(product);
  auto session = sessionOf(*builder, DataFlow(1, {product}));
  std::vector<float> given = {2, 4, 8}, out(3);
  NDArrayWrapper<float> in(given.data(), Shape{3}), result(out.data(), Shape{3});
  StepIO stepio({{x, in}}, {{product, result}});
  session->run(stepio);
  CHECK(out == std::vector<float>{2, 10, -32});
}

TEST_CASE("STRING data where it cannot go is an error naming it") {
  SECTION("a STRING tensor read by a device op") {
    auto builder = Builder::create();
    const TensorId x =
        builder->addInputTensor(TensorInfo(DataType::STRING, Shape{2}), "words");
    const TensorId y = builder->aiOnnxOpset13().identity({x}, "copy");
    builder->addOutputTensor(y);
    CHECK_THROWS_WITH(sessionOf(*builder, DataFlow(1, {y})),
                      Catch::Contains("Tensor '" + x + "' of type STRING") &&
                          Catch::Contains("Identity"));
  }
  SECTION("numbers given for a STRING input") {
    auto builder = Builder::create();
    const TensorId x =
        builder->addInputTensor(TensorInfo(DataType::STRING, Shape{2}), "text");
    const TensorId y = builder->aiOnnxOpset13().cast({x}, "FLOAT");
    builder->addOutputTensor(y);
    auto session = sessionOf(*builder, DataFlow(1, {y}));
    std::vector<float> given = {1, 2}, out(2);
    NDArrayWrapper<float> in(given.data(), Shape{2}), result(out.data(), Shape{2});
    StepIO stepio({{x, in}}, {{y, result}});
    CHECK_THROWS_WITH(session->run(stepio),
                      Catch::Contains("Input '" + x + "' is a STRING tensor"));
  }
  SECTION("a string that is not a number") {
    auto builder = Builder::create();
    const TensorId x =
        builder->addInputTensor(TensorInfo(DataType::STRING, Shape{2}), "text");
    const TensorId y = builder->aiOnnxOpset13().cast({x}, "INT32");
    builder->addOutputTensor(y);
    auto session = sessionOf(*builder, DataFlow(1, {y}));
    std::vector<std::string> given = {"12", "twelve"};
    std::vector<int32_t> out(2);
    NDArrayWrapper<std::string> in(given.data(), Shape{2});
    NDArrayWrapper<int32_t> result(out.data(), Shape{2});
    StepIO stepio({{x, in}}, {{y, result}});
    CHECK_THROWS_WITH(session->run(stepio),
                      Catch::Contains("element 1 (\"twelve\") is not a number"));
  }
  SECTION("an unknown locale") {
    auto builder = Builder::create();
    const TensorId x =
        builder->addInputTensor(TensorInfo(DataType::STRING, Shape{2}));
    const TensorId y = builder->aiOnnxOpset13().stringnormalizer(
        {x}, "LOWER", 0, std::string("nowhere_XX"));
    builder->addOutputTensor(y);
    CHECK_THROWS_WITH(sessionOf(*builder, DataFlow(1, {y})),
                      Catch::Contains("locale 'nowhere_XX' is not available"));
  }
}
