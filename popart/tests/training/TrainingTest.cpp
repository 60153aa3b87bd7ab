// TrainingSession on the device under test: the optimiser's values changed
// between steps, anchors on gradients and optimiser state, batchesPerStep,
// weights read, written, reset and saved, dropout with a seed, the loss
// objects of earlier releases, and the errors of each.
#include "PopartTestDevice.hpp"
#include "SessionRun.hpp"

#include <popart/builder.hpp>
#include <popart/error.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/op/identity.hpp>
#include <popart/op/l1.hpp>
#include <popart/op/nll.hpp>
#include <popart/session.hpp>
#include <popart/sgd.hpp>
#include <popart/stepio.hpp>
#include <popart/tensornames.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace popart;

namespace {

using popart_test::readWeight;

using Floats = std::vector<float>;

// One step of a session: FLOAT inputs in, FLOAT anchors out (each anchor's
// element count given).
std::map<TensorId, Floats> step(Session &s, std::map<TensorId, Floats> inputs,
                                const std::map<TensorId, std::size_t> &anchors) {
  return popart_test::runStep(s, std::move(inputs), anchors);
}

void requireClose(const Floats &got, const Floats &want, float tol = 1e-5f) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    REQUIRE(got[i] == Approx(want[i]).epsilon(tol).margin(tol));
  }
}

// y = x * w (element-wise), loss = sum(y): the gradient of w is x.
struct ScaleModel {
  std::string proto;
  TensorId x, w, y, loss;
  Floats w0 = {1.0f, 2.0f, -1.0f};
};

ScaleModel scaleModel() {
  ScaleModel m;
  auto b = Builder::create();
  auto o = b->aiOnnxOpset13();
  m.x = b->addInputTensor(TensorInfo(DataType::FLOAT, Shape{3}), "x");
  m.w = b->addInitializedInputTensor(
      ConstVoidData(m.w0.data(), TensorInfo(DataType::FLOAT, Shape{3})), "w");
  m.y = o.mul({m.x, m.w});
  m.loss = b->aiGraphcoreOpset1().identityloss({m.y}, ReductionType::Sum);
  m.proto = b->getModelProto();
  return m;
}

std::unique_ptr<TrainingSession> trainingSession(const ScaleModel &m,
                                                 const Optimizer &opt,
                                                 const DataFlow &flow,
                                                 const SessionOptions &opts = {}) {
  auto s = TrainingSession::createFromOnnxModel(m.proto, flow, m.loss, opt,
                                                popart_test::createTestDevice(),
                                                {}, opts);
  s->prepareDevice();
  s->weightsFromHost();
  return s;
}

} // namespace

TEST_CASE("Non-constant optimiser values change between steps",
          "[popart][training]") {
  const ScaleModel m = scaleModel();
  const Floats x = {1.0f, -2.0f, 0.5f};
  auto check = [&](SGDAccumulatorAndMomentum accMm) {
    SGD sgd({{"defaultLearningRate", {0.1f, false}},
             {"defaultMomentum", {0.5f, false}}},
            {}, accMm);
    auto s = trainingSession(m, sgd,
                             DataFlow(1, {{m.loss, AnchorReturnType("All")}}));
    // References (the gradient of w is x). Separate: v = mm v + g,
    // w -= lr v. Combined keeps one tensor that holds mm v between steps,
    // so a new momentum applies from the step after the update.
    Floats w = m.w0, v(3, 0.0f);
    auto reference = [&](float lr, float mm) {
      for (int i = 0; i < 3; ++i) {
        if (accMm == SGDAccumulatorAndMomentum::Separate) {
          v[i] = mm * v[i] + x[i];
          w[i] -= lr * v[i];
        } else {
          v[i] += x[i];
          w[i] -= lr * v[i];
          v[i] *= mm;
        }
      }
    };
    step(*s, {{m.x, x}}, {{m.loss, 1}});
    reference(0.1f, 0.5f);
    requireClose(readWeight(*s, m.w), w);

    SGD changed({{"defaultLearningRate", {0.02f, false}},
                 {"defaultMomentum", {0.9f, false}}},
                {}, accMm);
    s->updateOptimizerFromHost(&changed);
    step(*s, {{m.x, x}}, {{m.loss, 1}});
    reference(0.02f, 0.9f);
    requireClose(readWeight(*s, m.w), w);
    step(*s, {{m.x, x}}, {{m.loss, 1}});
    reference(0.02f, 0.9f);
    requireClose(readWeight(*s, m.w), w);
    return s;
  };
  check(SGDAccumulatorAndMomentum::Separate);
  auto s = check(SGDAccumulatorAndMomentum::Combined);

  SECTION("a constant cannot change") {
    ConstSGD constant(0.1f);
    auto c = trainingSession(m, constant,
                             DataFlow(1, {{m.loss, AnchorReturnType("All")}}));
    ConstSGD other(0.2f);
    REQUIRE_THROWS_WITH(c->updateOptimizerFromHost(&other),
                        Catch::Contains("learning rate") &&
                            Catch::Contains("constant"));
  }
  SECTION("nor the constness of a value") {
    ConstSGD constant(0.1f);
    REQUIRE_THROWS_WITH(s->updateOptimizerFromHost(&constant),
                        Catch::Contains("learning rate"));
  }
}

