// A convolutional network trained on Fashion-MNIST by a TrainingSession.
//
// The network is built with the Builder: two blocks of convolution, batch
// normalisation, ReLU and 2x2 max pooling, then a fully connected layer and
// a softmax, trained through an NLL loss with SGD and momentum. After each
// epoch the trained weights are copied into an InferenceSession of the same
// network (batch normalisation there uses the running statistics the
// training updated) which classifies the test images.
//
//   make && ./fashion_mnist_cnn /usr/share/datasets/fashion-mnist
//
// Arguments: <data directory> [epochs [training images [test images
// [device]]]], device being "ipu-model" (the default) or "cpu".
#include <popart/builder.hpp>
#include <popart/dataflow.hpp>
#include <popart/devicemanager.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/sgd.hpp>
#include <popart/stepio.hpp>

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const int64_t imageSide = 28, classes = 10;
const int64_t trainBatch = 32, trainBatchesPerStep = 50;
const int64_t testBatch = 100, testBatchesPerStep = 10;

// ---------------------------------------------------------------------------
// The data: IDX files of unsigned bytes, gzip-compressed as Debian ships them
// (zlib reads uncompressed files too).

std::vector<unsigned char> readIdx(const std::string &path, unsigned rank,
                                   std::vector<int64_t> &dims) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr)
    throw std::runtime_error("cannot open " + path);
  std::vector<unsigned char> bytes;
  unsigned char buffer[1 << 16];
  int n;
  while ((n = gzread(f, buffer, sizeof buffer)) > 0)
    bytes.insert(bytes.end(), buffer, buffer + n);
  gzclose(f);
  auto word = [&](std::size_t i) {
    return uint32_t(bytes[i]) << 24 | uint32_t(bytes[i + 1]) << 16 |
           uint32_t(bytes[i + 2]) << 8 | uint32_t(bytes[i + 3]);
  };
  const std::size_t header = 4 + 4 * rank;
  if (n < 0 || bytes.size() < header || word(0) != (0x800u | rank))
    throw std::runtime_error(path + " is not an IDX file of bytes with " +
                             std::to_string(rank) + " dimensions");
  dims.clear();
  std::size_t elements = 1;
  for (unsigned i = 0; i < rank; ++i) {
    dims.push_back(word(4 + 4 * i));
    elements *= std::size_t(dims.back());
  }
  if (bytes.size() < header + elements)
    throw std::runtime_error(path + " is shorter than its header says");
  return {bytes.begin() + header, bytes.begin() + header + elements};
}

struct DataSet {
  std::vector<float> images; // [n][1][28][28], scaled to [0, 1]
  std::vector<int> labels;   // [n]
  int64_t size() const { return int64_t(labels.size()); }
};

DataSet readDataSet(const std::string &dir, const std::string &prefix,
                    int64_t limit) {
  std::vector<int64_t> imageDims, labelDims;
  auto pixels = readIdx(dir + "/" + prefix + "-images-idx3-ubyte.gz", 3,
                        imageDims);
  auto labels = readIdx(dir + "/" + prefix + "-labels-idx1-ubyte.gz", 1,
                        labelDims);
  if (imageDims[1] != imageSide || imageDims[2] != imageSide ||
      imageDims[0] != labelDims[0])
    throw std::runtime_error(dir + "/" + prefix +
                             ": images are not 28x28 or do not match labels");
  const int64_t n = std::min(imageDims[0], limit);
  DataSet set;
  set.images.resize(std::size_t(n * imageSide * imageSide));
  for (std::size_t i = 0; i < set.images.size(); ++i)
    set.images[i] = float(pixels[i]) / 255.0f;
  set.labels.assign(labels.begin(), labels.begin() + n);
  return set;
}

// ---------------------------------------------------------------------------
// The network. Built twice from the same initial weights: for training, batch
// normalisation has its five outputs (it normalises with the batch's
// statistics and updates the running ones); for inference, one.

struct Network {
  std::string proto;
  popart::TensorId images, labels, probs, loss;
};

class NetworkBuilder {
public:
  NetworkBuilder(bool training, int64_t batch)
      : builder(popart::Builder::create()), onnx(builder->aiOnnxOpset9()),
        training(training), random(2024) {
    net.images = builder->addInputTensor(
        popart::TensorInfo("FLOAT", popart::Shape{batch, 1, imageSide, imageSide}),
        "images");
    if (training)
      net.labels = builder->addInputTensor(
          popart::TensorInfo("INT32", popart::Shape{batch}), "labels");
  }

