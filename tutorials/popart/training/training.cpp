// The user guide's training example in C++: a linear layer and a softmax,
// trained through a negative log likelihood loss. First with the loss
// given as an NllLoss object and a ConstSGD optimiser, as the guide's
// older interface does; then with the loss as a tensor of the model
// (aiGraphcoreOpset1::nllloss) and the SGD map form, whose non-constant
// learning rate is changed between steps without recompiling.
//
//   g++ --std=c++14 training.cpp -lpopart -lpoplar -o training && ./training
#include <popart/builder.hpp>
#include <popart/devicemanager.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/op/nll.hpp>
#include <popart/session.hpp>
#include <popart/sgd.hpp>
#include <popart/stepio.hpp>

#include <cmath>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <vector>

namespace {

const int64_t batchSize = 1, inShape = 784, outShape = 10;
const int batchesPerStep = 32, steps = 10;

// The same data every run: inputs in [-0.1, 0.1], labels 0 to 9.
float input(int64_t i) { return 0.1f * std::sin(0.013f * float(i) + 0.5f); }
int label(int64_t i) { return int((i * 7 + 3) % outShape); }
float initialWeight(int64_t i) { return 0.05f * std::cos(0.7f * float(i)); }

struct Model {
  std::string proto;
  popart::TensorId x, label, probs, w;
};

Model createModel() {
  auto builder = popart::Builder::create();
  auto aiOnnx = builder->aiOnnxOpset9();
  Model m;
  m.x = builder->addInputTensor(
      popart::TensorInfo("FLOAT", std::vector<int64_t>{batchSize, inShape}));
  std::vector<float> w(inShape * outShape), b(outShape, 0.0f);
  for (std::size_t i = 0; i < w.size(); ++i)
    w[i] = initialWeight(int64_t(i));
  m.w = builder->addInitializedInputTensor(
      {w.data(), popart::TensorInfo("FLOAT", std::vector<int64_t>{inShape, outShape})});
  auto bias = builder->addInitializedInputTensor(
      {b.data(), popart::TensorInfo("FLOAT", std::vector<int64_t>{outShape})});
  auto h = aiOnnx.matmul({m.x, m.w});
  auto a = aiOnnx.add({h, bias});
  m.probs = aiOnnx.softmax({a});
  m.label = builder->addInputTensor(
      popart::TensorInfo("INT32", std::vector<int64_t>{batchSize}));
  m.proto = builder->getModelProto();
  return m;
}

// Runs the steps, printing the mean loss of each.
void train(popart::TrainingSession &session, const Model &m,
           const popart::TensorId &loss,
           const std::function<void(int)> &beforeStep) {
  session.prepareDevice();
  session.weightsFromHost();
  const int64_t n = batchesPerStep * batchSize;
  std::vector<float> data(n * inShape), losses(batchesPerStep);
  std::vector<int> labels(n);
  for (int step = 0; step < steps; ++step) {
    beforeStep(step);
    for (int64_t i = 0; i < n * inShape; ++i)
      data[i] = input(step * n * inShape + i);
    for (int64_t i = 0; i < n; ++i)
      labels[i] = label(step * n + i);
    popart::NDArrayWrapper<float> dataArray(
        data.data(), {batchesPerStep, batchSize, inShape});
    popart::NDArrayWrapper<int> labelArray(labels.data(),
                                           {batchesPerStep, batchSize});
    popart::NDArrayWrapper<float> lossArray(losses.data(), {batchesPerStep});
    std::map<popart::TensorId, popart::IArray &> inputs = {
        {m.x, dataArray}, {m.label, labelArray}};
    std::map<popart::TensorId, popart::IArray &> anchors = {{loss, lossArray}};
    popart::StepIO stepio(inputs, anchors);
    session.run(stepio);
    float mean = 0.0f;
    for (float l : losses)
      mean += l / float(batchesPerStep);
    std::cout << "Step " << step << ": mean loss " << std::fixed
              << std::setprecision(6) << mean << "\n";
  }
}

} // namespace

int main() {
  auto device = popart::DeviceManager::createDeviceManager().createCpuDevice();

  std::cout << "NllLoss with ConstSGD(0.001)\n";
  {
    Model m = createModel();
    popart::NllLoss nll(m.probs, m.label, "nllLossVal");
    popart::DataFlow dataFlow(batchesPerStep,
                              {{"nllLossVal", popart::AnchorReturnType("ALL")}});
    auto session = popart::TrainingSession::createFromOnnxModel(
        m.proto, dataFlow, {&nll}, popart::ConstSGD(0.001f), device);
    train(*session, m, "nllLossVal", [](int) {});
  }

  std::cout << "nllloss with SGD({\"defaultLearningRate\", {0.1, false}}), "
               "the learning rate halved every step\n";
  {
    Model m = createModel();
    auto builder = popart::Builder::createFromOnnxModel(m.proto);
    auto loss = builder->aiGraphcoreOpset1().nllloss(
        {m.probs, m.label}, popart::ReductionType::Sum);
    popart::SGD optimizer({{"defaultLearningRate", {0.1f, false}}});
    popart::DataFlow dataFlow(batchesPerStep,
                              {{loss, popart::AnchorReturnType("ALL")}});
    auto session = popart::TrainingSession::createFromOnnxModel(
        builder->getModelProto(), dataFlow, loss, optimizer, device);
    float learningRate = 0.1f;
    train(*session, m, loss, [&](int step) {
      if (step == 0)
        return;
      // Update the learning rate between training steps.
      learningRate /= 2.0f;
      popart::SGD changed({{"defaultLearningRate", {learningRate, false}}});
      session->updateOptimizerFromHost(&changed);
    });
  }
  return 0;
}