TEST_CASE("Gradients and optimiser state can be anchored", "[popart][training]") {
  const ScaleModel m = scaleModel();
  SGD sgd({{"defaultLearningRate", {0.1f, true}},
           {"defaultMomentum", {0.9f, true}}},
          {}, SGDAccumulatorAndMomentum::Separate);
  const TensorId grad = getGradId(m.w), velocity = reservedAcclPrefix() + m.w;
  auto s = trainingSession(
      m, sgd,
      DataFlow(2, {{grad, AnchorReturnType("All")},
                   {velocity, AnchorReturnType("All")},
                   {m.loss, AnchorReturnType("Sum")}}));
  const Floats x = {1.0f, -2.0f, 0.5f, 2.0f, 1.0f, -1.0f};
  auto out = step(*s, {{m.x, x}}, {{grad, 6}, {velocity, 6}, {m.loss, 1}});
  // Two batches: the gradient is each batch's x; the velocity after each
  // update v = 0.9 v + g.
  requireClose(out[grad], x);
  Floats v(3, 0.0f), expectedV;
  float lossSum = 0.0f;
  Floats w = m.w0;
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 3; ++i) {
      lossSum += x[3 * b + i] * w[i];
      v[i] = 0.9f * v[i] + x[3 * b + i];
      w[i] -= 0.1f * v[i];
      expectedV.push_back(v[i]);
    }
  requireClose(out[velocity], expectedV);
  REQUIRE(out[m.loss][0] == Approx(lossSum).epsilon(1e-5));
  requireClose(readWeight(*s, m.w), w);
}

TEST_CASE("Weights are read, written, reset and saved", "[popart][training]") {
  const ScaleModel m = scaleModel();
  auto s = trainingSession(m, ConstSGD(0.5f),
                           DataFlow(1, {{m.loss, AnchorReturnType("All")}}));
  const Floats x = {1.0f, 1.0f, 2.0f};
  step(*s, {{m.x, x}}, {{m.loss, 1}});
  const Floats trained = {0.5f, 1.5f, -2.0f};
  requireClose(readWeight(*s, m.w), trained);

  // writeWeights and weightsFromHost put new weights on the device.
  Floats mine = {3.0f, 0.0f, 1.0f};
  WeightsIO io;
  io.insert(m.w, {mine.data(), TensorInfo(DataType::FLOAT, Shape{3})});
  s->writeWeights(io);
  s->weightsFromHost();
  auto out = step(*s, {{m.x, x}}, {{m.loss, 1}});
  REQUIRE(out[m.loss][0] == Approx(3.0f + 0.0f + 2.0f));

  // modelToHost writes the trained weights into the model.
  // One file per device variant: the variants run at once in one folder.
  const char *device = std::getenv("SDK_TEST_DEVICE");
  const std::string path = std::string("popart_training_test_model_") +
                           (device ? device : "default") + ".onnx";
  s->weightsToHost();
  s->modelToHost(path);
  const Floats saved = readWeight(*s, m.w);
  auto reloaded = InferenceSession::createFromOnnxModel(
      path, DataFlow(1, {{m.y, AnchorReturnType("All")}}),
      popart_test::createTestDevice());
  reloaded->prepareDevice();
  reloaded->weightsFromHost();
  auto y = step(*reloaded, {{m.x, {1.0f, 1.0f, 1.0f}}}, {{m.y, 3}});
  requireClose(y[m.y], saved);

  // resetHostWeights brings back the weights of a model file.
  s->resetHostWeights(path);
  s->weightsFromHost();
  requireClose(readWeight(*s, m.w), saved);
  std::remove(path.c_str());

  SECTION("a model with other weights is refused unless they are ignored") {
    auto b = Builder::create();
    Floats other = {1.0f};
    b->addInitializedInputTensor(
        ConstVoidData(other.data(), TensorInfo(DataType::FLOAT, Shape{1})),
        "unknown");
    REQUIRE_THROWS_WITH(s->resetHostWeights(b->getModelProto()),
                        Catch::Contains("'unknown'"));
    REQUIRE_NOTHROW(s->resetHostWeights(b->getModelProto(), true));
  }
  SECTION("buffers of the wrong size are refused") {
    Floats small(2);
    WeightsIO bad;
    bad.insert(m.w, {small.data(), TensorInfo(DataType::FLOAT, Shape{2})});
    REQUIRE_THROWS_WITH(s->readWeights(bad), Catch::Contains("'w'"));
  }
}

