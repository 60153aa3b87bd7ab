// Training runs compared with PyTorch step by step: each case of
// cases.json is trained for the same steps on the same data from the same
// initial weights as torch_trajectories.py trained it, and after every
// step the loss of each micro-batch and every weight must agree within
// 1e-5 relative.
#include "PopartTestDevice.hpp"

#include <popart/adam.hpp>
#include <popart/adaptive.hpp>
#include <popart/builder.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/sgd.hpp>
#include <popart/stepio.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace popart;
using json = nlohmann::json;

namespace {

json readJson(const std::string &path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  return json::parse(in);
}

struct Model {
  std::string proto;
  TensorId x, labels, loss;
};

Model buildModel(const json &run) {
  const std::string kind = run["case"]["model"];
  const int64_t batch = run["batch"];
  auto b = Builder::create();
  auto o = b->aiOnnxOpset11();
  auto gc = b->aiGraphcoreOpset1();
  std::map<std::string, TensorId> w;
  for (const auto &p : run["init"].items()) {
    const std::vector<float> data = p.value()["data"];
    const Shape shape = p.value()["shape"];
    w[p.key()] = b->addInitializedInputTensor(
        ConstVoidData(data.data(), TensorInfo(DataType::FLOAT, shape)),
        p.key());
  }
  Model m;
  m.x = b->addInputTensor(
      TensorInfo(DataType::FLOAT, run["inputShape"].get<Shape>()), "x");
  m.labels = b->addInputTensor(TensorInfo(DataType::INT32, Shape{batch}), "labels");
  TensorId z;
  if (kind == "mlp") {
    auto h = o.relu({o.add({o.matmul({m.x, w["W1"]}), w["b1"]})});
    z = o.add({o.matmul({h, w["W2"]}), w["b2"]});
  } else {
    auto c = o.conv({m.x, w["convW"]}, {1, 1}, 1, {3, 3},
                    {1, 1, 1, 1}, {1, 1});
    auto bn = o.batchnormalization(
        {c, w["bnScale"], w["bnBias"], w["bnMean"], w["bnVar"]}, 5, 1e-5f, 0.9f);
    auto r = o.relu({bn.at(0)});
    auto p = o.maxpool({r}, 1, {2, 2}, 0, {}, {0, 0, 0, 0}, 0, {2, 2}).at(0);
    auto f = gc.reshape(p, {batch, 36});
    z = o.add({o.matmul({f, w["fcW"]}), w["fcB"]});
  }
  auto probs = o.softmax({z}, 1);
  m.loss = gc.nllloss({probs, m.labels}, ReductionType::Mean);
  m.proto = b->getModelProto();
  return m;
}

OptimizerValue value(const json &o, const char *key, float def) {
  return {o.value(key, def), o.value("const", true)};
}

std::unique_ptr<Optimizer> makeOptimizer(const json &o) {
  std::vector<ClipNormSettings> clip;
  if (o.contains("clip"))
    clip.push_back(ClipNormSettings::clipAllWeights(o["clip"]));
  const auto ls = value(o, "ls", 1.0f);
  const std::string type = o["type"];
  const WeightDecayMode wdMode = o.value("wdmode", "Decay") == "Decay"
                                     ? WeightDecayMode::Decay
                                     : WeightDecayMode::L2Regularization;
  if (type == "sgd")
    return std::make_unique<SGD>(
        value(o, "lr", 0.1f), value(o, "wd", 0.0f), value(o, "momentum", 0.0f),
        value(o, "dampening", 0.0f), value(o, "vs", 1.0f), ls,
        OptimizerValue(o.value("nesterov", false) ? 1.0f : 0.0f, true), clip,
        o.value("separate", false) ? SGDAccumulatorAndMomentum::Separate
                                   : SGDAccumulatorAndMomentum::Combined);
  if (type == "adam") {
    static const std::map<std::string, AdamMode> modes = {
        {"Adam", AdamMode::Adam},
        {"AdamNoBias", AdamMode::AdamNoBias},
        {"AdaMax", AdamMode::AdaMax},
        {"Lamb", AdamMode::Lamb},
        {"LambNoBias", AdamMode::LambNoBias}};
    return std::make_unique<Adam>(
        value(o, "lr", 0.1f), value(o, "wd", 0.0f), value(o, "b1", 0.9f),
        value(o, "b2", 0.999f), value(o, "eps", 1e-6f), ls,
        value(o, "mwn", 10.0f), modes.at(o["mode"]), wdMode, DataType::FLOAT,
        DataType::FLOAT, DataType::FLOAT, clip);
  }
  static const std::map<std::string, AdaptiveMode> modes = {
      {"AdaGrad", AdaptiveMode::AdaGrad},
      {"RMSProp", AdaptiveMode::RMSProp},
      {"CenteredRMSProp", AdaptiveMode::CenteredRMSProp},
      {"AdaDelta", AdaptiveMode::AdaDelta}};
  REQUIRE(clip.empty());
  return std::make_unique<Adaptive>(
      value(o, "lr", 0.01f), value(o, "wd", 0.0f), value(o, "alpha", 0.99f),
      value(o, "momentum", 0.0f), value(o, "eps", 1e-6f), ls,
      modes.at(o["mode"]), wdMode, DataType::FLOAT, DataType::FLOAT,
      DataType::FLOAT, DataType::FLOAT, o.value("tf", false));
}

// max |a - e| / max |e|
double relativeError(const std::vector<float> &a, const std::vector<float> &e) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::fabs(double(a[i]) - double(e[i])));
    scale = std::max(scale, std::fabs(double(e[i])));
  }
  return scale > 0.0 ? diff / scale : diff;
}

