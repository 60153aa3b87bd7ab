// Bad shapes and attributes given to ONNX ops that the other error tests
// do not cover: as in the original, the builder takes the node (ONNX's
// shape inference only notes what it cannot infer) and session creation
// refuses it with a popart::error naming the node and its op type. After
// every refusal a session of a good model in the same process runs and
// gives the host's values.
#include "ExpectError.hpp"

#include "SessionRun.hpp"

#include <popart/builder.hpp>
#include <popart/devicemanager.hpp>
#include <popart/error.hpp>
#include <popart/session.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

using namespace popart;

namespace {

using Floats = std::vector<float>;

// The node under test, added to a builder that has the input x [2,3].
using AddBadNode =
    std::function<TensorId(Builder &, AiOnnxOpset13 &, const TensorId &x)>;

struct BadNode {
  std::string name;   // the node's name, which the error must give
  std::string opType; // which the error must give too
  AddBadNode add;
};

TensorId int64s(AiOnnxOpset13 &o, const std::vector<int64_t> &values) {
  return o.constant(ConstVoidData(values.data(),
                                  TensorInfo(DataType::INT64,
                                             Shape{int64_t(values.size())})));
}

TensorId floats(Builder &b, const Floats &values, const Shape &shape) {
  return b.addInitializedInputTensor(
      ConstVoidData(values.data(), TensorInfo(DataType::FLOAT, shape)));
}

std::shared_ptr<DeviceInfo> cpu() {
  return DeviceManager::createDeviceManager().createCpuDevice();
}

const std::vector<BadNode> &badNodes() {
  static const Floats six(6, 1.0f), twenty(20, 1.0f);
  static const std::vector<BadNode> nodes = {
      {"badAdd", "Add",
       [](Builder &b, AiOnnxOpset13 &o, const TensorId &x) {
         return o.add({x, floats(b, Floats(4, 1.0f), {4})}, "badAdd");
       }},
      {"badConcat", "Concat",
       [](Builder &b, AiOnnxOpset13 &o, const TensorId &x) {
         return o.concat({x, floats(b, Floats(8, 1.0f), {2, 4})}, 0,
                         "badConcat");
       }},
      {"badReshape", "Reshape",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.reshape({x, int64s(o, {4, 2})}, "badReshape");
       }},
      {"badTranspose", "Transpose",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.transpose({x}, {0, 0}, "badTranspose");
       }},
      {"badSoftmax", "Softmax",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.softmax({x}, 2, "badSoftmax");
       }},
      {"badGather", "Gather",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.gather({x, int64s(o, {0})}, 3, "badGather");
       }},
      {"badReduceSum", "ReduceSum",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.reducesum({x, int64s(o, {5})}, 1, 0, "badReduceSum");
       }},
      {"badSplit", "Split",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.split({x, int64s(o, {2, 2})}, 2, 1, "badSplit").at(0);
       }},
      {"badSqueeze", "Squeeze",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.squeeze({x, int64s(o, {0})}, "badSqueeze");
       }},
      {"badUnsqueeze", "Unsqueeze",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.unsqueeze({x, int64s(o, {7})}, "badUnsqueeze");
       }},
      {"badExpand", "Expand",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.expand({x, int64s(o, {4, 3})}, "badExpand");
       }},
      {"badPad", "Pad",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.pad({x, int64s(o, {1, 1, 1})}, "constant", "badPad");
       }},
      {"badTile", "Tile",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.tile({x, int64s(o, {2})}, "badTile");
       }},
      {"badTopK", "TopK",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.topk({x, int64s(o, {5})}, -1, 1, 1, "badTopK").at(0);
       }},
      {"badFlatten", "Flatten",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.flatten({x}, 3, "badFlatten");
       }},
      {"badGemm", "Gemm",
       [](Builder &b, AiOnnxOpset13 &o, const TensorId &x) {
         return o.gemm({x, floats(b, twenty, {4, 5})}, 1.0f, 1.0f, 0, 0,
                       "badGemm");
       }},
      {"badSlice", "Slice",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.slice({x, int64s(o, {0, 0}), int64s(o, {1})}, "badSlice");
       }},
      {"badWhere", "Where",
       [](Builder &b, AiOnnxOpset13 &o, const TensorId &x) {
         TensorId condition = o.greater({x, floats(b, six, {2, 3})});
         return o.where({condition, x, floats(b, Floats(4, 1.0f), {4})},
                        "badWhere");
       }},
      {"badArgMax", "ArgMax",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.argmax({x}, 4, 1, 0, "badArgMax");
       }},
      {"badCumSum", "CumSum",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.cumsum({x, int64s(o, {6})}, 0, 0, "badCumSum");
       }},
      {"badGatherElements", "GatherElements",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         return o.gatherelements({x, int64s(o, {0, 1})}, 0,
                                 "badGatherElements");
       }},
      {"badAveragePool", "AveragePool",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         TensorId image = o.reshape({x, int64s(o, {1, 1, 2, 3})});
         return o.averagepool({image}, {2, 2, 2}, 0, 0, {}, {}, "badAveragePool");
       }},
      {"badBatchNorm", "BatchNormalization",
       [](Builder &b, AiOnnxOpset13 &o, const TensorId &x) {
         TensorId image = o.reshape({x, int64s(o, {1, 2, 3, 1})});
         TensorId two = floats(b, Floats(2, 1.0f), {2});
         TensorId three = floats(b, Floats(3, 1.0f), {3});
         return o.batchnormalization({image, three, two, two, two}, 1, 1e-5f,
                                     0.9f, "badBatchNorm")
             .at(0);
       }},
      {"badInstanceNorm", "InstanceNormalization",
       [](Builder &b, AiOnnxOpset13 &o, const TensorId &x) {
         TensorId image = o.reshape({x, int64s(o, {1, 2, 3})});
         TensorId three = floats(b, Floats(3, 1.0f), {3});
         return o.instancenormalization({image, three, three}, 1e-5f,
                                        "badInstanceNorm");
       }},
      {"badDepthToSpace", "DepthToSpace",
       [](Builder &, AiOnnxOpset13 &o, const TensorId &x) {
         TensorId image = o.reshape({x, int64s(o, {1, 3, 2, 1})});
         return o.depthtospace({image}, 2, "DCR", "badDepthToSpace");
       }},
      {"badOneHot", "OneHot",
       [](Builder &b, AiOnnxOpset13 &o, const TensorId &) {
         TensorId indices = int64s(o, {0, 1});
         TensorId values = floats(b, Floats{0.0f, 1.0f}, {2});
         return o.onehot({indices, int64s(o, {-3}), values}, -1, "badOneHot");
       }},
  };
  return nodes;
}

} // namespace

