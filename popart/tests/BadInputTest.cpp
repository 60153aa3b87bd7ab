// Bad input to PopART's public functions (the Builder, SessionOptions,
// DataFlow, InferenceSession creation and runs): each is a popart::error
// with a message naming what is at fault, and the builder or session is
// still usable afterwards: the model built after the errors, and the
// session after a run refused, give the values a host loop gives.
#include "ExpectError.hpp"

#include "SessionRun.hpp"

#include <popart/builder.hpp>
#include <popart/devicemanager.hpp>
#include <popart/error.hpp>
#include <popart/session.hpp>
#include <popart/sessionoptions.hpp>
#include <poplar/exceptions.hpp>

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

using namespace popart;

namespace {

using Floats = std::vector<float>;

// Bad input to PopART throws popart::error unless a case says otherwise.
template <class E = popart::error>
void expectError(const std::string &what, const std::function<void()> &bad,
                 const std::vector<std::string> &names) {
  sdktest::expectError<E>(what, bad, names);
}

std::shared_ptr<DeviceInfo> cpu() {
  return DeviceManager::createDeviceManager().createCpuDevice();
}

const Floats x0 = {0.5f, -1.0f, 2.0f, 1.5f, 0.25f, -0.75f};
const Floats w0 = {1, -2, 0.5f, 3, -1, 0, 2, 1, 0.25f, -0.5f, 1, -3};

// relu(x W) on the host, x [2,3], W [3,4].
Floats expected() {
  Floats y(8);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 4; ++c) {
      float s = 0;
      for (int k = 0; k < 3; ++k)
        s += x0[r * 3 + k] * w0[k * 4 + c];
      y[r * 4 + c] = s > 0 ? s : 0;
    }
  return y;
}

} // namespace

TEST_CASE("Bad builder calls are refused naming the culprit, and the builder "
          "stays usable",
          "[popart][errors]") {
  auto builder = Builder::create();
  auto o = builder->aiOnnxOpset13();
  expectError("a type that does not exist",
              [&] { builder->addInputTensor(TensorInfo("FLOAT33", Shape{2})); },
              {"FLOAT33"});
  expectError("a negative dimension",
              [&] {
                builder->addInputTensor(TensorInfo(DataType::FLOAT, Shape{2, -3}),
                                        "negative");
              },
              {"-3"});
  TensorId x =
      builder->addInputTensor(TensorInfo(DataType::FLOAT, Shape{2, 3}), "x");
  expectError("an input the builder does not have",
              [&] { o.matmul({x, "ghost"}, "usesGhost"); }, {"ghost"});
  expectError("an output the builder does not have",
              [&] { builder->addOutputTensor("missing"); }, {"missing"});
  expectError("the shape of a tensor the builder does not have",
              [&] { builder->getTensorShape("nowhere"); }, {"nowhere"});
  expectError("a model that is not a model",
              [&] { Builder::createFromOnnxModel("not a model at all"); },
              {"model"});

  TensorId w = builder->addInitializedInputTensor(
      ConstVoidData(w0.data(), TensorInfo(DataType::FLOAT, Shape{3, 4})), "w");
  TensorId y = o.relu({o.matmul({x, w})});
  builder->addOutputTensor(y);
  auto session = InferenceSession::createFromOnnxModel(
      builder->getModelProto(), DataFlow(1, {{y, AnchorReturnType("All")}}),
      cpu());
  session->prepareDevice();
  CHECK(popart_test::runStep(*session, {{x, x0}}, {{y, 8}})[y] == expected());
}