void checkCase(const std::string &name) {
  const json run = readJson(std::string(POPART_TRAJECTORY_DIR) + "/" + name + ".json");
  const json &c = run["case"];
  const Model m = buildModel(run);
  const int64_t af = c.value("accumulation", 1);
  const int64_t batch = run["batch"];
  SessionOptions opts;
  if (af > 1) {
    opts.enableGradientAccumulation = true;
    opts.accumulationFactor = af;
    opts.accumulationAndReplicationReductionType =
        c.value("reduction", "Sum") == "Mean" ? ReductionType::Mean
                                             : ReductionType::Sum;
  }
  const auto optimizer = makeOptimizer(c["optimizer"]);
  auto session = TrainingSession::createFromOnnxModel(
      m.proto, DataFlow(1, {{m.loss, AnchorReturnType("All")}}), m.loss,
      *optimizer, popart_test::createTestDevice(), {}, opts);
  session->prepareDevice();
  session->weightsFromHost();

  const std::vector<float> xs = run["x"];
  const std::vector<int> labels = run["labels"];
  const Shape xShape = run["inputShape"];
  int64_t perStep = af;
  for (auto d : xShape)
    perStep *= d;
  const std::vector<std::string> trained = run["trained"];
  std::map<std::string, std::vector<float>> weights;
  WeightsIO weightsIO;
  for (const auto &id : trained) {
    weights[id].resize(session->getInfo(id).nelms());
    weightsIO.insert(id, {weights[id].data(), session->getInfo(id)});
  }
  const int steps = run["steps"];
  for (int step = 0; step < steps; ++step) {
    std::vector<float> x(xs.begin() + step * perStep,
                         xs.begin() + (step + 1) * perStep);
    std::vector<int> l(labels.begin() + step * af * batch,
                       labels.begin() + (step + 1) * af * batch);
    std::vector<float> losses(static_cast<std::size_t>(af));
    Shape xs2 = xShape;
    xs2.insert(xs2.begin(), af);
    NDArrayWrapper<float> xw(x.data(), TensorInfo(DataType::FLOAT, xs2));
    NDArrayWrapper<int> lw(l.data(), TensorInfo(DataType::INT32, Shape{af, batch}));
    NDArrayWrapper<float> lossw(losses.data(), TensorInfo(DataType::FLOAT, Shape{af}));
    std::map<TensorId, IArray &> ins = {{m.x, xw}, {m.labels, lw}};
    std::map<TensorId, IArray &> outs = {{m.loss, lossw}};
    StepIO io(ins, outs);
    session->run(io);
    session->weightsToHost();
    session->readWeights(weightsIO);

    const json &expected = run["trajectory"][step];
    INFO(name << ", step " << step);
    const std::vector<float> expectedLosses = expected["losses"];
    CHECK(relativeError(losses, expectedLosses) < 1e-5);
    for (const auto &id : trained) {
      INFO("weight " << id);
      CHECK(relativeError(weights[id], expected["weights"][id]) < 1e-5);
    }
  }
}

std::vector<std::string> caseNames() {
  std::vector<std::string> names;
  const json cases = readJson(POPART_TRAJECTORY_CASES);
  for (const auto &c : cases["cases"])
    names.push_back(c["name"]);
  return names;
}

} // namespace

TEST_CASE("Training follows PyTorch's trajectory", "[popart][training]") {
  for (const auto &name : caseNames())
    DYNAMIC_SECTION(name) { checkCase(name); }
}
