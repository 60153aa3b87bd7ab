// Replicated graphs in one process (SessionOptions::replicatedGraphCount)
// on the device under test: 4 replicas, and 2 replicas of 2 accumulated
// micro-batches, train a linear model as a host loop trains it on the
// whole batch (and as one replica of the whole batch does); each replica's
// anchors are its part of the data; the errors of a device too small and
// of data without the replica dimension.
#include "PopartTestDevice.hpp"
#include "SessionRun.hpp"

#include <popart/builder.hpp>
#include <popart/error.hpp>
#include <popart/session.hpp>
#include <popart/sgd.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace popart;

namespace {

using Floats = std::vector<float>;
constexpr int64_t In = 3, Out = 2, MicroBatch = 2;
constexpr int Steps = 10;
constexpr double LearningRate = 0.05, Momentum = 0.9;

// y = x W, loss = mean((y - t)^2) over the micro-batch's elements.
struct Model {
  std::string proto;
  TensorId x, t, w, y, loss;
};

Floats initialWeights() { return {0.5f, -0.3f, 0.2f, 0.8f, -0.6f, 0.1f}; }

Model model(int64_t batch) {
  Model m;
  auto b = Builder::create();
  auto o = b->aiOnnxOpset13();
  m.x = b->addInputTensor(TensorInfo(DataType::FLOAT, Shape{batch, In}), "x");
  m.t = b->addInputTensor(TensorInfo(DataType::FLOAT, Shape{batch, Out}), "t");
  const Floats w0 = initialWeights();
  m.w = b->addInitializedInputTensor(
      ConstVoidData(w0.data(), TensorInfo(DataType::FLOAT, Shape{In, Out})),
      "w");
  m.y = o.matmul({m.x, m.w});
  const TensorId d = o.sub({m.y, m.t});
  m.loss = b->aiGraphcoreOpset1().identityloss({o.mul({d, d})},
                                               ReductionType::Mean);
  m.proto = b->getModelProto();
  return m;
}

// Each step's samples: inputs and targets, `n` samples of each.
struct Data {
  Floats x, t;
};
Data stepData(int step, int64_t n) {
  std::mt19937 rng(1000u + static_cast<unsigned>(step));
  std::normal_distribution<float> normal;
  Data d;
  for (int64_t i = 0; i < n * In; ++i)
    d.x.push_back(normal(rng));
  for (int64_t i = 0; i < n * Out; ++i)
    d.t.push_back(normal(rng));
  return d;
}

// The host's SGD with momentum on the mean loss of all `n` samples of
// each step (double precision): the weights after `Steps` steps.
std::vector<double> hostTraining(int64_t n) {
  const Floats w0 = initialWeights();
  std::vector<double> w(w0.begin(), w0.end());
  std::vector<double> v(w.size(), 0.0);
  for (int step = 0; step < Steps; ++step) {
    const Data d = stepData(step, n);
    std::vector<double> g(w.size(), 0.0);
    for (int64_t s = 0; s < n; ++s)
      for (int64_t o = 0; o < Out; ++o) {
        double y = 0;
        for (int64_t i = 0; i < In; ++i)
          y += d.x[s * In + i] * w[i * Out + o];
        const double dy = 2 * (y - d.t[s * Out + o]) / double(n * Out);
        for (int64_t i = 0; i < In; ++i)
          g[i * Out + o] += d.x[s * In + i] * dy;
      }
    for (std::size_t i = 0; i < w.size(); ++i) {
      v[i] = Momentum * v[i] + g[i];
      w[i] -= LearningRate * v[i];
    }
  }
  return w;
}

SessionOptions replicated(int64_t replicas, int64_t accumulation) {
  SessionOptions o;
  if (replicas > 1) {
    o.enableReplicatedGraphs = true;
    o.replicatedGraphCount = replicas;
  }
  if (accumulation > 1) {
    o.enableGradientAccumulation = true;
    o.accumulationFactor = accumulation;
  }
  o.accumulationAndReplicationReductionType = ReductionType::Mean;
  return o;
}

struct Trained {
  Floats weights;
  Floats firstY; // the y anchor of the first step
};

// Steps of replicas * accumulation micro-batches; the step's samples in
// the layout [accumulation, replicas, micro-batch, ...] are the host's.
Trained train(int64_t replicas, int64_t accumulation, int64_t microBatch) {
  const Model m = model(microBatch);
  const SGD sgd({{"defaultLearningRate", {float(LearningRate), false}},
                 {"defaultMomentum", {float(Momentum), true}}});
  auto s = TrainingSession::createFromOnnxModel(
      m.proto, DataFlow(1, {{m.y, AnchorReturnType("ALL")}}), m.loss, sgd,
      popart_test::createTestDevice(static_cast<unsigned>(replicas)), {},
      replicated(replicas, accumulation));
  s->prepareDevice();
  s->weightsFromHost();
  Trained result;
  const int64_t n = replicas * accumulation * microBatch;
  for (int step = 0; step < Steps; ++step) {
    const Data d = stepData(step, n);
    auto out = popart_test::runStep(
        *s, {{m.x, d.x}, {m.t, d.t}},
        {{m.y, static_cast<std::size_t>(n * Out)}});
    if (step == 0)
      result.firstY = out.at(m.y);
  }
  result.weights = popart_test::readWeight(*s, m.w);
  return result;
}

void requireRelativelyClose(const Floats &got, const std::vector<double> &want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    REQUIRE(got[i] == Approx(want[i]).epsilon(1e-5).margin(1e-7));
  }
}

} // namespace

