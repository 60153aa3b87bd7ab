// Recomputation on the IPU Model: a network of several layers trained with
// and without autoRecomputation gives the same weights bit for bit, and
// the most bytes live at once that are not always live (the liveness
// report of the graph profile) are fewer when activations are recomputed
// in the backward pass rather than kept from the forward pass.
#include "PopartTestDevice.hpp"

#include <popart/builder.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/sgd.hpp>
#include <popart/stepio.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iostream>
#include <map>
#include <string>
#include <vector>

using namespace popart;

namespace {

using Floats = std::vector<float>;

constexpr int64_t batch = 64, width = 32, classes = 8, layers = 6;

struct Trained {
  std::map<TensorId, Floats> weights;
  float loss = 0;
  /// From the graph report's liveness: the most bytes live in one step
  /// that are not always live, and the bytes that are.
  std::uint64_t peakNotAlwaysLive = 0, alwaysLive = 0;
  /// From the summary (showVarStorage): its "Maximum live bytes".
  std::uint64_t summaryMaximum = 0;
};

Floats initial(int64_t n, int seed) {
  Floats v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[i] = 0.3f * std::sin(0.37f * float(i) + float(seed));
  return v;
}

// `layers` fully connected layers of `width` with sigmoids (whose
// gradients read their outputs), then a classifier and NllLoss, trained by
// SGD for three steps.
Trained train(RecomputationType policy) {
  auto b = Builder::create();
  auto o = b->aiOnnxOpset11();
  auto x = b->addInputTensor(TensorInfo(DataType::FLOAT, Shape{batch, width}), "x");
  auto label = b->addInputTensor(TensorInfo(DataType::INT32, Shape{batch}), "label");
  std::vector<TensorId> weights;
  std::vector<Floats> inits;
  auto weight = [&](Shape shape, const std::string &name) {
    inits.push_back(initial(shape[0] * shape[1], int(inits.size())));
    weights.push_back(b->addInitializedInputTensor(
        ConstVoidData(inits.back().data(), TensorInfo(DataType::FLOAT, shape)), name));
    return weights.back();
  };
  TensorId h = x;
  for (int l = 0; l < layers; ++l) {
    h = o.sigmoid({o.matmul({h, weight({width, width}, "w" + std::to_string(l))})});
    // RecomputeAll recomputes from checkpoints: every other layer's output.
    if (policy == RecomputationType::RecomputeAll && l % 2 == 1)
      h = b->checkpointOutput({h}).at(0);
  }
  auto probs = o.softmax({o.matmul({h, weight({width, classes}, "classifier")})}, 1);
  auto loss = b->aiGraphcoreOpset1().nllloss({probs, label});
  SessionOptions opts;
  opts.autoRecomputation = policy;
  opts.reportOptions = {{"showVarStorage", "true"}};
  auto s = TrainingSession::createFromOnnxModel(
      b->getModelProto(), DataFlow(1, {{loss, AnchorReturnType("All")}}), loss,
      SGD({{"defaultLearningRate", {0.5f, true}}}), popart_test::createTestDevice(), {},
      opts);
  s->prepareDevice();
  s->weightsFromHost();
  Trained t;
  std::vector<int> labels(batch);
  for (int k = 0; k < 3; ++k) {
    Floats xs(batch * width);
    for (std::size_t i = 0; i < xs.size(); ++i)
      xs[i] = std::cos(0.11f * float(i * (k + 1)));
    for (int64_t i = 0; i < batch; ++i)
      labels[i] = int((i + k) % classes);
    NDArrayWrapper<float> xa(xs.data(), Shape{batch, width});
    NDArrayWrapper<int> la(labels.data(), Shape{batch});
    NDArrayWrapper<float> lossa(&t.loss, Shape{1});
    std::map<TensorId, IArray &> ins = {{x, xa}, {label, la}};
    std::map<TensorId, IArray &> outs = {{loss, lossa}};
    StepIO io(ins, outs);
    s->run(io);
  }
  s->weightsToHost();
  WeightsIO io;
  for (const auto &id : weights)
    t.weights[id].resize(static_cast<std::size_t>(s->getInfo(id).nelms()));
  for (auto &w : t.weights)
    io.insert(w.first, {w.second.data(), s->getInfo(w.first)});
  s->readWeights(io);

  const auto report = nlohmann::json::parse(s->getGraphReport());
  const auto &liveness = report["memory"]["liveness"];
  for (const auto &step : liveness["steps"])
    t.peakNotAlwaysLive =
        std::max(t.peakNotAlwaysLive, step["liveBytes"].get<std::uint64_t>());
  for (const auto &entry : liveness["alwaysLive"].items())
    t.alwaysLive += entry.value().get<std::uint64_t>();
  // The summary (with showVarStorage, SessionOptions::reportOptions) says
  // the same: its maximum is the always-live bytes and the peak.
  const std::string summary = s->getSummaryReport();
  const std::string line = "Maximum live bytes (including always-live): ";
  const auto at = summary.find(line);
  if (at != std::string::npos) {
    std::string digits;
    for (auto c = summary.begin() + long(at + line.size()); c != summary.end() && *c != '\n'; ++c)
      if (std::isdigit(static_cast<unsigned char>(*c)))
        digits += *c;
    t.summaryMaximum = std::stoull(digits);
  }
  return t;
}

} // namespace

TEST_CASE("Recomputation gives the same numbers with less live memory",
          "[popart][training][recompute]") {
  const Trained plain = train(RecomputationType::None);
  REQUIRE(plain.peakNotAlwaysLive > 0);
  CHECK(plain.summaryMaximum == plain.alwaysLive + plain.peakNotAlwaysLive);
  for (auto policy : {RecomputationType::Standard, RecomputationType::RecomputeAll}) {
    INFO("policy " << int(policy));
    const Trained run = train(policy);
    for (const auto &w : plain.weights)
      REQUIRE(run.weights.at(w.first) == w.second);
    REQUIRE(run.loss == plain.loss);
    std::cout << "autoRecomputation " << int(policy) << ": peak not-always-live "
              << run.peakNotAlwaysLive << " bytes, without recomputation "
              << plain.peakNotAlwaysLive << "; always live " << run.alwaysLive
              << " and " << plain.alwaysLive << '\n';
    CHECK(run.summaryMaximum == run.alwaysLive + run.peakNotAlwaysLive);
    // The activations of the forward pass no longer all wait for the
    // backward pass: at least a tenth less is live at the peak.
    CHECK(run.peakNotAlwaysLive * 10 < plain.peakNotAlwaysLive * 9);
  }
}
