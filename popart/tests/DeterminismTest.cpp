// A training run gives the same bits whatever the number of host threads,
// run after run, and with the codelet cache cold or warm: conv, batch norm,
// relu, dropout, max pool, matmul, softmax and NLL (poplin, popnn, popops,
// poprand underneath), trained with Adam for three steps on the device
// under test.
#include "PopartTestDevice.hpp"
#include "ProcessFile.hpp"
#include "SessionRun.hpp"

#include <popart/adam.hpp>
#include <popart/builder.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/stepio.hpp>

#include <catch2/catch.hpp>

#include <tbb/global_control.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <vector>

using namespace popart;

namespace {

using popart_test::readWeight;

using Floats = std::vector<float>;

struct Trained {
  Floats losses;
  std::map<TensorId, Floats> initial, weights;
  bool operator==(const Trained &o) const {
    return losses == o.losses && weights == o.weights;
  }
};

Trained train(unsigned threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            threads);
  auto b = Builder::create();
  auto o = b->aiOnnxOpset11();
  Trained t;
  std::vector<TensorId> weights;
  auto init = [&](Shape shape, float scale, const std::string &name) {
    int64_t n = 1;
    for (auto d : shape)
      n *= d;
    Floats v(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      v[i] = scale * std::sin(0.37f * float(i) + float(name.size()));
    weights.push_back(b->addInitializedInputTensor(
        ConstVoidData(v.data(), TensorInfo(DataType::FLOAT, shape)), name));
    t.initial[weights.back()] = v;
    return weights.back();
  };
  constexpr int64_t batch = 8, channels = 3, side = 12;
  auto x = b->addInputTensor(
      TensorInfo(DataType::FLOAT, Shape{batch, channels, side, side}), "x");
  auto label = b->addInputTensor(TensorInfo(DataType::INT32, Shape{batch}), "label");
  auto w = init({8, channels, 3, 3}, 0.3f, "convW");
  auto scale = init({8}, 0.1f, "scale");
  auto bias = init({8}, 0.1f, "bias");
  Floats zeros(8, 0.0f), ones(8, 1.0f);
  auto mean = b->addInitializedInputTensor(
      ConstVoidData(zeros.data(), TensorInfo(DataType::FLOAT, Shape{8})), "mean");
  auto var = b->addInitializedInputTensor(
      ConstVoidData(ones.data(), TensorInfo(DataType::FLOAT, Shape{8})), "var");
  auto c = o.conv({x, w}, {1, 1}, 1, {3, 3}, {1, 1, 1, 1}, {1, 1});
  auto bn = o.batchnormalization({c, scale, bias, mean, var}, 5).at(0);
  auto r = o.dropout({o.relu({bn})}, 1, 0.25f).at(0);
  auto p = o.maxpool({r}, 1, {2, 2}, 0, {}, {0, 0, 0, 0}, 0, {2, 2}).at(0);
  auto f = b->aiGraphcoreOpset1().reshape(p, {batch, 8 * 6 * 6});
  auto fc = init({8 * 6 * 6, 5}, 0.05f, "fcW");
  auto probs = o.softmax({o.matmul({f, fc})}, 1);
  auto loss = b->aiGraphcoreOpset1().nllloss({probs, label});

  auto s = TrainingSession::createFromOnnxModel(
      b->getModelProto(), DataFlow(1, {{loss, AnchorReturnType("All")}}), loss,
      Adam({{"defaultLearningRate", {0.01f, false}}}, AdamMode::Adam,
           WeightDecayMode::Decay, DataType::FLOAT, DataType::FLOAT,
           DataType::FLOAT),
      popart_test::createTestDevice());
  s->prepareDevice();
  s->weightsFromHost();
  s->setRandomSeed(11);
  std::vector<int> labels(batch);
  for (int i = 0; i < batch; ++i)
    labels[i] = (i * 3) % 5;
  for (int k = 0; k < 3; ++k) {
    Floats xs(batch * channels * side * side);
    for (std::size_t i = 0; i < xs.size(); ++i)
      xs[i] = std::cos(0.11f * float(i) * float(k + 1));
    NDArrayWrapper<float> xa(xs.data(), Shape{batch, channels, side, side});
    NDArrayWrapper<int> la(labels.data(), Shape{batch});
    float l = 0;
    NDArrayWrapper<float> lossa(&l, Shape{1});
    std::map<TensorId, IArray &> ins = {{x, xa}, {label, la}};
    std::map<TensorId, IArray &> outs = {{loss, lossa}};
    StepIO io(ins, outs);
    s->run(io);
    t.losses.push_back(l);
  }
  for (const auto &id : weights)
    t.weights[id] = readWeight(*s, id);
  t.weights[mean] = readWeight(*s, mean);
  return t;
}

} // namespace

TEST_CASE("Training gives the same bits for any thread count, run after run, "
          "cold or warm codelet cache",
          "[popart][training][determinism]") {
  namespace fs = std::filesystem;
  // A codelet cache of this process's own, empty for the first run.
  const fs::path cache =
      fs::absolute(popart_test::processFile("determinism_cache", ""));
  fs::remove_all(cache);
  const char *before = std::getenv("POPLAR_CODELET_CACHE_DIR");
  const std::string saved = before ? before : "";
  ::setenv("POPLAR_CODELET_CACHE_DIR", cache.c_str(), 1);

  const Trained cold = train(1);
  // The fused expressions PopLibs generates for the optimiser were
  // compiled into the cache, so the second run finds them there.
  std::size_t compiled = 0;
  for (const auto &e : fs::directory_iterator(cache))
    compiled += e.path().extension() == ".gp";
  const Trained warm = train(1);
  const Trained two = train(2);
  const Trained eight = train(8);
  if (before)
    ::setenv("POPLAR_CODELET_CACHE_DIR", saved.c_str(), 1);
  else
    ::unsetenv("POPLAR_CODELET_CACHE_DIR");
  fs::remove_all(cache);

  // Every weight moved, so the comparison is of real updates.
  REQUIRE(cold.losses.size() == 3);
  CHECK(std::isfinite(cold.losses[2]));
  for (const auto &[id, initial] : cold.initial)
    CHECK(cold.weights.at(id) != initial);
  CHECK(compiled > 0);
  CHECK(cold == warm);
  CHECK(cold == two);
  CHECK(cold == eight);
}
