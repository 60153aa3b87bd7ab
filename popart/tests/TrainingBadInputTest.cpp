// Bad input to PopART's training paths: losses (their labels, a loss of
// more than one value, an integer loss), optimiser hyper-parameters and
// keys, loss scaling, gradient accumulation settings, anchors of a
// TrainingSession, optimiser replacements and weights read or written
// through buffers of the wrong size or type. Each is a popart::error
// naming what is at fault; after the refused calls the session still
// trains, and its weights are those SGD gives on the host.
#include "ExpectError.hpp"

#include "SessionRun.hpp"

#include <popart/adam.hpp>
#include <popart/builder.hpp>
#include <popart/devicemanager.hpp>
#include <popart/error.hpp>
#include <popart/session.hpp>
#include <popart/sessionoptions.hpp>
#include <popart/sgd.hpp>
#include <popart/stepio.hpp>
#include <popart/tensornames.hpp>

#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

using namespace popart;

namespace {

using Floats = std::vector<float>;

void expectError(const std::string &what, const std::function<void()> &bad,
                 const std::vector<std::string> &names) {
  sdktest::expectError<popart::error>(what, bad, names);
}

std::shared_ptr<DeviceInfo> cpu() {
  return DeviceManager::createDeviceManager().createCpuDevice();
}

// loss = sum(x * w): the gradient of w is x.
struct Model {
  std::string proto;
  TensorId x, w, loss;
  Floats w0 = {1.0f, 2.0f, -1.0f};
};

Model model() {
  Model m;
  auto b = Builder::create();
  m.x = b->addInputTensor(TensorInfo(DataType::FLOAT, Shape{3}), "x");
  m.w = b->addInitializedInputTensor(
      ConstVoidData(m.w0.data(), TensorInfo(DataType::FLOAT, Shape{3})), "w");
  m.loss = b->aiGraphcoreOpset1().identityloss(
      {b->aiOnnxOpset13().mul({m.x, m.w})}, ReductionType::Sum);
  m.proto = b->getModelProto();
  return m;
}

Adam adam(const std::map<std::string, std::pair<float, bool>> &params) {
  return Adam(params, AdamMode::Adam, WeightDecayMode::Decay, DataType::FLOAT,
              DataType::FLOAT, DataType::FLOAT);
}

} // namespace

TEST_CASE("Bad optimiser hyper-parameters and keys are refused naming them",
          "[popart][errors]") {
  expectError("a negative learning rate",
              [] { SGD({{"defaultLearningRate", {-0.1f, true}}}); },
              {"learning rate", "-0.1"});
  expectError("a loss scaling of 0",
              [] { SGD({{"lossScaling", {0.0f, true}}}); }, {"loss scaling"});
  expectError("a dampening past 1",
              [] { SGD({{"defaultDampening", {1.5f, true}}}); },
              {"dampening", "1.5"});
  expectError("a velocity scaling of 0",
              [] { SGD({{"defaultVelocityScaling", {0.0f, true}}}); },
              {"velocity scaling"});
  expectError("a negative weight decay",
              [] { SGD({{"defaultWeightDecay", {-1.0f, true}}}); },
              {"weight decay"});
  expectError("a specific value under a key SGD does not have",
              [] {
                SGD sgd({{"defaultLearningRate", {0.1f, false}}});
                sgd.insertSpecific("w", {{"learningRat", {0.2f, false}}});
              },
              {"'learningRat'"});
  expectError("a specific negative momentum",
              [] {
                SGD sgd({{"defaultLearningRate", {0.1f, false}}});
                sgd.insertSpecific("w", {{"momentum", {-0.5f, true}}});
              },
              {"momentum"});
  expectError("an Adam beta1 of 1", [] { adam({{"defaultBeta1", {1.0f, true}}}); },
              {"beta1"});
  expectError("a negative Adam beta2",
              [] { adam({{"defaultBeta2", {-0.5f, true}}}); }, {"beta2"});
  expectError("a negative Adam eps", [] { adam({{"defaultEps", {-1e-8f, true}}}); },
              {"eps"});
  expectError("an Adam key that does not exist",
              [] { adam({{"defaultBeta3", {0.9f, true}}}); }, {"'defaultBeta3'"});
}

TEST_CASE("Bad training settings and anchors are refused at session "
          "creation naming them",
          "[popart][errors]") {
  const Model m = model();
  const DataFlow flow(1, {{m.loss, AnchorReturnType("All")}});
  const ConstSGD sgd(0.5f);
  auto create = [&](const DataFlow &f, const SessionOptions &opts) {
    TrainingSession::createFromOnnxModel(m.proto, f, m.loss, sgd, cpu(), {},
                                         opts);
  };
  {
    SessionOptions opts;
    opts.accumulationFactor = 4;
    expectError("an accumulation factor without gradient accumulation",
                [&] { create(flow, opts); },
                {"enableGradientAccumulation", "accumulationFactor"});
  }
  {
    SessionOptions opts;
    opts.enableGradientAccumulation = true;
    opts.accumulationFactor = 0;
    expectError("gradient accumulation over no micro-batches",
                [&] { create(flow, opts); }, {"accumulationFactor", "0"});
  }
  expectError("a loss the model does not have",
              [&] {
                TrainingSession::createFromOnnxModel(m.proto, flow, "noLoss",
                                                     sgd, cpu());
              },
              {"'noLoss'"});
  expectError("an anchor on the gradient of a tensor the model lacks",
              [&] {
                create(DataFlow(1, {{getGradId("ghost"), AnchorReturnType("All")}}),
                       {});
              },
              {"ghost"});
  expectError("an anchor returned every 0 batches",
              [&] { AnchorReturnType("EveryN", 0); }, {"return period", "0"});
  expectError("an anchor period that does not divide batchesPerStep",
              [&] {
                create(DataFlow(3, {{m.loss, AnchorReturnType("EveryN", 2)}}), {});
              },
              {m.loss, "2", "3"});
}