TEST_CASE("Bad models, options and data flows are refused at session "
          "creation naming the culprit",
          "[popart][errors]") {
  auto builder = Builder::create();
  auto o = builder->aiOnnxOpset13();
  TensorId x =
      builder->addInputTensor(TensorInfo(DataType::FLOAT, Shape{2, 3}), "x");
  TensorId v =
      builder->addInputTensor(TensorInfo(DataType::FLOAT, Shape{4, 5}), "v");
  TensorId bad = o.matmul({x, v}, "mismatched");
  const std::string badProto = builder->getModelProto();
  expectError("a product of mismatched shapes",
              [&] {
                InferenceSession::createFromOnnxModel(
                    badProto, DataFlow(1, {{bad, AnchorReturnType("All")}}),
                    cpu());
              },
              {"mismatched"});
  expectError("a model file that does not exist",
              [&] {
                InferenceSession::createFromOnnxModel(
                    "/nonexistent/dir/model.onnx",
                    DataFlow(1, {{bad, AnchorReturnType("All")}}), cpu());
              },
              {"/nonexistent/dir/model.onnx"});

  auto good = Builder::create();
  TensorId gx = good->addInputTensor(TensorInfo(DataType::FLOAT, Shape{2, 3}), "x");
  TensorId gw = good->addInitializedInputTensor(
      ConstVoidData(w0.data(), TensorInfo(DataType::FLOAT, Shape{3, 4})), "w");
  TensorId gy = good->aiOnnxOpset13().relu({good->aiOnnxOpset13().matmul({gx, gw})});
  const std::string proto = good->getModelProto();
  const DataFlow flow(1, {{gy, AnchorReturnType("All")}});
  expectError("an anchor return type that does not exist",
              [&] { AnchorReturnType("Sometimes"); }, {"Sometimes"});
  expectError("an anchor the model does not have",
              [&] {
                InferenceSession::createFromOnnxModel(
                    proto, DataFlow(1, {{"nope", AnchorReturnType("All")}}),
                    cpu());
              },
              {"nope"});
  expectError("a data flow of no batches",
              [&] { InferenceSession::createFromOnnxModel(proto, DataFlow(0, {{gy, AnchorReturnType("All")}}), cpu()); },
              {"batchesPerStep"});
  {
    SessionOptions opts;
    opts.enableReplicatedGraphs = true;
    opts.replicatedGraphCount = 0;
    expectError("a replication factor of 0",
                [&] {
                  InferenceSession::createFromOnnxModel(proto, flow, cpu(), {},
                                                        opts);
                },
                {"replicatedGraphCount"});
  }
  {
    SessionOptions opts;
    opts.engineOptions["no.such.option"] = "1";
    // Poplar's own exception, which PopART passes on as the original does.
    expectError<poplar::invalid_option>("an engine option that does not exist",
                [&] {
                  InferenceSession::createFromOnnxModel(proto, flow, cpu(), {},
                                                        opts)
                      ->prepareDevice();
                },
                {"no.such.option"});
  }

  // A session made afterwards from the same pieces works.
  auto session = InferenceSession::createFromOnnxModel(proto, flow, cpu());
  session->prepareDevice();
  CHECK(popart_test::runStep(*session, {{gx, x0}}, {{gy, 8}})[gy] == expected());
}

TEST_CASE("Bad runs are refused naming the tensor, and the session runs "
          "again",
          "[popart][errors]") {
  auto builder = Builder::create();
  TensorId x =
      builder->addInputTensor(TensorInfo(DataType::FLOAT, Shape{2, 3}), "x");
  TensorId w = builder->addInitializedInputTensor(
      ConstVoidData(w0.data(), TensorInfo(DataType::FLOAT, Shape{3, 4})), "w");
  TensorId y =
      builder->aiOnnxOpset13().relu({builder->aiOnnxOpset13().matmul({x, w})});
  auto session = InferenceSession::createFromOnnxModel(
      builder->getModelProto(), DataFlow(1, {{y, AnchorReturnType("All")}}),
      cpu());
  expectError("a run before prepareDevice",
              [&] { popart_test::runStep(*session, {{x, x0}}, {{y, 8}}); }, {});
  session->prepareDevice();
  expectError("an input of the wrong size",
              [&] {
                popart_test::runStep(*session, {{x, Floats(5, 1.0f)}}, {{y, 8}});
              },
              {x});
  expectError("an input missing",
              [&] { popart_test::runStep(*session, {}, {{y, 8}}); }, {x});
  expectError("an anchor buffer of the wrong size",
              [&] { popart_test::runStep(*session, {{x, x0}}, {{y, 3}}); }, {y});
  CHECK(popart_test::runStep(*session, {{x, x0}}, {{y, 8}})[y] == expected());
}