TEST_CASE("Dropout draws the same mask forward and backward, from the seed",
          "[popart][training]") {
  auto b = Builder::create();
  auto o = b->aiOnnxOpset11();
  const int64_t n = 2000;
  auto x = b->addInputTensor(TensorInfo(DataType::FLOAT, Shape{n}), "x");
  auto y = o.dropout({x}, 1, 0.25f).at(0);
  auto loss = b->aiGraphcoreOpset1().identityloss({y}, ReductionType::Sum);
  auto s = TrainingSession::createFromOnnxModel(
      b->getModelProto(),
      DataFlow(2, {{y, AnchorReturnType("All")},
                   {getGradId(x), AnchorReturnType("All")}}),
      loss, ConstSGD(0.1f), popart_test::createTestDevice());
  s->prepareDevice();
  s->weightsFromHost();
  Floats xs(2 * n);
  for (int64_t i = 0; i < 2 * n; ++i)
    xs[i] = 1.0f + float(i % 7);
  auto run = [&] {
    return step(*s, {{x, xs}}, {{y, 2 * n}, {getGradId(x), 2 * n}});
  };
  s->setRandomSeed(42);
  auto first = run();
  int kept = 0, differ = 0;
  for (int64_t i = 0; i < 2 * n; ++i) {
    const bool keep = first[y][i] != 0.0f;
    kept += keep;
    // Kept elements are scaled by 1 / (1 - ratio); the gradient has the
    // same mask and scale.
    REQUIRE(first[y][i] == Approx(keep ? xs[i] / 0.75f : 0.0f));
    REQUIRE(first[getGradId(x)][i] == Approx(keep ? 1.0f / 0.75f : 0.0f));
    if (i < n)
      differ += keep != (first[y][i + n] != 0.0f);
  }
  REQUIRE(std::abs(kept - 0.75 * 2 * n) < 0.05 * 2 * n);
  REQUIRE(differ > n / 10); // each batch draws its own mask
  s->setRandomSeed(42);
  REQUIRE(run()[y] == first[y]);
  s->setRandomSeed(43);
  REQUIRE(run()[y] != first[y]);
}