TEST_CASE("Replicas train as the whole batch on one replica",
          "[popart][replication]") {
  const auto [replicas, accumulation] =
      GENERATE(std::pair<int64_t, int64_t>{4, 1}, std::pair<int64_t, int64_t>{2, 2});
  INFO(replicas << " replicas, " << accumulation << " micro-batches");
  const int64_t n = replicas * accumulation * MicroBatch;
  const std::vector<double> host = hostTraining(n);
  // Trained far from the start.
  REQUIRE(std::abs(host[0] - initialWeights()[0]) > 0.05);

  const Trained got = train(replicas, accumulation, MicroBatch);
  requireRelativelyClose(got.weights, host);
  const Trained whole = train(1, 1, n);
  requireRelativelyClose(got.weights, std::vector<double>(whole.weights.begin(),
                                                          whole.weights.end()));

  // The anchor holds [accumulation, replicas, micro-batch, Out]: replica
  // r's rows of each micro-batch through the initial weights.
  const Data d = stepData(0, n);
  const Floats w0 = initialWeights();
  for (int64_t s = 0; s < n; ++s)
    for (int64_t o = 0; o < Out; ++o) {
      double y = 0;
      for (int64_t i = 0; i < In; ++i)
        y += d.x[s * In + i] * w0[i * Out + o];
      INFO("sample " << s << " (replica " << (s / MicroBatch) % replicas
                     << ")");
      REQUIRE(got.firstY[s * Out + o] == Approx(y).epsilon(1e-5).margin(1e-6));
    }
}

TEST_CASE("Replication needs the device's IPUs and the replicas' data",
          "[popart][replication]") {
  const Model m = model(MicroBatch);
  const DataFlow flow(1, {{m.y, AnchorReturnType("ALL")}});
  if (!popart_test::testDeviceIsCpu())
    REQUIRE_THROWS_WITH(
        InferenceSession::createFromOnnxModel(
            m.proto, flow, popart_test::createTestDevice(2), {},
            replicated(4, 1)),
        Catch::Contains("replicated graph count (4) needs to be equal to the "
                        "number of IPUs (2)"));
  SessionOptions off;
  off.replicatedGraphCount = 2;
  REQUIRE_THROWS_WITH(InferenceSession::createFromOnnxModel(
                          m.proto, flow, popart_test::createTestDevice(2), {},
                          off),
                      Catch::Contains("enableReplicatedGraphs is false"));

  auto s = InferenceSession::createFromOnnxModel(
      m.proto, flow, popart_test::createTestDevice(2), {}, replicated(2, 1));
  s->prepareDevice();
  s->weightsFromHost();
  // One replica's data where two are needed.
  const Data d = stepData(0, MicroBatch);
  const Data both = stepData(0, 2 * MicroBatch);
  REQUIRE_THROWS_WITH(
      popart_test::runStep(*s, {{m.x, d.x}, {m.t, both.t}},
                           {{m.y, static_cast<std::size_t>(2 * MicroBatch * Out)}}),
      Catch::Contains("input array of tensor '" + m.x + "' has 6 elements, "
                      "but one step needs 12") &&
          Catch::Contains("replicationFactor 2"));
  // Each replica's outputs: its half of the samples.
  auto out = popart_test::runStep(
      *s, {{m.x, both.x}, {m.t, both.t}},
      {{m.y, static_cast<std::size_t>(2 * MicroBatch * Out)}});
  const Floats w0 = initialWeights();
  for (int64_t smp = 0; smp < 2 * MicroBatch; ++smp)
    for (int64_t o = 0; o < Out; ++o) {
      double y = 0;
      for (int64_t i = 0; i < In; ++i)
        y += both.x[smp * In + i] * w0[i * Out + o];
      REQUIRE(out.at(m.y)[smp * Out + o] == Approx(y).epsilon(1e-5).margin(1e-6));
    }
}
