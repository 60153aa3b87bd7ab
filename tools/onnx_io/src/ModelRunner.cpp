#include <onnx_io/ModelRunner.hpp>

#include <popart/dataflow.hpp>
#include <popart/error.hpp>
#include <popart/inputshapeinfo.hpp>
#include <popart/iarray.hpp>
#include <popart/session.hpp>
#include <popart/sessionoptions.hpp>
#include <popart/stepio.hpp>

#include <onnx/onnx_pb.h>

#include <algorithm>
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

bool isSequenceOrOptional(const onnx::TypeProto &type) {
  return type.value_case() == onnx::TypeProto::kSequenceType ||
         type.value_case() == onnx::TypeProto::kOptionalType;
}

// The node that gathers element tensors `name[k]` into the sequence `out`.
onnx::NodeProto sequenceNode(const HostValue &sequence, const std::string &name,
                             const std::string &out) {
  onnx::NodeProto node;
  node.add_output(out);
  if (sequence.elements.empty()) {
    node.set_op_type("SequenceEmpty");
    auto *dtype = node.add_attribute();
    dtype->set_name("dtype");
    dtype->set_type(onnx::AttributeProto::INT);
    dtype->set_i(sequence.elementType ? sequence.elementType
                                      : int(onnx::TensorProto::FLOAT));
    return node;
  }
  node.set_op_type("SequenceConstruct");
  for (const auto &[id, tensor] : flatten(sequence, name))
    node.add_input(id);
  return node;
}

// Sequence and optional graph inputs become tensor inputs `name[k]`
// gathered by nodes put before the others: the IR then knows each one's
// structure (ir/SequenceImport.hpp in popart).
void bindSequenceInputs(onnx::ModelProto &model,
                        const std::map<popart::TensorId, HostValue> &given,
                        const std::string &modelPath) {
  auto &graph = *model.mutable_graph();
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> inputs;
  std::vector<onnx::NodeProto> gathering;
  std::set<std::string> bound;
  for (const auto &input : graph.input()) {
    if (!isSequenceOrOptional(input.type())) {
      *inputs.Add() = input;
      continue;
    }
    const std::string &name = input.name();
    auto found = given.find(name);
    if (found == given.end())
      throw popart::error("no value is given for the {} input '{}' of {}: its "
                          "structure fixes the session, so it cannot be made "
                          "up",
                          input.type().has_sequence_type() ? "sequence"
                                                           : "optional",
                          name, modelPath);
    const HostValue &value = found->second;
    const HostValue form = formOf(input.type(), "input '" + name + "'");
    if (value.kind != form.kind ||
        (value.kind == HostValue::Kind::Optional && !value.elements.empty() &&
         (value.elements[0].kind == HostValue::Kind::Sequence) !=
             form.ofSequence))
      throw popart::error("the value given for input '{}' of {} is {}, which "
                          "does not match the input's type",
                          name, modelPath, describe(value));
    bound.insert(name);
    for (const auto &[id, tensor] : flatten(value, name)) {
      onnx::ValueInfoProto element;
      element.set_name(id);
      auto *tensorType = element.mutable_type()->mutable_tensor_type();
      tensorType->set_elem_type(
          popart::getONNXDataTypeAsInt(tensor.info.dataType()));
      auto *shape = tensorType->mutable_shape();
      for (auto d : tensor.info.shape())
        shape->add_dim()->set_dim_value(d);
      *inputs.Add() = element;
    }
    if (value.kind == HostValue::Kind::Sequence) {
      HostValue sequence = value;
      sequence.elementType = form.elementType;
      gathering.push_back(sequenceNode(sequence, name, name));
      continue;
    }
    onnx::NodeProto optional;
    optional.set_op_type("Optional");
    optional.add_output(name);
    if (value.elements.empty()) {
      auto *type = optional.add_attribute();
      type->set_name("type");
      type->set_type(onnx::AttributeProto::TYPE_PROTO);
      *type->mutable_tp() = input.type().optional_type().elem_type();
    } else if (form.ofSequence) {
      HostValue sequence = value.elements[0];
      sequence.elementType = form.elementType;
      const std::string held = name + "/sequence";
      gathering.push_back(sequenceNode(sequence, name, held));
      optional.add_input(held);
    } else {
      optional.add_input(name + "[0]");
    }
    gathering.push_back(optional);
  }
  for (const auto &[name, value] : given)
    if (!bound.count(name))
      throw popart::error("'{}' is not a sequence or optional input of {}",
                          name, modelPath);
  if (gathering.empty())
    return;
  graph.mutable_input()->Swap(&inputs);
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  for (auto &node : gathering)
    *nodes.Add() = std::move(node);
  for (const auto &node : graph.node())
    *nodes.Add() = node;
  graph.mutable_node()->Swap(&nodes);
}

} // namespace

