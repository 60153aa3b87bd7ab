// Tutorial 5: a basic machine learning example.
//
// Trains a logistic regression (softmax regression) of 28x28 images into
// 10 classes, y = softmax(x W + b), by mini-batch gradient descent on the
// cross-entropy loss, on the IPU Model, then prints its accuracy on the
// test images. The data are MNIST-format IDX files in data/, which
// ./get_data.sh unpacks from Debian's dataset-fashion-mnist package:
//
//   ./get_data.sh
//   ./regression-demo [-IPU] [epochs [percent]]
//
// `epochs` (default 3) passes over `percent` (default 100) of the training
// images; -IPU runs on an IPU found by the DeviceManager (on this SDK, an
// IPU Model standing in for one when POPLAR_IPU_MODEL_AS_HARDWARE is set).
#include "../mnist.h"

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

constexpr unsigned numClasses = 10;
constexpr unsigned batchSize = 100;
constexpr float learningRate = 0.1f; // for the update to add

// Small normally distributed initial weights, from a fixed seed so that
// every run prints the same.
std::vector<float> initialValues(std::size_t n, float stddev) {
  std::mt19937 randomEngine(42);
  std::normal_distribution<float> dist(0.0f, stddev);
  std::vector<float> v(n);
  for (auto &x : v)
    x = dist(randomEngine);
  return v;
}

// The model's parameters and one batch of inputs.
struct Model {
  Tensor x;       // [batch][imageSize] pixels
  Tensor labels;  // [batch] classes
  Tensor W;       // [imageSize][classes]
  Tensor b;       // [classes]
  Tensor numCorrect;
};

Model createModel(Graph &graph, unsigned imageSize) {
  Model m;
  m.x = poplin::createMatMulInputLHS(graph, FLOAT, {batchSize, imageSize},
                                     {imageSize, numClasses}, "x");
  m.W = poplin::createMatMulInputRHS(graph, FLOAT, {batchSize, imageSize},
                                     {imageSize, numClasses}, "W");
  m.b = graph.addVariable(FLOAT, {numClasses}, "b");
  poputil::mapTensorLinearly(graph, m.b);
  m.labels = graph.addVariable(UNSIGNED_INT, {batchSize}, "labels");
  poputil::mapTensorLinearly(graph, m.labels);
  m.numCorrect = graph.addVariable(UNSIGNED_INT, {1}, "numCorrect");
  graph.setTileMapping(m.numCorrect, 0);
  return m;
}

// probabilities = softmax(x W + b)
Tensor forward(Graph &graph, const Model &m, Sequence &prog) {
  Tensor logits = poplin::matMul(graph, m.x, m.W, prog, "xW");
  popops::addInPlace(graph, logits, m.b, prog, "xW+b");
  return popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX_STABLE,
                             logits, prog, "softmax(xW+b)");
}

// One step of gradient descent on a batch: for now it only computes the
// loss and its gradient with respect to the logits, (p - onehot), into
// `deltas`, so the model does not learn yet.
//
// TODO: update the parameters. The gradients of the loss are
// dE/dW = x^T deltas (poplin::matMul of m.x.transpose() and deltas) and
// dE/db = the sum of deltas over the batch (popops::reduce over dimension
// 0); subtract learningRate / batchSize times each from m.W and m.b with
// popops::scaledAddTo. complete/regression-demo.cpp shows one way.
Sequence trainingStep(Graph &graph, const Model &m) {
  Sequence prog;
  Tensor probabilities = forward(graph, m, prog);
  Tensor loss = graph.addVariable(FLOAT, {batchSize}, "loss");
  poputil::mapTensorLinearly(graph, loss);
  Tensor deltas = graph.clone(probabilities, "deltas");
  prog.add(popnn::calcLoss(graph, probabilities, m.labels, loss, deltas,
                           m.numCorrect, popnn::CROSS_ENTROPY_LOSS,
                           "dE/d(xW+b)"));
  return prog;
}

// The number of correct classifications of a batch, without training.
Sequence evaluationStep(Graph &graph, const Model &m) {
  Sequence prog;
  Tensor probabilities = forward(graph, m, prog);
  prog.add(popnn::calcAccuracy(graph, probabilities, m.labels, m.numCorrect,
                               "accuracy"));
  return prog;
}

// Zeroes the count of correct classifications, repeats `step` `batches`
// times on batches read from the streams (calcLoss and calcAccuracy add
// each batch's count to m.numCorrect), then sends the total to the host.
Sequence overBatches(Graph &graph, const Model &m, const Program &step,
                     unsigned batches, const std::string &prefix,
                     unsigned imageSize) {
  DataStream images =
      graph.addHostToDeviceFIFO(prefix + "Images", FLOAT, batchSize * imageSize);
  DataStream labels =
      graph.addHostToDeviceFIFO(prefix + "Labels", UNSIGNED_INT, batchSize);
  DataStream correct =
      graph.addDeviceToHostFIFO(prefix + "Correct", UNSIGNED_INT, 1);
  Sequence body;
  body.add(Copy(images, m.x));
  body.add(Copy(labels, m.labels));
  body.add(step);
  Sequence prog;
  popops::zero(graph, m.numCorrect, prog, "zero");
  prog.add(Repeat(batches, body));
  prog.add(Copy(m.numCorrect, correct));
  return prog;
}

} // namespace

