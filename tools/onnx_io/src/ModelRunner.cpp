#include <onnx_io/ModelRunner.hpp>

#include <popart/dataflow.hpp>
#include <popart/error.hpp>
#include <popart/inputshapeinfo.hpp>
#include <popart/iarray.hpp>
#include <popart/session.hpp>
#include <popart/sessionoptions.hpp>
#include <popart/stepio.hpp>

#include <onnx/onnx_pb.h>

#include <fstream>
#include <map>
#include <set>

namespace onnx_io {
namespace {

onnx::ModelProto loadModel(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw popart::error("cannot open model file '{}'", path);
  onnx::ModelProto model;
  if (!model.ParseFromIstream(&in))
    throw popart::error("'{}' is not a serialised ONNX ModelProto", path);
  return model;
}

// A host tensor as the IArray StepIO reads and writes: its TensorInfo
// gives the type, so every ONNX type (FLOAT16 too) goes through.
class HostArray : public popart::IArray {
public:
  explicit HostArray(HostTensor &tensor) : tensor(tensor) {}
  void *data() override { return tensor.data(); }
  popart::DataType dataType() const override { return tensor.info.dataType(); }
  std::size_t rank() const override { return std::size_t(tensor.info.rank()); }
  int64_t dim(size_t index) const override { return tensor.info.dim(int(index)); }
  std::size_t nelms() const override { return std::size_t(tensor.info.nelms()); }
  const popart::Shape shape() const override { return tensor.info.shape(); }

private:
  HostTensor &tensor;
};

std::unique_ptr<popart::IArray> wrap(HostTensor &tensor) {
  return std::make_unique<HostArray>(tensor);
}

} // namespace

ModelRunner::ModelRunner(const std::string &modelPath,
                         std::shared_ptr<popart::DeviceInfo> device,
                         const std::map<popart::TensorId, HostTensor> &constants,
                         int batchesPerStep)
    : batchesPerStep_(batchesPerStep) {
  onnx::ModelProto model = loadModel(modelPath);
  auto &graph = *model.mutable_graph();

  std::set<std::string> initializers;
  for (const auto &init : graph.initializer())
    initializers.insert(init.name());

  std::set<std::string> inputNames;
  for (const auto &input : graph.input())
    inputNames.insert(input.name());
  for (const auto &[name, value] : constants)
    if (!inputNames.count(name))
      throw popart::error("'{}' is not an input of {}", name, modelPath);

  // Inputs given as constants become initializers; the rest are streamed.
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> streamed;
  for (const auto &input : graph.input()) {
    auto constant = constants.find(input.name());
    if (constant != constants.end()) {
      toTensorProto(constant->second, input.name(), *graph.add_initializer());
    } else {
      *streamed.Add() = input;
    }
  }
  graph.mutable_input()->Swap(&streamed);

  std::vector<popart::TensorId> inputIds;
  for (const auto &input : graph.input())
    if (!initializers.count(input.name()))
      inputIds.push_back(input.name());
  for (const auto &output : graph.output())
    outputs_.push_back(output.name());

  std::string bytes;
  model.SerializeToString(&bytes);
  popart::DataFlow dataFlow(batchesPerStep, outputs_,
                            popart::AnchorReturnType("All"));
  session_ = popart::InferenceSession::createFromOnnxModel(bytes, dataFlow,
                                                           device);
  session_->prepareDevice();
  session_->weightsFromHost();
  for (const auto &id : inputIds)
    inputs_.push_back({id, session_->getInfo(id)});
}

ModelRunner::~ModelRunner() = default;

std::map<popart::TensorId, HostTensor>
ModelRunner::run(const std::map<popart::TensorId, HostTensor> &given) {
  std::map<popart::TensorId, HostTensor> inputs = given;
  std::map<popart::TensorId, HostTensor> outputs;
  std::vector<std::unique_ptr<popart::IArray>> arrays;
  std::map<popart::TensorId, popart::IArray &> inputArrays, outputArrays;

  for (const auto &input : inputs_) {
    auto found = inputs.find(input.id);
    if (found == inputs.end())
      throw popart::error("no data given for input tensor '{}'", input.id);
    arrays.push_back(wrap(found->second));
    inputArrays.emplace(input.id, *arrays.back());
  }
  for (const auto &id : outputs_) {
    popart::TensorInfo info = session_->getInfo(id);
    popart::Shape shape = info.shape();
    if (batchesPerStep_ > 1)
      shape.insert(shape.begin(), batchesPerStep_);
    HostTensor &out = outputs[id];
    out.info = popart::TensorInfo(info.dataType(), shape);
    out.bytes.assign(std::size_t(out.info.nbytes()), 0);
    arrays.push_back(wrap(out));
    outputArrays.emplace(id, *arrays.back());
  }
  popart::StepIO stepio(inputArrays, outputArrays);
  session_->run(stepio);
  return outputs;
}

GivenInputs splitGivenInputs(const std::string &modelPath,
                             std::map<popart::TensorId, HostTensor> values) {
  const auto compileTime = compileTimeInputs(modelPath);
  GivenInputs split;
  for (auto &[name, tensor] : values) {
    auto &side = tensor.info.dataType() == popart::DataType::INT64 ||
                         compileTime.count(name)
                     ? split.constants
                     : split.streamed;
    side.emplace(name, std::move(tensor));
  }
  return split;
}

std::set<popart::TensorId> compileTimeInputs(const std::string &modelPath) {
  // The operands (by input index) of each op type that fix a result's
  // shape, at any opset.
  static const std::map<std::string, std::set<int>> operands = {
      {"Reshape", {1}},   {"Expand", {1}},         {"Tile", {1}},
      {"Slice", {1, 2, 3, 4}}, {"Pad", {1, 3}},    {"Range", {0, 1, 2}},
      {"CumSum", {1}},    {"OneHot", {1}},         {"Squeeze", {1}},
      {"Unsqueeze", {1}}, {"Resize", {1, 2, 3}},   {"Upsample", {1}},
      {"TopK", {1}},      {"ConstantOfShape", {0}}, {"ReduceSum", {1}},
      {"Split", {1}},     {"Trilu", {1}},          {"Compress", {1}},
      {"NonZero", {0}},   {"HannWindow", {0}},     {"HammingWindow", {0}},
      {"BlackmanWindow", {0}}, {"Unique", {0}},  {"MaxUnpool", {2}},
      {"ReverseSequence", {1}}, {"NonMaxSuppression", {0, 1, 2, 3, 4}},
      {"DFT", {1}},       {"MelWeightMatrix", {0, 1, 2, 3, 4}},
      // A Loop's maximum trip count: the rows of its scan outputs.
      {"Loop", {0}}};
  // Ops whose results follow from their inputs' shapes alone.
  static const std::set<std::string> shapeOnly = {"Shape", "Size", "EyeLike"};
  const onnx::ModelProto model = loadModel(modelPath);
  std::map<std::string, const onnx::NodeProto *> producers;
  for (const auto &node : model.graph().node())
    for (const auto &out : node.output())
      producers[out] = &node;
  // The compile-time operands, then every tensor they are computed from
  // (up to ops that read only shapes).
  std::vector<std::string> work;
  for (const auto &node : model.graph().node()) {
    auto found = operands.find(node.op_type());
    if (found != operands.end())
      for (int i : found->second)
        if (i < node.input_size() && !node.input(i).empty())
          work.push_back(node.input(i));
  }
  std::set<std::string> needed;
  while (!work.empty()) {
    const std::string id = work.back();
    work.pop_back();
    if (!needed.insert(id).second)
      continue;
    auto producer = producers.find(id);
    if (producer == producers.end() ||
        shapeOnly.count(producer->second->op_type()))
      continue;
    for (const auto &in : producer->second->input())
      if (!in.empty())
        work.push_back(in);
  }
  std::set<popart::TensorId> result;
  for (const auto &input : model.graph().input())
    if (needed.count(input.name()))
      result.insert(input.name());
  return result;
}

std::shared_ptr<popart::DeviceInfo> createDevice(const std::string &name) {
  auto &manager = popart::DeviceManager::createDeviceManager();
  if (name == "cpu")
    return manager.createCpuDevice();
  if (name == "ipumodel" || name == "ipumodel2")
    return manager.createIpuModelDevice({{"ipuVersion", "ipu2"}});
  if (name == "ipumodel1")
    return manager.createIpuModelDevice({{"ipuVersion", "ipu1"}});
  throw popart::error("unknown device '{}' (expected cpu, ipumodel or "
                      "ipumodel1)",
                      name);
}

} // namespace onnx_io