TEST_CASE("Bad losses are refused at session creation naming them",
          "[popart][errors]") {
  // A matmul of x [4, 3] and a weight, then the loss `makeLoss` builds.
  auto train = [](const std::function<TensorId(Builder &, const TensorId &)>
                      &makeLoss) {
    auto b = Builder::create();
    const TensorId x =
        b->addInputTensor(TensorInfo(DataType::FLOAT, Shape{4, 3}), "x");
    const Floats w0(9, 0.5f);
    const TensorId w = b->addInitializedInputTensor(
        ConstVoidData(w0.data(), TensorInfo(DataType::FLOAT, Shape{3, 3})), "w");
    const TensorId h = b->aiOnnxOpset13().matmul({x, w});
    const TensorId loss = makeLoss(*b, h);
    TrainingSession::createFromOnnxModel(
        b->getModelProto(), DataFlow(1, {{loss, AnchorReturnType("All")}}),
        loss, ConstSGD(0.1f), cpu());
  };
  auto probabilities = [](Builder &b, const TensorId &h) {
    return b.aiOnnxOpset13().softmax({h}, 1);
  };
  expectError("NLL labels of a floating-point type",
              [&] {
                train([&](Builder &b, const TensorId &h) {
                  const TensorId labels = b.addInputTensor(
                      TensorInfo(DataType::FLOAT, Shape{4}), "floatLabels");
                  return b.aiGraphcoreOpset1().nllloss(
                      {probabilities(b, h), labels}, ReductionType::Mean, {},
                      false, "badNll");
                });
              },
              {"badNll", "'floatLabels'", "integers"});
  expectError("NLL labels of another batch size",
              [&] {
                train([&](Builder &b, const TensorId &h) {
                  const TensorId labels = b.addInputTensor(
                      TensorInfo(DataType::INT32, Shape{5}), "fiveLabels");
                  return b.aiGraphcoreOpset1().nllloss(
                      {probabilities(b, h), labels}, ReductionType::Mean, {},
                      false, "badNll");
                });
              },
              {"badNll", "'fiveLabels'", "shape"});
  expectError("a loss of one value per sample (no reduction)",
              [&] {
                train([](Builder &b, const TensorId &h) {
                  return b.aiGraphcoreOpset1().l1loss(
                      {h}, 0.1f, ReductionType::NoReduction, "perSampleL1");
                });
              },
              {"perSampleL1", "must be a scalar"});
  expectError("an integer loss",
              [&] {
                train([](Builder &b, const TensorId &h) {
                  const TensorId ints = b.aiOnnxOpset13().cast({h}, "INT32");
                  return b.aiOnnxOpset13().reducesum({ints}, 0, 0, "intLoss");
                });
              },
              {"intLoss", "FLOAT"});
}

TEST_CASE("Bad weight reads, writes and optimiser replacements are refused "
          "naming them, and the session trains on",
          "[popart][errors]") {
  const Model m = model();
  auto session = TrainingSession::createFromOnnxModel(
      m.proto, DataFlow(1, {{m.loss, AnchorReturnType("All")}}), m.loss,
      SGD({{"defaultLearningRate", {0.5f, false}}}), cpu());
  session->prepareDevice();
  session->weightsFromHost();

  // Names the session does not have are skipped by readWeights and
  // writeWeights, as the original's are; the buffers of its weights are
  // checked.
  Floats small(2);
  std::vector<int> ints(3);
  expectError("a weight written from a buffer of the wrong size",
              [&] {
                WeightsIO io;
                io.insert(m.w, {small.data(),
                                TensorInfo(DataType::FLOAT, Shape{2})});
                session->writeWeights(io);
              },
              {"writeWeights", "'w'", "2"});
  expectError("a weight read into a buffer of integers",
              [&] {
                WeightsIO io;
                io.insert(m.w, {ints.data(),
                                TensorInfo(DataType::INT32, Shape{3})});
                session->readWeights(io);
              },
              {"readWeights", "'w'"});
  expectError("an Adam replacing the compiled SGD",
              [&] {
                const Adam other = adam({{"defaultLearningRate", {0.1f, false}}});
                session->updateOptimizerFromHost(&other);
              },
              {"SGD"});
  expectError("a learning rate made constant in the replacement",
              [&] {
                const SGD other({{"defaultLearningRate", {0.1f, true}}});
                session->updateOptimizerFromHost(&other);
              },
              {"learning"});

  // The session after the errors: a replacement it accepts, a step, and the
  // weights SGD gives: w - lr x.
  const SGD slower({{"defaultLearningRate", {0.25f, false}}});
  session->updateOptimizerFromHost(&slower);
  const Floats x = {1.0f, -2.0f, 4.0f};
  const auto out = popart_test::runStep(*session, {{m.x, x}}, {{m.loss, 1}});
  CHECK(out.at(m.loss)[0] == Approx(1.0f * 1.0f + 2.0f * -2.0f + -1.0f * 4.0f));
  session->weightsToHost();
  const Floats w = popart_test::readWeight(*session, m.w);
  REQUIRE(w.size() == 3);
  for (std::size_t i = 0; i != 3; ++i)
    CHECK(w[i] == Approx(m.w0[i] - 0.25f * x[i]));
}