int main(int argc, char **argv) {
  // regression-demo [-IPU] [epochs [percent]]
  int arg = 1;
  const bool useIpu = argc > 1 && std::strcmp(argv[1], "-IPU") == 0;
  if (useIpu)
    ++arg;
  unsigned epochs = 3;
  float percent = 100.0f;
  try {
    if (argc > arg)
      epochs = std::stoul(argv[arg]);
    if (argc > arg + 1)
      percent = std::stof(argv[arg + 1]);
  } catch (const std::exception &) {
    std::cerr << "usage: " << argv[0] << " [-IPU] [epochs [percent]]\n";
    return 1;
  }

  unsigned numberOfImages = 0, imageSize = 0, numberOfTestImages = 0,
           testImageSize = 0;
  std::vector<float> data, testData;
  std::vector<unsigned> labels, testLabels;
  try {
    data = readMNISTData(numberOfImages, imageSize,
                         "data/train-images-idx3-ubyte");
    labels = readMNISTLabels("data/train-labels-idx1-ubyte");
    testData = readMNISTData(numberOfTestImages, testImageSize,
                             "data/t10k-images-idx3-ubyte");
    testLabels = readMNISTLabels("data/t10k-labels-idx1-ubyte");
  } catch (const std::exception &e) {
    std::cerr << "Error reading the data: " << e.what() << "\n";
    return 1;
  }
  if (labels.size() != numberOfImages || testLabels.size() != numberOfTestImages ||
      testImageSize != imageSize) {
    std::cerr << "Error: the images and labels in data/ do not match\n";
    return 1;
  }
  const unsigned usedImages = std::min<unsigned>(
      numberOfImages, unsigned(percent / 100.0f * numberOfImages));
  const unsigned trainBatches = usedImages / batchSize;
  const unsigned testBatches = numberOfTestImages / batchSize;
  if (trainBatches == 0 || testBatches == 0) {
    std::cerr << "Error: fewer images than one batch (" << batchSize << ")\n";
    return 1;
  }

  Device device;
  if (useIpu) {
    std::cout << "Using the IPU\n";
    DeviceManager manager = DeviceManager::createDeviceManager();
    std::vector<Device> devices = manager.getDevices(TargetType::IPU, 1);
    auto it = std::find_if(devices.begin(), devices.end(),
                           [](Device &d) { return d.attach(); });
    if (it == devices.end()) {
      std::cerr << "Error attaching to device\n";
      return 1;
    }
    device = std::move(*it);
  } else {
    std::cout << "Using the IPU Model\n";
    IPUModel ipuModel;
    ipuModel.numIPUs = 1;
    ipuModel.tilesPerIPU = 4;
    device = ipuModel.createDevice();
  }
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);

  Model m = createModel(graph, imageSize);
  graph.createHostWrite("weights", m.W);
  graph.createHostWrite("biases", m.b);

  // Program 0 trains on a tenth of an epoch's batches (so that progress
  // can be printed); program 1 classifies the test images.
  const unsigned reports = std::min(10u, trainBatches);
  const unsigned batchesPerReport = trainBatches / reports;
  Sequence train = overBatches(graph, m, trainingStep(graph, m),
                               batchesPerReport, "train", imageSize);
  Sequence test = overBatches(graph, m, evaluationStep(graph, m), testBatches,
                              "test", imageSize);

  Engine engine(graph, {train, test});
  engine.load(device);
  // The streams read the images and labels in a circle: each run of the
  // training program takes the next batches.
  const std::size_t trained = std::size_t(batchesPerReport) * reports * batchSize;
  engine.connectStream("trainImages", data.data(), data.data() + trained * imageSize);
  engine.connectStream("trainLabels", labels.data(), labels.data() + trained);
  engine.connectStream("testImages", testData.data(),
                       testData.data() + std::size_t(testBatches) * batchSize * imageSize);
  engine.connectStream("testLabels", testLabels.data(),
                       testLabels.data() + std::size_t(testBatches) * batchSize);
  unsigned correct = 0;
  engine.connectStream("trainCorrect", &correct);
  engine.connectStream("testCorrect", &correct);

  const auto initW = initialValues(m.W.numElements(), 0.01f);
  const std::vector<float> initB(numClasses, 0.0f);
  engine.writeTensor("weights", initW.data(), initW.data() + initW.size());
  engine.writeTensor("biases", initB.data(), initB.data() + initB.size());

  for (unsigned epoch = 1; epoch <= epochs; ++epoch) {
    for (unsigned report = 1; report <= reports; ++report) {
      engine.run(0);
      std::cout << "Epoch " << epoch << " (" << report * 100 / reports
                << "%), accuracy " << correct * 100 / (batchesPerReport * batchSize)
                << "%\n";
    }
  }

  engine.run(1);
  const unsigned tested = testBatches * batchSize;
  char line[128];
  std::snprintf(line, sizeof line, "Test accuracy: %.1f%% (%u of %u images)",
                100.0 * correct / tested, correct, tested);
  std::cout << line << "\n";
  return 0;
}