TEST_CASE("Losses as objects, as earlier releases gave them",
          "[popart][training]") {
  // probs -> NllLoss, and an L1 loss on the weight: the final loss is the
  // sum.
  auto b = Builder::create();
  auto o = b->aiOnnxOpset11();
  Floats w0 = {0.5f, -0.25f, 1.0f, 0.75f};
  auto w = b->addInitializedInputTensor(
      ConstVoidData(w0.data(), TensorInfo(DataType::FLOAT, Shape{2, 2})), "w");
  auto probs = o.softmax({w}, 1);
  auto label = b->addInputTensor(TensorInfo(DataType::INT32, Shape{2}), "label");
  NllLoss nll(probs, label, "nllLoss");
  L1Loss l1(w, "l1Loss", 0.1f, ReductionType::Sum);
  auto s = TrainingSession::createFromOnnxModel(
      b->getModelProto(),
      DataFlow(1, {{"nllLoss", AnchorReturnType("All")},
                   {"l1Loss", AnchorReturnType("All")},
                   {getGradId(w), AnchorReturnType("All")}}),
      {&nll, &l1}, ConstSGD(0.0f), popart_test::createTestDevice());
  s->prepareDevice();
  s->weightsFromHost();
  std::vector<int> labels = {1, 0};
  NDArrayWrapper<int> labelArray(labels.data(), Shape{2});
  Floats nllValue(1), l1Value(1), grad(4);
  NDArrayWrapper<float> a(nllValue.data(), Shape{1}), c(l1Value.data(), Shape{1}),
      g(grad.data(), Shape{2, 2});
  std::map<TensorId, IArray &> ins = {{label, labelArray}};
  std::map<TensorId, IArray &> outs = {
      {"nllLoss", a}, {"l1Loss", c}, {getGradId(w), g}};
  StepIO io(ins, outs);
  s->run(io);
  // Reference: rows softmax, NLL summed over the rows (the default
  // reduction of NllLoss objects), L1 = 0.1 sum |w|.
  double nllRef = 0.0, l1Ref = 0.0;
  Floats gradRef(4);
  for (int r = 0; r < 2; ++r) {
    const double e0 = std::exp(w0[2 * r]), e1 = std::exp(w0[2 * r + 1]);
    const double p[2] = {e0 / (e0 + e1), e1 / (e0 + e1)};
    nllRef -= std::log(p[labels[r]]);
    for (int c2 = 0; c2 < 2; ++c2)
      gradRef[2 * r + c2] = float(p[c2] - (c2 == labels[r] ? 1.0 : 0.0) +
                                  0.1 * (w0[2 * r + c2] > 0 ? 1 : -1));
  }
  for (float v : w0)
    l1Ref += 0.1 * std::fabs(v);
  REQUIRE(nllValue[0] == Approx(nllRef).epsilon(1e-5));
  REQUIRE(l1Value[0] == Approx(l1Ref).epsilon(1e-5));
  requireClose(grad, gradRef);
}

TEST_CASE("Training errors name what is at fault", "[popart][training]") {
  const ScaleModel m = scaleModel();
  auto device = popart_test::createTestDevice();
  const DataFlow flow(1, {{m.loss, AnchorReturnType("All")}});
  REQUIRE_THROWS_WITH(TrainingSession::createFromOnnxModel(m.proto, flow, "nope",
                                                           ConstSGD(0.1f), device),
                      Catch::Contains("'nope'"));
  REQUIRE_THROWS_WITH(
      TrainingSession::createFromOnnxModel(
          m.proto, DataFlow(1, {{getGradId("nothere"), AnchorReturnType("All")}}),
          m.loss, ConstSGD(0.1f), device),
      Catch::Contains("nothere"));
  SGD clipped({{"defaultLearningRate", {0.1f, true}}},
              {ClipNormSettings({"notAWeight"}, 1.0f)});
  REQUIRE_THROWS_WITH(TrainingSession::createFromOnnxModel(m.proto, flow, m.loss,
                                                           clipped, device),
                      Catch::Contains("'notAWeight'"));
  REQUIRE_THROWS_WITH(SGD({{"defaultLearingRate", {0.1f, true}}}),
                      Catch::Contains("'defaultLearingRate'"));
  REQUIRE_THROWS_WITH(SGD({{"defaultMomentum", {1.5f, true}}}),
                      Catch::Contains("momentum"));
  SessionOptions opts;
  opts.enablePipelining = true;
  REQUIRE_THROWS_WITH(TrainingSession::createFromOnnxModel(
                          m.proto, flow, m.loss, ConstSGD(0.1f), device, {}, opts),
                      Catch::Contains("enablePipelining"));
}

