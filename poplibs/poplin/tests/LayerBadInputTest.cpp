// Bad input to the PopLibs layers and operations that BadInputTest.cpp
// leaves out: poplin's convolutions, popnn's pooling, batch norm,
// non-linearities and losses, poprand's generators and popops' casts,
// scaled additions, one-hot encodings, sorts, pads and multi-slices. Each
// is the original's poputil::poplibs_error with a message naming the
// function and the tensor or parameter at fault, and the graph stays
// usable: a program built on it after every error compiles, runs and
// agrees with a host loop.
#include "ExpectError.hpp"
#include "MappedVariable.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/ConvParams.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/codelets.hpp>
#include <popnn/BatchNorm.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/Pooling.hpp>
#include <popnn/codelets.hpp>
#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/Encoding.hpp>
#include <popops/Pad.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Sort.hpp>
#include <popops/codelets.hpp>
#include <poprand/RandomGen.hpp>
#include <poprand/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

using poputil::poplibs_error;
using sdktest::expectError;
using sdktest::mapped;

TEST_CASE("Bad input to convolutions, pooling, norms, losses, random "
          "generators and popops operations is refused naming it, and the "
          "graph stays usable",
          "[poplibs][errors]") {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  poprand::addCodelets(graph);
  Sequence prog;
  Tensor in = mapped(graph, FLOAT, {1, 2, 4, 4}, "image");
  Tensor x23 = mapped(graph, FLOAT, {2, 3}, "x23");

  // A 3x3 convolution of 2 channels into 3.
  const poplin::ConvParams conv(FLOAT, 1, {4, 4}, {3, 3}, 2, 3, 1);
  expectError<poplibs_error>(
      "convolution weights with a 2x2 kernel for a 3x3 convolution",
      [&] {
        Tensor w = mapped(graph, FLOAT, {1, 3, 2, 2, 2}, "weights2x2");
        poplin::convolution(graph, in, w, conv, false, prog, "badConv");
      },
      {"convolution", "weights"});
  expectError<poplibs_error>(
      "convolution parameters whose kernel has fewer dimensions than the "
      "field",
      [&] {
        const poplin::ConvParams params(FLOAT, 1, {4, 4}, {3}, 2, 3, 1);
        Tensor w = mapped(graph, FLOAT, {1, 3, 2, 3}, "weights1d");
        poplin::convolution(graph, in, w, params, false, prog, "badParams");
      },
      {"ConvParams", "kernel shape"});

  const popnn::pooling::PoolParams pool(popnn::PoolingType::MAX, {4, 4},
                                        {2, 2}, {2, 2}, {0, 0}, {0, 0}, 3, 1,
                                        FLOAT);
  expectError<poplibs_error>(
      "pooling an input of 2 channels with parameters of 3",
      [&] { popnn::pooling::pool(graph, pool, in, prog, "badPool"); },
      {"pool", "'image'", "[1,3,4,4]"});
  expectError<poplibs_error>(
      "pooling with a kernel larger than the field",
      [&] {
        const popnn::pooling::PoolParams large(popnn::PoolingType::AVG, {4, 4},
                                               {5, 5}, {1, 1}, {0, 0}, {0, 0},
                                               2, 1, FLOAT);
        popnn::pooling::pool(graph, large, in, prog, "largePool");
      },
      {"PoolParams", "kernel is larger"});

  expectError<poplibs_error>(
      "a batch norm whose gamma has one element per channel too many",
      [&] {
        Tensor gamma = mapped(graph, FLOAT, {3}, "gamma3");
        Tensor beta = mapped(graph, FLOAT, {2}, "beta2");
        Tensor mean = mapped(graph, FLOAT, {2}, "mean2");
        Tensor isd = mapped(graph, FLOAT, {2}, "isd2");
        popnn::bn::batchNormalise(graph, in, gamma, beta, mean, isd, prog);
      },
      {"gamma", "'gamma3'"});

  expectError<poplibs_error>(
      "labels of another batch size than the model outputs",
      [&] {
        Tensor labels = mapped(graph, UNSIGNED_INT, {3}, "labels3");
        Tensor loss = mapped(graph, FLOAT, {2}, "loss");
        Tensor deltas = mapped(graph, FLOAT, {2, 3}, "deltas");
        popnn::calcLoss(graph, x23, labels, loss, deltas,
                        popnn::LossType::SUM_SQUARED_LOSS);
      },
      {"'labels3'", "'x23'"});
  expectError<poplibs_error>(
      "an argMax of a vector",
      [&] { popnn::argMax(graph, mapped(graph, FLOAT, {6}, "vec6"), prog); },
      {"'vec6'"});

  expectError<poplibs_error>(
      "uniform values between a maximum below the minimum",
      [&] {
        poprand::uniform(graph, nullptr, 0, x23, FLOAT, 2.0, 1.0, prog);
      },
      {"poprand::uniform", "maxVal", "minVal"});
  expectError<poplibs_error>(
      "a normal distribution of integers",
      [&] { poprand::normal(graph, nullptr, 0, x23, INT, 0.0, 1.0, prog); },
      {"poprand::normal", "int", "'x23'"});

  expectError<poplibs_error>(
      "a cast into a tensor of another shape",
      [&] {
        prog.add(popops::cast(graph, x23, mapped(graph, INT, {3, 2}, "i32")));
      },
      {"popops::cast", "'x23'", "'i32'"});
  expectError<poplibs_error>(
      "a scaled addition of tensors of different shapes",
      [&] {
        popops::scaledAddTo(graph, x23, mapped(graph, FLOAT, {3, 2}, "f32"),
                            0.5f, prog);
      },
      {"'x23'", "'f32'"});
  expectError<poplibs_error>(
      "a one-hot encoding with a row per index too few",
      [&] {
        popops::encodeOneHot(graph, mapped(graph, UNSIGNED_INT, {3}, "idx3"),
                             mapped(graph, FLOAT, {2, 4}, "onehot24"), prog);
      },
      {"'onehot24'"});
  expectError<poplibs_error>(
      "a sort of booleans",
      [&] { popops::sort(graph, mapped(graph, BOOL, {4}, "flags"), 0, prog); },
      {"'flags'", "sorted"});
  expectError<poplibs_error>(
      "a pad with amounts for one dimension of two",
      [&] { popops::pad(graph, x23, {1}, {1}); }, {"pad", "'x23'"});
  expectError<poplibs_error>(
      "a multi-slice of a dimension the tensor lacks",
      [&] {
        Tensor offsets = mapped(graph, UNSIGNED_INT, {2, 1}, "offsets");
        popops::multiSlice(graph, x23, offsets, {5}, {1}, prog,
                           popops::SlicePlan(), {});
      },
      {"'x23'"});

  // The graph as it is now: relu(x) + 0.5 x, each row then sorted.
  Tensor x = mapped(graph, FLOAT, {2, 3}, "x");
  Sequence good;
  Tensor y = popnn::nonLinearity(graph, popnn::NonLinearityType::RELU, x, good);
  popops::scaledAddTo(graph, y, x, 0.5f, good);
  Tensor sorted = popops::sort(graph, y, 1, good);
  graph.createHostWrite("x", x);
  graph.createHostRead("sorted", sorted);
  Engine engine(graph, good);
  engine.load(device);
  const std::vector<float> xs{1, -2, 3, -4, 5, 0.5f};
  engine.writeTensor("x", xs.data(), xs.data() + 6);
  engine.run();
  std::vector<float> got(6);
  engine.readTensor("sorted", got.data(), got.data() + 6);
  for (int r = 0; r != 2; ++r) {
    std::vector<float> want;
    for (int c = 0; c != 3; ++c) {
      const float v = xs[r * 3 + c];
      want.push_back(std::max(v, 0.0f) + 0.5f * v);
    }
    std::sort(want.begin(), want.end());
    for (int c = 0; c != 3; ++c)
      CHECK(got[r * 3 + c] == Approx(want[c]));
  }
}