TEST_CASE("Ops of bad shapes or attributes are refused at session creation "
          "naming the node, and a good session runs afterwards",
          "[popart][errors]") {
  for (const auto &bad : badNodes()) {
    auto builder = Builder::create();
    auto o = builder->aiOnnxOpset13();
    TensorId x =
        builder->addInputTensor(TensorInfo(DataType::FLOAT, Shape{2, 3}), "x");
    TensorId y = bad.add(*builder, o, x);
    builder->addOutputTensor(y);
    const std::string proto = builder->getModelProto();
    sdktest::expectError<popart::error>(
        bad.name,
        [&] {
          InferenceSession::createFromOnnxModel(
              proto, DataFlow(1, {{y, AnchorReturnType("All")}}), cpu())
              ->prepareDevice();
        },
        {bad.name, bad.opType});
  }

  // softmax(x + 1) over the last axis, against the host.
  auto builder = Builder::create();
  auto o = builder->aiOnnxOpset13();
  TensorId x =
      builder->addInputTensor(TensorInfo(DataType::FLOAT, Shape{2, 3}), "x");
  TensorId y = o.softmax({o.add({x, floats(*builder, Floats(6, 1.0f), {2, 3})})});
  builder->addOutputTensor(y);
  auto session = InferenceSession::createFromOnnxModel(
      builder->getModelProto(), DataFlow(1, {{y, AnchorReturnType("All")}}),
      cpu());
  session->prepareDevice();
  const Floats x0 = {0.5f, -1.0f, 2.0f, 1.5f, 0.25f, -0.75f};
  const Floats got = popart_test::runStep(*session, {{x, x0}}, {{y, 6}})[y];
  for (int r = 0; r != 2; ++r) {
    double sum = 0;
    for (int c = 0; c != 3; ++c)
      sum += std::exp(double(x0[r * 3 + c]) + 1);
    for (int c = 0; c != 3; ++c)
      CHECK(got[r * 3 + c] ==
            Approx(std::exp(double(x0[r * 3 + c]) + 1) / sum));
  }
}