ModelRunner::ModelRunner(const std::string &modelPath,
                         std::shared_ptr<popart::DeviceInfo> device,
                         const std::map<popart::TensorId, HostTensor> &constants,
                         int batchesPerStep)
    : ModelRunner(modelPath, std::move(device),
                  GivenInputs{constants, {}, {}}, batchesPerStep) {}

ModelRunner::ModelRunner(const std::string &modelPath,
                         std::shared_ptr<popart::DeviceInfo> device,
                         const GivenInputs &given, int batchesPerStep)
    : batchesPerStep_(batchesPerStep) {
  onnx::ModelProto model = loadModel(modelPath);
  bindSequenceInputs(model, given.sequences, modelPath);
  const auto &constants = given.constants;
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
  // A streamed input whose shape the model leaves open (dim_param) takes
  // the shape of the value given for it.
  popart::InputShapeInfo shapes;
  for (const auto &input : graph.input()) {
    auto value = given.streamed.find(input.name());
    if (value == given.streamed.end() || !input.type().has_tensor_type())
      continue;
    const auto &declared = input.type().tensor_type().shape();
    bool open = !input.type().tensor_type().has_shape();
    for (const auto &dim : declared.dim())
      open |= !dim.has_dim_value();
    if (!open)
      continue;
    popart::Shape shape = value->second.info.shape();
    if (batchesPerStep > 1 && !shape.empty()) // the batches of one step
      shape.erase(shape.begin());
    shapes.add(input.name(),
               popart::TensorInfo(value->second.info.dataType(), shape));
  }
  session_ = popart::InferenceSession::createFromOnnxModel(bytes, dataFlow,
                                                           device, shapes);
  session_->prepareDevice();
  session_->weightsFromHost();
  for (const auto &id : inputIds)
    inputs_.push_back({id, session_->getInfo(id)});
  // A sequence or optional output is anchored as its elements `name[k]`.
  for (const auto &output : graph.output()) {
    if (!isSequenceOrOptional(output.type()))
      continue;
    outputForms_[output.name()] =
        formOf(output.type(), "output '" + output.name() + "'");
    auto &elements = outputElements_[output.name()];
    for (std::size_t k = 0;; ++k) {
      const auto id = output.name() + "[" + std::to_string(k) + "]";
      if (!session_->hasInfo(id))
        break;
      elements.push_back(id);
    }
  }
}