  Network build() {
    auto x = block(net.images, 1, 16, "block1");
    x = block(x, 16, 32, "block2");
    const int64_t features = 32 * (imageSide / 4) * (imageSide / 4);
    x = onnx.flatten({x}, 1);
    auto w = weight({features, classes}, features, "fc/weights");
    auto b = constantWeight({classes}, 0.0f, "fc/bias");
    x = onnx.gemm({x, w, b});
    net.probs = onnx.softmax({x}, 1, "probs");
    if (training)
      net.loss = builder->aiGraphcoreOpset1().nllloss(
          {net.probs, net.labels}, popart::ReductionType::Mean);
    net.proto = builder->getModelProto();
    return net;
  }

private:
  // Convolution (3x3, padded), batch normalisation, ReLU, 2x2 max pooling.
  popart::TensorId block(const popart::TensorId &in, int64_t inChannels,
                         int64_t outChannels, const std::string &name) {
    auto w = weight({outChannels, inChannels, 3, 3}, inChannels * 9,
                    name + "/conv/weights");
    auto x = onnx.conv({in, w}, {1, 1}, 1, {3, 3}, {1, 1, 1, 1}, {1, 1});
    auto scale = constantWeight({outChannels}, 1.0f, name + "/bn/scale");
    auto bias = constantWeight({outChannels}, 0.0f, name + "/bn/bias");
    auto mean = constantWeight({outChannels}, 0.0f, name + "/bn/mean");
    auto var = constantWeight({outChannels}, 1.0f, name + "/bn/var");
    x = onnx.batchnormalization({x, scale, bias, mean, var},
                                training ? 5 : 1)[0];
    x = onnx.relu({x});
    return onnx.maxpool({x}, 1, {2, 2}, {0, 0, 0, 0}, 0, {2, 2})[0];
  }

  // He initialisation, from a fixed seed so both builds agree.
  popart::TensorId weight(const std::vector<int64_t> &shape, int64_t fanIn,
                          const std::string &name) {
    std::normal_distribution<float> normal(0.0f, std::sqrt(2.0f / fanIn));
    auto &values = store(shape);
    for (auto &v : values)
      v = normal(random);
    return builder->addInitializedInputTensor(
        {values.data(), popart::TensorInfo("FLOAT", shape)}, name);
  }

  popart::TensorId constantWeight(const std::vector<int64_t> &shape,
                                  float value, const std::string &name) {
    auto &values = store(shape);
    std::fill(values.begin(), values.end(), value);
    return builder->addInitializedInputTensor(
        {values.data(), popart::TensorInfo("FLOAT", shape)}, name);
  }

  std::vector<float> &store(const std::vector<int64_t> &shape) {
    const auto n = std::accumulate(shape.begin(), shape.end(), int64_t(1),
                                   std::multiplies<int64_t>());
    initialValues.emplace_back(std::size_t(n));
    return initialValues.back();
  }

  std::unique_ptr<popart::Builder> builder;
  popart::AiOnnxOpset9 onnx;
  bool training;
  std::mt19937 random;
  std::vector<std::vector<float>> initialValues;
  Network net;
};

// ---------------------------------------------------------------------------
// Training and testing.

// One pass over the training images in a new random order; returns the mean
// loss.
float trainEpoch(popart::TrainingSession &session, const Network &net,
                 const DataSet &data, std::mt19937 &random) {
  const int64_t perStep = trainBatch * trainBatchesPerStep;
  const int64_t steps = data.size() / perStep;
  if (steps == 0)
    throw std::runtime_error("fewer training images than one step's " +
                             std::to_string(perStep));
  const int64_t pixels = imageSide * imageSide;
  std::vector<int64_t> order(std::size_t(data.size()));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), random);

  std::vector<float> images(std::size_t(perStep * pixels));
  std::vector<int> labels(static_cast<std::size_t>(perStep));
  std::vector<float> losses(static_cast<std::size_t>(trainBatchesPerStep));
  double total = 0;
  for (int64_t step = 0; step < steps; ++step) {
    for (int64_t i = 0; i < perStep; ++i) {
      const int64_t from = order[std::size_t(step * perStep + i)];
      std::copy_n(data.images.begin() + from * pixels, pixels,
                  images.begin() + i * pixels);
      labels[std::size_t(i)] = data.labels[std::size_t(from)];
    }
    popart::NDArrayWrapper<float> imageArray(
        images.data(), {trainBatchesPerStep, trainBatch, 1, imageSide,
                        imageSide});
    popart::NDArrayWrapper<int> labelArray(labels.data(),
                                           {trainBatchesPerStep, trainBatch});
    popart::NDArrayWrapper<float> lossArray(losses.data(),
                                            {trainBatchesPerStep});
    std::map<popart::TensorId, popart::IArray &> inputs = {
        {net.images, imageArray}, {net.labels, labelArray}};
    std::map<popart::TensorId, popart::IArray &> anchors = {
        {net.loss, lossArray}};
    popart::StepIO stepio(inputs, anchors);
    session.run(stepio);
    for (float l : losses)
      total += l;
  }
  return float(total / double(steps * trainBatchesPerStep));
}

