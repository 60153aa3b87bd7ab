// popart: one training step of ResNet-18 (torchvision's, exported in training
// mode so that its batch normalisations use the batch's statistics) by a
// TrainingSession on the CPU device: forward, a softmax and NLL loss,
// backward and a plain SGD update, batch 4 of 224x224 images. Also the
// training session's creation: import, autodiff and the optimiser's
// transforms, lowering and the graph's compilation.
//
// The model is POPART_BENCH_TRAINING_MODEL, which
// benchmarks/popart/resnet18_training_vs_torch.py exports and passes, with
// PyTorch's time for the same step in the same run. Host threads:
// SDK_BENCH_THREADS (default 2).
#include <popart/builder.hpp>
#include <popart/dataflow.hpp>
#include <popart/devicemanager.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/sgd.hpp>
#include <popart/stepio.hpp>

#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const int64_t batch = 4, classes = 1000, side = 224;

std::size_t trainingBenchThreads() {
  const char *env = std::getenv("SDK_BENCH_THREADS");
  return env ? std::size_t(std::atoi(env)) : 2;
}

struct TrainingModel {
  std::string proto;
  popart::TensorId image, label, loss;
};

// The exported network ("input" to "output" logits) with a softmax and an
// NLL loss on integer labels added.
TrainingModel trainingModel() {
  const char *path = std::getenv("POPART_BENCH_TRAINING_MODEL");
  if (path == nullptr)
    throw std::runtime_error(
        "POPART_BENCH_TRAINING_MODEL is not set (run "
        "benchmarks/popart/resnet18_training_vs_torch.py, which exports it)");
  auto builder = popart::Builder::createFromOnnxModel(path);
  TrainingModel m;
  m.image = "input";
  m.label = builder->addInputTensor(
      popart::TensorInfo("INT32", popart::Shape{batch}), "label");
  auto probs = builder->aiOnnxOpset13().softmax({"output"}, 1);
  m.loss = builder->aiGraphcoreOpset1().nllloss({probs, m.label},
                                                popart::ReductionType::Mean);
  m.proto = builder->getModelProto();
  return m;
}

std::unique_ptr<popart::TrainingSession>
createTrainingSession(const TrainingModel &m) {
  auto device = popart::DeviceManager::createDeviceManager().createCpuDevice();
  auto session = popart::TrainingSession::createFromOnnxModel(
      m.proto,
      popart::DataFlow(1, {{m.loss, popart::AnchorReturnType("ALL")}}), m.loss,
      popart::SGD({{"defaultLearningRate", {0.01f, false}}}), device);
  session->prepareDevice();
  session->weightsFromHost();
  return session;
}

void ResNet18TrainingStepCpu(benchmark::State &state) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              trainingBenchThreads());
  try {
    const auto model = trainingModel();
    auto session = createTrainingSession(model);
    std::mt19937 random(1);
    std::normal_distribution<float> normal;
    std::vector<float> images(std::size_t(batch * 3 * side * side));
    for (auto &v : images)
      v = normal(random);
    std::vector<int> labels = {3, 141, 592, 653};
    float loss = 0;
    popart::NDArrayWrapper<float> imageArray(images.data(),
                                             {batch, 3, side, side});
    popart::NDArrayWrapper<int> labelArray(labels.data(), {batch});
    popart::NDArrayWrapper<float> lossArray(&loss, {1});
    std::map<popart::TensorId, popart::IArray &> inputs = {
        {model.image, imageArray}, {model.label, labelArray}};
    std::map<popart::TensorId, popart::IArray &> anchors = {
        {model.loss, lossArray}};
    popart::StepIO stepio(inputs, anchors);
    session->run(stepio); // the first run pays for the engine's set-up
    for (auto _ : state) {
      session->run(stepio);
      benchmark::DoNotOptimize(loss);
    }
    state.counters["loss"] = double(loss);
  } catch (const std::exception &e) {
    state.SkipWithError(e.what());
  }
  state.counters["threads"] = double(trainingBenchThreads());
}
BENCHMARK(ResNet18TrainingStepCpu)->Unit(benchmark::kMillisecond)->UseRealTime()
    ->MinTime(5.0);

void ResNet18TrainingSessionCreation(benchmark::State &state) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              trainingBenchThreads());
  try {
    const auto model = trainingModel();
    for (auto _ : state)
      benchmark::DoNotOptimize(createTrainingSession(model));
  } catch (const std::exception &e) {
    state.SkipWithError(e.what());
  }
}
BENCHMARK(ResNet18TrainingSessionCreation)->Unit(benchmark::kMillisecond)
    ->UseRealTime()->Iterations(2);

} // namespace
