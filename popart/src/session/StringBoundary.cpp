#include "session/StringBoundary.hpp"

#include "onnx/OnnxUtil.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstring>

namespace popart {

namespace {

constexpr int onnxString = onnx::TensorProto::STRING;

std::string describe(const onnx::NodeProto &node) {
  if (!node.name().empty())
    return node.op_type() + " '" + node.name() + "'";
  return node.op_type() + " (output '" +
         (node.output_size() ? node.output(0) : std::string()) + "')";
}

} // namespace

// The IStepIO the device runs with: the host's inputs from the values
// computed before the step, the extra anchors into buffers kept for after
// it, everything else the user's.
class StringBoundary::DeviceIO : public IStepIO {
public:
  DeviceIO(const StringBoundary &b, IStepIO &user, int64_t valuesPerStep,
           const std::function<TensorInfo(const TensorId &)> &deviceInfo)
      : b(b), user(user), valuesPerStep(valuesPerStep),
        deviceInfo(deviceInfo) {
    enableRuntimeAsserts(user.runtimeAssertsEnabled());
    // Every entry made now: the callbacks only change their own id's.
    for (const auto &id : b.deviceInputs) {
      queued[id];
      next[id] = 0;
    }
    for (const auto &id : b.deviceAnchors) {
      captured[id];
      pending[id];
    }
  }

  std::map<TensorId, std::vector<std::vector<char>>> queued, captured;

  ConstVoidData in(TensorId id, int64_t n, bool prefetch,
                   bool broadcast) override {
    if (!b.deviceInputs.count(id))
      return user.in(id, n, prefetch, broadcast);
    const auto &values = queued.at(id);
    const std::size_t k = next.at(id);
    if (k >= values.size())
      throw error("Tensor '{}': the device asked for value {} of a step of {}",
                  id, k + 1, values.size());
    const TensorInfo info = deviceInfo(id);
    if (static_cast<int64_t>(values[k].size()) !=
        n * getDataTypeInfo(info.dataType()).nbytes())
      throw error("Tensor '{}': the device asked for {} elements, the host "
                  "computed {}",
                  id, n, info.nelms());
    return ConstVoidData(values[k].data(),
                         TensorInfo(info.dataType(), Shape{n}));
  }
  void inComplete(TensorId id, int64_t n, bool broadcast) override {
    if (b.deviceInputs.count(id))
      ++next.at(id);
    else
      user.inComplete(id, n, broadcast);
  }
  MutableVoidData out(TensorId id, int64_t n) override {
    if (!b.deviceAnchors.count(id))
      return user.out(id, n);
    const DataType type = deviceInfo(id).dataType();
    MutableVoidData data;
    if (b.sharedAnchors.count(id)) {
      data = user.out(id, n);
      pending.at(id) = data;
      return data;
    }
    auto &buffer = captured.at(id).emplace_back(
        static_cast<std::size_t>(n * getDataTypeInfo(type).nbytes()));
    data.data = buffer.data();
    data.info = TensorInfo(type, Shape{n});
    return data;
  }
  void outComplete(TensorId id) override {
    if (!b.deviceAnchors.count(id)) {
      user.outComplete(id);
      return;
    }
    if (!b.sharedAnchors.count(id))
      return;
    const MutableVoidData &data = pending.at(id);
    const auto *bytes = static_cast<const char *>(data.data);
    captured.at(id).emplace_back(bytes, bytes + data.info.nbytes());
    user.outComplete(id);
  }
  void assertNumElements(const std::map<TensorId, int64_t> &ins,
                         const std::map<TensorId, int64_t> &outs) const override {
    std::map<TensorId, int64_t> userIns, userOuts;
    for (const auto &[id, n] : ins)
      if (!b.deviceInputs.count(id))
        userIns[id] = n;
    for (const auto &id : b.stringInputs)
      userIns[id] = b.infos.at(id).nelms() * valuesPerStep;
    for (const auto &[id, n] : outs)
      if (!b.deviceAnchors.count(id) || b.sharedAnchors.count(id))
        userOuts[id] = n;
    // A StringNormalizer's output is checked as it is written: its size is
    // known once it is computed.
    for (const auto &id : b.hostAnchors)
      if (!b.dataDependent.count(id))
        userOuts[id] = b.infos.at(id).nelms() * valuesPerStep;
    user.assertNumElements(userIns, userOuts);
  }

private:
  const StringBoundary &b;
  IStepIO &user;
  int64_t valuesPerStep;
  std::function<TensorInfo(const TensorId &)> deviceInfo;
  std::map<TensorId, std::size_t> next;
  std::map<TensorId, MutableVoidData> pending;
};

// What the split learns of the model's tensors on its way through the
// nodes.
struct StringBoundary::Analysis {
  std::map<TensorId, int> types;       // ONNX element types known
  std::map<TensorId, Shape> declared;  // fully known declared shapes
  std::set<TensorId> initializers;
  std::map<TensorId, bool> onHost;     // host tensors: after the step?
  std::set<TensorId> stringGraphInputs;
  std::set<TensorId> readFromUser;     // STRING inputs the host reads
  std::set<TensorId> deviceReads;      // tensors device ops read
  std::vector<onnx::NodeProto> deviceNodes;
  std::vector<onnx::TensorProto> folded; // number constants from strings