HostValue
ModelRunner::outputValue(const std::map<popart::TensorId, HostTensor> &results,
                         const popart::TensorId &output) const {
  auto form = outputForms_.find(output);
  if (form == outputForms_.end())
    return HostValue::ofTensor(results.at(output));
  HostValue value = form->second;
  const auto &ids = outputElements_.at(output);
  HostValue sequence;
  sequence.kind = HostValue::Kind::Sequence;
  sequence.elementType = value.elementType;
  for (const auto &id : ids)
    sequence.elements.push_back(HostValue::ofTensor(results.at(id)));
  if (value.kind == HostValue::Kind::Sequence)
    return sequence;
  // An optional: empty when it has no elements (an optional holding an
  // empty sequence is returned as empty too).
  if (!ids.empty())
    value.elements.push_back(value.ofSequence ? sequence
                                              : sequence.elements.at(0));
  return value;
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
  std::vector<popart::TensorId> anchored;
  for (const auto &id : outputs_) {
    auto elements = outputElements_.find(id);
    if (elements == outputElements_.end())
      anchored.push_back(id);
    else
      anchored.insert(anchored.end(), elements->second.begin(),
                      elements->second.end());
  }
  for (const auto &id : anchored) {
    // A STRING output's arrays hold the largest value it can have: the
    // shape the session gives before its first run.
    popart::TensorInfo info =
        largestInfos_.emplace(id, session_->getInfo(id)).first->second;
    popart::Shape shape = info.shape();
    if (batchesPerStep_ > 1)
      shape.insert(shape.begin(), batchesPerStep_);
    HostTensor &out = outputs[id];
    out.info = popart::TensorInfo(info.dataType(), shape);
    if (out.isString())
      out.strings.resize(std::size_t(out.info.nelms()));
    else
      out.bytes.assign(std::size_t(out.info.nbytes()), 0);
    arrays.push_back(wrap(out));
    outputArrays.emplace(id, *arrays.back());
  }
  popart::StepIO stepio(inputArrays, outputArrays);
  session_->run(stepio);
  // A StringNormalizer's output has the shape of the value computed (the
  // session gives it once the step has run).
  for (const auto &id : anchored) {
    HostTensor &out = outputs[id];
    if (!out.isString() || batchesPerStep_ > 1)
      continue;
    out.info = session_->getInfo(id);
    out.strings.resize(std::size_t(out.info.nelms()));
  }
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

GivenInputs splitGivenInputs(const std::string &modelPath,
                             std::map<popart::TensorId, HostValue> values) {
  const auto compileTime = compileTimeInputs(modelPath);
  std::map<popart::TensorId, HostTensor> tensors;
  GivenInputs split;
  for (auto &[name, value] : values) {
    if (value.kind == HostValue::Kind::Tensor) {
      tensors.emplace(name, std::move(value.tensor));
      continue;
    }
    for (auto &[id, tensor] : flatten(value, name)) {
      auto &side = tensor.info.dataType() == popart::DataType::INT64 ||
                           compileTime.count(name)
                       ? split.constants
                       : split.streamed;
      side.emplace(id, std::move(tensor));
    }
    split.sequences.emplace(name, std::move(value));
  }
  auto plain = splitGivenInputs(modelPath, std::move(tensors));
  split.constants.merge(plain.constants);
  split.streamed.merge(plain.streamed);
  return split;
}

std::map<popart::TensorId, HostValue>
readInputFiles(const std::string &modelPath,
               const std::map<popart::TensorId, std::string> &files) {
  const onnx::ModelProto model = loadModel(modelPath);
  std::map<popart::TensorId, HostValue> values;
  for (const auto &[name, file] : files) {
    const onnx::ValueInfoProto *input = nullptr;
    for (const auto &i : model.graph().input())
      if (i.name() == name)
        input = &i;
    if (!input)
      throw popart::error("'{}' is not an input of {}", name, modelPath);
    values.emplace(name, readValueFile(file, input->type()));
  }
  return values;
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
      // Positions and split sizes fix a sequence's structure.
      {"SequenceAt", {1}}, {"SequenceInsert", {2}}, {"SequenceErase", {1}},
      {"SplitToSequence", {1}},
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
  // An If or Loop whose subgraphs take or give sequences is resolved when
  // the IR is prepared: its condition and trip count fix the structure.
  auto ofSequences = [](const onnx::NodeProto &node) {
    for (const auto &a : node.attribute())
      if (a.has_g()) {
        for (const auto &i : a.g().input())
          if (isSequenceOrOptional(i.type()))
            return true;
        for (const auto &o : a.g().output())
          if (isSequenceOrOptional(o.type()))
            return true;
      }
    return false;
  };
  std::vector<std::string> work;
  for (const auto &node : model.graph().node()) {
    if ((node.op_type() == "If" || node.op_type() == "Loop") &&
        ofSequences(node))
      for (int i = 0; i < std::min(2, node.input_size()); ++i)
        if (!node.input(i).empty())
          work.push_back(node.input(i));
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