namespace {

// conv -> batch norm -> relu -> matmul -> softmax -> nll, trained for three
// steps; returns the weights and the IR.
struct RecomputeRun {
  std::map<TensorId, Floats> weights;
  std::string ir;
};

RecomputeRun trainRecomputed(RecomputationType policy, bool annotate) {
  auto b = Builder::create();
  auto o = b->aiOnnxOpset11();
  auto init = [&](Shape shape, float scale, const std::string &name) {
    int64_t n = 1;
    for (auto d : shape)
      n *= d;
    Floats v(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      v[i] = scale * std::sin(0.7f * float(i) + float(name.size()));
    return b->addInitializedInputTensor(
        ConstVoidData(v.data(), TensorInfo(DataType::FLOAT, shape)), name);
  };
  auto x = b->addInputTensor(TensorInfo(DataType::FLOAT, Shape{2, 2, 4, 4}), "x");
  auto label = b->addInputTensor(TensorInfo(DataType::INT32, Shape{2}), "label");
  auto w = init({3, 2, 3, 3}, 0.3f, "convW");
  Floats ones(3, 1.0f), zeros(3, 0.0f);
  auto scale = b->addInitializedInputTensor(
      ConstVoidData(ones.data(), TensorInfo(DataType::FLOAT, Shape{3})), "scale");
  auto bias = init({3}, 0.1f, "bias");
  auto mean = b->addInitializedInputTensor(
      ConstVoidData(zeros.data(), TensorInfo(DataType::FLOAT, Shape{3})), "mean");
  auto var = b->addInitializedInputTensor(
      ConstVoidData(ones.data(), TensorInfo(DataType::FLOAT, Shape{3})), "var");
  auto c = o.conv({x, w}, {1, 1}, 1, {3, 3}, {1, 1, 1, 1}, {1, 1});
  auto bn = o.batchnormalization({c, scale, bias, mean, var}, 5).at(0);
  auto r = o.relu({bn});
  // RecomputeAll recomputes up to checkpoints; the others take the ops to
  // recompute.
  if (annotate && policy == RecomputationType::RecomputeAll)
    r = b->checkpointOutput({r}).at(0);
  else if (annotate)
    b->recomputeOutputInBackwardPass(std::set<TensorId>{r, bn});
  auto f = b->aiGraphcoreOpset1().reshape(r, {2, 48});
  auto fc = init({48, 4}, 0.2f, "fcW");
  auto probs = o.softmax({o.matmul({f, fc})}, 1);
  auto loss = b->aiGraphcoreOpset1().nllloss({probs, label});
  SessionOptions opts;
  opts.autoRecomputation = policy;
  auto s = TrainingSession::createFromOnnxModel(
      b->getModelProto(), DataFlow(1, {{loss, AnchorReturnType("All")}}), loss,
      SGD({{"defaultLearningRate", {0.1f, true}},
           {"defaultMomentum", {0.9f, true}}}),
      popart_test::createTestDevice(), {}, opts);
  s->prepareDevice();
  s->weightsFromHost();
  std::vector<int> labels = {1, 3};
  for (int k = 0; k < 3; ++k) {
    Floats xs(64);
    for (int i = 0; i < 64; ++i)
      xs[i] = std::cos(0.3f * float(i * (k + 1)));
    NDArrayWrapper<float> xa(xs.data(), Shape{2, 2, 4, 4});
    NDArrayWrapper<int> la(labels.data(), Shape{2});
    float l;
    NDArrayWrapper<float> lossa(&l, Shape{1});
    std::map<TensorId, IArray &> ins = {{x, xa}, {label, la}};
    std::map<TensorId, IArray &> outs = {{loss, lossa}};
    StepIO io(ins, outs);
    s->run(io);
  }
  RecomputeRun run;
  for (const auto &id : {w, bias, fc, mean})
    run.weights[id] = readWeight(*s, id);
  run.ir = s->serializeIr();
  return run;
}

int countRecomputed(const std::string &ir) {
  int n = 0;
  for (auto p = ir.find("/recompute"); p != std::string::npos;
       p = ir.find("/recompute", p + 1))
    ++n;
  return n;
}

} // namespace

TEST_CASE("Recomputation gives the same numbers", "[popart][training]") {
  const RecomputeRun plain = trainRecomputed(RecomputationType::None, false);
  REQUIRE(countRecomputed(plain.ir) == 0);
  for (auto policy : {RecomputationType::Standard, RecomputationType::NormOnly,
                      RecomputationType::RecomputeAll}) {
    for (bool annotate : {false, true}) {
      const RecomputeRun run = trainRecomputed(policy, annotate);
      INFO("policy " << int(policy) << ", annotated " << annotate);
      // Bit for bit: the recomputed ops compute what the forward ops did
      // (and the running mean is updated once).
      for (const auto &w : plain.weights)
        REQUIRE(run.weights.at(w.first) == w.second);
      if (policy == RecomputationType::NormOnly || annotate)
        REQUIRE(countRecomputed(run.ir) > 0);
    }
  }
  // The Builder's annotations alone.
  const RecomputeRun annotated = trainRecomputed(RecomputationType::None, true);
  REQUIRE(countRecomputed(annotated.ir) >= 2);
  for (const auto &w : plain.weights)
    REQUIRE(annotated.weights.at(w.first) == w.second);
}