  bool isString(const TensorId &id) const {
    auto t = types.find(id);
    return t != types.end() && t->second == onnxString;
  }
};

StringBoundary::StringBoundary(onnx::ModelProto &model, DataFlow &dataFlow,
                               const InputShapeInfo &shapes)
    : userFlow(dataFlow) {
  onnx::GraphProto &graph = *model.mutable_graph();
  Analysis a;
  readGraphTensors(graph, shapes, a);
  for (const auto &node : graph.node())
    placeNode(node, graph, a);
  const bool anyString =
      !infos.empty() || !nodes.empty() ||
      std::any_of(a.types.begin(), a.types.end(),
                  [](const auto &t) { return t.second == onnxString; });
  if (!anyString)
    return; // the model is left as it is
  active_ = true;
  placeDeviceInputs(a);
  splitAnchors(graph, dataFlow, a);
  rewriteModel(graph, a);
  logging::ir::info("STRING tensors: {} host ops, {} inputs from the host, "
                    "{} anchors for the host",
                    nodes.size(), deviceInputs.size(), deviceAnchors.size());
}

StringBoundary::~StringBoundary() = default;

void StringBoundary::readGraphTensors(const onnx::GraphProto &graph,
                                      const InputShapeInfo &shapes,
                                      Analysis &a) {
  auto declare = [&](const onnx::ValueInfoProto &v) {
    if (!v.type().has_tensor_type())
      return;
    const auto &t = v.type().tensor_type();
    a.types.emplace(v.name(), t.elem_type());
    if (!t.has_shape())
      return;
    Shape shape;
    for (const auto &d : t.shape().dim()) {
      if (!d.has_dim_value())
        return;
      shape.push_back(d.dim_value());
    }
    a.declared.emplace(v.name(), shape);
  };
  for (const auto &v : graph.input())
    declare(v);
  for (const auto &v : graph.value_info())
    declare(v);
  for (const auto &v : graph.output())
    declare(v);

  for (const auto &init : graph.initializer()) {
    a.initializers.insert(init.name());
    a.types[init.name()] = init.data_type();
    if (init.data_type() != onnxString)
      continue;
    Value v;
    v.info = TensorInfo(DataType::STRING,
                        Shape(init.dims().begin(), init.dims().end()));
    v.strings.assign(init.string_data().begin(), init.string_data().end());
    if (static_cast<int64_t>(v.strings.size()) != v.info.nelms())
      throw error("Initializer '{}' holds {} strings for shape {}",
                  init.name(), v.strings.size(), v.info.shape());
    infos[init.name()] = v.info;
    constants[init.name()] = v;
    a.onHost[init.name()] = false;
  }
  for (const auto &input : graph.input()) {
    const TensorId &id = input.name();
    if (!a.isString(id) || a.initializers.count(id))
      continue;
    Shape shape;
    if (shapes.has(id))
      shape = shapes.get(id).shape();
    else if (a.declared.count(id))
      shape = a.declared.at(id);
    else
      throw error("STRING input '{}' has no fixed shape: give it in the "
                  "InputShapeInfo",
                  id);
    infos[id] = TensorInfo(DataType::STRING, shape);
    a.onHost[id] = false;
    a.stringGraphInputs.insert(id);
  }
}

bool StringBoundary::takeStringConstant(const onnx::NodeProto &node,
                                        Analysis &a) {
  const auto *value = onnxutil::findAttribute(node, "value");
  const auto *strings = onnxutil::findAttribute(node, "value_strings");
  if (!strings && !(value && value->t().data_type() == onnxString)) {
    if (value)
      a.types[node.output(0)] = value->t().data_type();
    return false;
  }
  Value v;
  if (strings) {
    v.strings.assign(strings->strings().begin(), strings->strings().end());
    v.info = TensorInfo(DataType::STRING,
                        Shape{static_cast<int64_t>(v.strings.size())});
  } else {
    v.strings.assign(value->t().string_data().begin(),
                     value->t().string_data().end());
    v.info = TensorInfo(DataType::STRING, Shape(value->t().dims().begin(),
                                                value->t().dims().end()));
  }
  a.types[node.output(0)] = onnxString;
  infos[node.output(0)] = v.info;
  constants[node.output(0)] = v;
  a.onHost[node.output(0)] = false;
  return true;
}

void StringBoundary::placeNode(const onnx::NodeProto &node,
                               const onnx::GraphProto &graph, Analysis &a) {
  const std::string &op = node.op_type();
  const bool onnxDomain = node.domain().empty() || node.domain() == "ai.onnx";
  if (onnxDomain && op == "Constant") {
    if (!takeStringConstant(node, a))
      a.deviceNodes.push_back(node);
    return;
  }
  const bool cast = onnxDomain && (op == "Cast" || op == "CastLike");
  const bool normalize = onnxDomain && op == "StringNormalizer";
  int to = 0;
  if (cast && op == "Cast") {
    const auto *attr = onnxutil::findAttribute(node, "to");
    to = attr ? static_cast<int>(attr->i()) : 0;
  } else if (cast && node.input_size() > 1 && a.types.count(node.input(1))) {
    to = a.types.at(node.input(1));
  }
  const bool fromString = (cast || normalize) && node.input_size() > 0 &&
                          a.isString(node.input(0));
  const bool toString = (cast && to == onnxString) || normalize;

  if (!fromString && !toString) { // a device op
    for (const auto &in : node.input()) {
      if (a.isString(in))
        throw error("Tensor '{}' of type STRING is an input of {}, which "
                    "would run on the device: STRING has no device type, "
                    "only Cast, CastLike and StringNormalizer take STRING "
                    "tensors (on the host, at the session's boundary)",
                    in, describe(node));
      if (a.onHost.count(in) && a.onHost.at(in))
        throw error("Tensor '{}' is computed on the host from the step's "
                    "results, so it cannot be an input of {} on the device",
                    in, describe(node));
      a.deviceReads.insert(in);
    }
    for (const auto &out : node.output())
      if (a.isString(out))
        throw error("{} would give the STRING tensor '{}' on the device, "
                    "which has no string type",
                    describe(node), out);
    if (cast && to)
      a.types[node.output(0)] = to;
    a.deviceNodes.push_back(node);
    return;
  }
  if (normalize && !fromString)
    throw error("{}: its input '{}' is not a STRING tensor", describe(node),
                node.input(0));
  if (cast && !to)
    throw error("{}: the type of 'like' ('{}') must be known before the "
                "IR is prepared, to cast STRING tensors on the host",
                describe(node), node.input(1));

  HostNode h;
  h.name = describe(node);
  h.in = node.input(0);
  h.out = node.output(0);
  h.to = onnxToPopartType(to ? to : onnxString);
  if (normalize) {
    h.kind = HostNode::Kind::Normalize;
    h.normalizer = std::make_shared<stringops::StringNormalizer>(node);
  } else if (fromString && toString) {
    h.kind = HostNode::Kind::StringToString;
  } else if (fromString) {
    h.kind = HostNode::Kind::FromString;
  } else {
    h.kind = HostNode::Kind::ToString;
  }
  a.types[h.out] = to ? to : onnxString;
  const bool inOnHost = a.onHost.count(h.in) != 0;
  h.afterStep = inOnHost ? a.onHost.at(h.in) : true;
  if (!inOnHost && a.initializers.count(h.in)) {
    // A Cast to STRING of a number constant: folded below.
    const auto &init = *std::find_if(
        graph.initializer().begin(), graph.initializer().end(),
        [&](const onnx::TensorProto &t) { return t.name() == h.in; });
    Value in;
    in.info = TensorInfo(onnxToPopartType(init.data_type()),
                         Shape(init.dims().begin(), init.dims().end()));
    in.bytes = onnxutil::tensorData(init);
    constants[h.in] = in;
  }
  auto constant = constants.find(h.in);
  if (constant != constants.end()) {
    // Computed from constants: folded now.
    Value v = compute(h, constant->second);
    if (v.info.dataType() != DataType::STRING) {
      onnx::TensorProto t; // a number constant of the device's
      t.set_name(h.out);
      onnxutil::setTensorData(t, v.info, v.bytes.data());
      a.folded.push_back(t);
      return;
    }
    infos[h.out] = v.info;
    constants[h.out] = v;
    a.onHost[h.out] = false;
    return;
  }
  if (dataDependent.count(h.in) || normalize)
    dataDependent.insert(h.out);
  if (!inOnHost)
    deviceAnchors.insert(h.in);
  // Infos of host tensors computed after the step follow from the
  // device's tensors, known once the IR is prepared (resolveInfos).
  if (h.kind != HostNode::Kind::ToString && !h.afterStep) {
    Shape shape = infos.at(h.in).shape();
    if (normalize)
      shape = h.normalizer->maximumShape(shape);
    infos[h.out] = TensorInfo(h.to, shape);
  }
  if (a.stringGraphInputs.count(h.in))
    a.readFromUser.insert(h.in);
  a.onHost[h.out] = h.afterStep;
  nodes.push_back(h);
}

void StringBoundary::placeDeviceInputs(const Analysis &a) {
  // Numbers computed from STRING tensors before the step that device ops
  // read: device inputs. Those only anchored are written by the host.
  for (const auto &h : nodes) {
    if (h.kind != HostNode::Kind::FromString || !a.deviceReads.count(h.out))
      continue;
    if (h.afterStep)
      throw error("Tensor '{}' is computed by {} on the host from the step's "
                  "results, so it cannot go back to the device",
                  h.out, h.name);
    if (dataDependent.count(h.out))
      throw error("Tensor '{}' ({}) has a shape that depends on the values "
                  "of a StringNormalizer's output, so the device cannot "
                  "read it",
                  h.out, h.name);
    deviceInputs.insert(h.out);
  }
}

void StringBoundary::splitAnchors(const onnx::GraphProto &graph,
                                  DataFlow &dataFlow, Analysis &a) {
  // STRING anchors (and numbers only the host computes) are written by the
  // host; the rest are the device's, with the numbers the host formats
  // after the step.
  AnchorReturnTypeMap deviceMap;
  for (const auto &id : dataFlow.anchors()) {
    if (a.isString(id) || (a.onHost.count(id) && !deviceInputs.count(id))) {
      if (!infos.count(id) && !a.onHost.count(id))
        throw error("Anchor '{}' of type STRING is not a tensor the host "
                    "holds",
                    id);
      hostAnchors.push_back(id);
      if (a.stringGraphInputs.count(id))
        a.readFromUser.insert(id); // a STRING input returned as it is
      continue;
    }
    deviceMap.emplace(id, dataFlow.art(id));
  }
  for (const auto &id : deviceAnchors) {
    auto given = deviceMap.find(id);
    if (given == deviceMap.end()) {
      deviceMap.emplace(id, AnchorReturnType("All"));
      continue;
    }
    if (given->second.id() != AnchorReturnTypeId::All)
      throw error("Anchor '{}' is read by the host to give a STRING tensor, "
                  "so it must be returned with AnchorReturnType ALL, not {}",
                  id, given->second.str());
    sharedAnchors.insert(id);
  }
  for (const auto &input : graph.input())
    if (a.readFromUser.count(input.name()))
      stringInputs.push_back(input.name());
  dataFlow = DataFlow(dataFlow.batchesPerStep(), deviceMap);
}

void StringBoundary::rewriteModel(onnx::GraphProto &graph,
                                  const Analysis &a) const {
  // The device's model: without the host's nodes and STRING tensors, with
  // the host's numbers as inputs.
  auto isHostTensor = [&](const std::string &id) {
    return a.isString(id) || a.onHost.count(id) || constants.count(id);
  };
  graph.clear_node();
  for (const auto &n : a.deviceNodes)
    *graph.add_node() = n;
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> inputs, outputs,
      valueInfos;
  for (const auto &v : graph.input())
    if (!a.isString(v.name()))
      *inputs.Add() = v;
  for (const auto &h : nodes)
    if (deviceInputs.count(h.out)) {
      onnx::ValueInfoProto v;
      v.set_name(h.out);
      auto *t = v.mutable_type()->mutable_tensor_type();
      t->set_elem_type(getONNXDataTypeAsInt(h.to));
      auto *shape = t->mutable_shape();
      for (auto d : infos.at(h.out).shape())
        shape->add_dim()->set_dim_value(d);
      *inputs.Add() = v;
    }
  for (const auto &v : graph.output())
    if (!isHostTensor(v.name()))
      *outputs.Add() = v;
  for (const auto &v : graph.value_info())
    if (!isHostTensor(v.name()))
      *valueInfos.Add() = v;
  graph.mutable_input()->Swap(&inputs);
  graph.mutable_output()->Swap(&outputs);
  graph.mutable_value_info()->Swap(&valueInfos);
  google::protobuf::RepeatedPtrField<onnx::TensorProto> inits;
  for (const auto &t : graph.initializer())
    if (t.data_type() != onnxString)
      *inits.Add() = t;
  for (const auto &t : a.folded)
    *inits.Add() = t;
  graph.mutable_initializer()->Swap(&inits);
}

void StringBoundary::resolveInfos(
    const std::function<TensorInfo(const TensorId &)> &deviceInfo) {
  for (const auto &h : nodes) {
    if (infos.count(h.out))
      continue;
    Shape shape =
        infos.count(h.in) ? infos.at(h.in).shape() : deviceInfo(h.in).shape();
    if (h.kind == HostNode::Kind::Normalize)
      shape = h.normalizer->maximumShape(shape);
    infos[h.out] = TensorInfo(h.to, shape);
  }
}

StringBoundary::Value StringBoundary::compute(const HostNode &h,
                                              const Value &in) const {
  Value out;
  switch (h.kind) {
  case HostNode::Kind::FromString:
    out.info = TensorInfo(h.to, in.info.shape());
    out.bytes = stringops::parseNumbers(
        in.strings, h.to, h.name + " reading '" + h.in + "'");
    break;
  case HostNode::Kind::ToString:
    out.info = TensorInfo(DataType::STRING, in.info.shape());
    out.strings = stringops::formatNumbers(in.bytes, in.info.dataType());
    break;
  case HostNode::Kind::StringToString:
    out = in;
    break;
  case HostNode::Kind::Normalize: {
    Shape shape;
    out.strings = h.normalizer->apply(in.strings, in.info.shape(), shape);
    out.info = TensorInfo(DataType::STRING, shape);
    break;
  }
  }
  return out;
}

void StringBoundary::writeAnchor(IStepIO &user, const TensorId &id,
                                 const Value &v) {
  const int64_t n = v.info.nelms();
  MutableVoidData data = user.out(id, n);
  if (data.info.dataType() != v.info.dataType())
    throw error("Anchor '{}' is a {} tensor (computed on the host): its array "
                "must hold {} elements{}, not {}",
                id, v.info.data_type(), v.info.data_type(),
                v.info.dataType() == DataType::STRING ? " (std::string)" : "",
                data.info.data_type());
  if (v.info.dataType() == DataType::STRING)
    std::copy(v.strings.begin(), v.strings.end(),
              static_cast<std::string *>(data.data));
  else if (!v.bytes.empty())
    std::memcpy(data.data, v.bytes.data(), v.bytes.size());
  user.outComplete(id);
  if (dataDependent.count(id))
    infos[id] = v.info;
}

void StringBoundary::run(
    IStepIO &user, int64_t valuesPerStep,
    const std::function<void(IStepIO &)> &device,
    const std::function<TensorInfo(const TensorId &)> &deviceInfo) {
  if (valuesPerStep > 1)
    for (const auto &id : hostAnchors) {
      if (dataDependent.count(id))
        throw error("Anchor '{}' is a StringNormalizer's output, whose shape "
                    "depends on its input's values: a step must have one "
                    "value (batchesPerStep, accumulation and replication "
                    "factors 1), not {}",
                    id, valuesPerStep);
      if (userFlow.art(id).id() != AnchorReturnTypeId::All)
        throw error("Anchor '{}' is a STRING tensor computed on the host for "
                    "each of the step's {} values: it must be returned with "
                    "AnchorReturnType ALL, not {}",
                    id, valuesPerStep, userFlow.art(id).str());
    }
  DeviceIO io(*this, user, valuesPerStep, deviceInfo);
  std::vector<std::map<TensorId, Value>> values(
      static_cast<std::size_t>(valuesPerStep));
  std::set<TensorId> written;
  for (auto &v : values) {
    v = constants;
    for (const auto &id : stringInputs) {
      const int64_t n = infos.at(id).nelms();
      ConstVoidData data = user.in(id, n, false);
      if (data.info.dataType() != DataType::STRING)
        throw error("Input '{}' is a STRING tensor: its data must be strings "
                    "(std::string elements; numpy str, bytes or object "
                    "arrays of them), not {}",
                    id, data.info.data_type());
      const auto *strings = static_cast<const std::string *>(data.data);
      v[id] = Value{infos.at(id), std::vector<std::string>(strings, strings + n),
                    {}};
      user.inComplete(id, n);
    }
    for (const auto &h : nodes)
      if (!h.afterStep)
        v[h.out] = compute(h, v.at(h.in));
    for (const auto &id : deviceInputs)
      io.queued.at(id).push_back(v.at(id).bytes);
    for (const auto &id : hostAnchors)
      if (v.count(id)) {
        writeAnchor(user, id, v.at(id));
        written.insert(id);
      }
  }
  device(io);
  for (const auto &id : deviceAnchors)
    if (io.captured[id].size() != values.size())
      throw error("Tensor '{}': the device returned {} values in a step of {}",
                  id, io.captured[id].size(), values.size());
  for (std::size_t k = 0; k < values.size(); ++k) {
    auto &v = values[k];
    for (const auto &id : deviceAnchors) {
      const TensorInfo info = deviceInfo(id);
      v[id] = Value{info, {}, std::move(io.captured[id][k])};
    }
    for (const auto &h : nodes)
      if (h.afterStep)
        v[h.out] = compute(h, v.at(h.in));
    for (const auto &id : hostAnchors)
      if (!written.count(id))
        writeAnchor(user, id, v.at(id));
  }
}

} // namespace popart