// The percentage of test images whose most probable class is their label.
float testAccuracy(popart::InferenceSession &session, const Network &net,
                   const DataSet &data) {
  const int64_t perStep = testBatch * testBatchesPerStep;
  const int64_t steps = data.size() / perStep;
  if (steps == 0)
    throw std::runtime_error("fewer test images than one step's " +
                             std::to_string(perStep));
  const int64_t pixels = imageSide * imageSide;
  std::vector<float> probs(std::size_t(perStep * classes));
  int64_t correct = 0;
  for (int64_t step = 0; step < steps; ++step) {
    popart::NDArrayWrapper<float> imageArray(
        const_cast<float *>(data.images.data()) + step * perStep * pixels,
        {testBatchesPerStep, testBatch, 1, imageSide, imageSide});
    popart::NDArrayWrapper<float> probArray(
        probs.data(), {testBatchesPerStep, testBatch, classes});
    std::map<popart::TensorId, popart::IArray &> inputs = {
        {net.images, imageArray}};
    std::map<popart::TensorId, popart::IArray &> anchors = {
        {net.probs, probArray}};
    popart::StepIO stepio(inputs, anchors);
    session.run(stepio);
    for (int64_t i = 0; i < perStep; ++i) {
      auto row = probs.begin() + i * classes;
      const auto predicted = std::max_element(row, row + classes) - row;
      correct += predicted == data.labels[std::size_t(step * perStep + i)];
    }
  }
  return 100.0f * float(correct) / float(steps * perStep);
}

// Copies every weight of the training session (the running statistics of
// batch normalisation included) into the inference session.
void copyWeights(popart::TrainingSession &from, popart::InferenceSession &to,
                 const std::vector<std::string> &ids) {
  from.weightsToHost();
  std::vector<std::vector<float>> buffers;
  buffers.reserve(ids.size());
  popart::WeightsIO io;
  for (const auto &id : ids) {
    auto info = from.getInfo(id);
    buffers.emplace_back(std::size_t(info.nelms()));
    io.insert(id, {buffers.back().data(), info});
  }
  from.readWeights(io);
  to.writeWeights(io);
  to.weightsFromHost();
}

int64_t argument(int argc, char **argv, int i, int64_t otherwise) {
  return argc > i ? std::stoll(argv[i]) : otherwise;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0]
              << " <data directory> [epochs [training images [test images "
                 "[ipu-model|cpu]]]]\n";
    return 1;
  }
  const std::string dir = argv[1];
  const int epochs = int(argument(argc, argv, 2, 2));
  const auto train = readDataSet(dir, "train", argument(argc, argv, 3, 60000));
  const auto test = readDataSet(dir, "t10k", argument(argc, argv, 4, 10000));
  const std::string deviceName = argc > 5 ? argv[5] : "ipu-model";
  std::cout << "Fashion-MNIST: " << train.size() << " training images, "
            << test.size() << " test images\n";

  auto &manager = popart::DeviceManager::createDeviceManager();
  std::shared_ptr<popart::DeviceInfo> device;
  if (deviceName == "cpu")
    device = manager.createCpuDevice();
  else if (deviceName == "ipu-model")
    device = manager.createIpuModelDevice({{"numIPUs", "1"}});
  else
    throw std::runtime_error("unknown device '" + deviceName +
                             "' (ipu-model or cpu)");

  const Network trainNet = NetworkBuilder(true, trainBatch).build();
  const Network testNet = NetworkBuilder(false, testBatch).build();

  popart::SGD optimizer({{"defaultLearningRate", {0.02f, true}},
                         {"defaultMomentum", {0.9f, true}},
                         {"defaultWeightDecay", {1e-4f, true}}});
  auto training = popart::TrainingSession::createFromOnnxModel(
      trainNet.proto,
      popart::DataFlow(trainBatchesPerStep,
                       {{trainNet.loss, popart::AnchorReturnType("ALL")}}),
      trainNet.loss, optimizer, device);
  training->prepareDevice();
  training->weightsFromHost();

  // The inference session runs on a device of its own, and holds the
  // model's initializers as weights (not constants) so that they can be
  // overwritten by the trained ones.
  popart::SessionOptions testOptions;
  testOptions.constantWeights = false;
  auto testDevice = deviceName == "cpu"
                        ? manager.createCpuDevice()
                        : manager.createIpuModelDevice({{"numIPUs", "1"}});
  auto inference = popart::InferenceSession::createFromOnnxModel(
      testNet.proto,
      popart::DataFlow(testBatchesPerStep,
                       {{testNet.probs, popart::AnchorReturnType("ALL")}}),
      testDevice, popart::InputShapeInfo(), testOptions);
  inference->prepareDevice();

  const std::vector<std::string> weights = {
      "block1/conv/weights", "block1/bn/scale", "block1/bn/bias",
      "block1/bn/mean",      "block1/bn/var",   "block2/conv/weights",
      "block2/bn/scale",     "block2/bn/bias",  "block2/bn/mean",
      "block2/bn/var",       "fc/weights",      "fc/bias"};
  std::mt19937 shuffle(7);
  float accuracy = 0;
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    const float loss = trainEpoch(*training, trainNet, train, shuffle);
    copyWeights(*training, *inference, weights);
    accuracy = testAccuracy(*inference, testNet, test);
    std::cout << "Epoch " << epoch << ": mean loss " << std::fixed
              << std::setprecision(4) << loss << ", test accuracy "
              << std::setprecision(2) << accuracy << " %\n";
  }
  std::cout << "Test accuracy: " << std::fixed << std::setprecision(2)
            << accuracy << " %\n";
  return 0;
}
