// _BuilderCore, the C++ Builder (popart/builder.py wraps it as Builder):
// inputs and outputs, the opset objects, annotations as setters and as
// context managers (`with builder.virtualGraph(1):`), node attributes,
// custom ops and the model.
#include "Bindings.hpp"
#include "NumpyData.hpp"

#include <popart/builder.hpp>
#include <popart/error.hpp>

#include <pybind11/stl.h>

#include <optional>

namespace popart {
namespace python {

namespace {

// Node attribute names of the annotations the context managers set.
constexpr const char *sVirtualGraph = "__ipu_number";
constexpr const char *sPipelineStage = "__pipeline_stage";
constexpr const char *sExecutionPhase = "__execution_phase";
constexpr const char *sRecompute = "__recompute_output_in_backward_pass";

/// `with builder.virtualGraph(1):` and the like: the builder's scoped
/// attribute `name` is `value` for the nodes added inside the block, and
/// what it was before afterwards (so that blocks nest).
class AttributeScope {
public:
  AttributeScope(Builder &builder, std::string name, int64_t value)
      : builder(builder), name(std::move(name)), value(value) {}
  void enter() {
    if (builder.hasAttribute(name))
      previous = builder.getAttribute(name);
    builder.setAttribute(name, value);
  }
  void exit() {
    if (previous)
      builder.setAttribute(name, *previous);
    else
      builder.clearAttribute(name);
  }

private:
  Builder &builder;
  std::string name;
  int64_t value;
  std::optional<any> previous;
};

/// `with builder.nameScope("layer1"):`.
class NameScope {
public:
  NameScope(Builder &builder, std::string name)
      : builder(builder), name(std::move(name)) {}
  void enter() { builder.pushNameScope(name); }
  void exit() { builder.popNameScope(); }

private:
  Builder &builder;
  std::string name;
};

template <class T> T castOr(const py::handle &h, const std::string &attribute) {
  try {
    return h.cast<T>();
  } catch (const py::cast_error &) {
    throw error("Attribute '{}': a list must hold values of one type (int, "
                "float or str)",
                attribute);
  }
}

// A Python value as a node attribute of the type ONNX stores it as.
any toAttribute(const std::string &name, const py::handle &value) {
  if (py::isinstance<py::bool_>(value) || py::isinstance<py::int_>(value))
    return value.cast<int64_t>();
  if (py::isinstance<py::float_>(value))
    return value.cast<float>();
  if (py::isinstance<py::str>(value))
    return value.cast<std::string>();
  if (py::isinstance<py::array>(value)) {
    py::array a = cContiguous(value.cast<py::array>());
    const TensorInfo info = tensorInfoOf(a, "Attribute '" + name + "'");
    ConstVoidData data;
    const char *bytes = static_cast<const char *>(a.data());
    data.store(std::vector<char>(bytes, bytes + info.nbytes()), info);
    return data;
  }
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    auto seq = value.cast<py::sequence>();
    if (seq.size() == 0)
      return std::vector<int64_t>();
    const py::handle first = seq[0];
    if (py::isinstance<py::int_>(first))
      return castOr<std::vector<int64_t>>(value, name);
    if (py::isinstance<py::float_>(first))
      return castOr<std::vector<float>>(value, name);
    if (py::isinstance<py::str>(first))
      return castOr<std::vector<std::string>>(value, name);
  }
  throw error("Attribute '{}': the builder cannot store a value of type {}",
              name, std::string(py::str(value.get_type())));
}


} // namespace

std::map<std::string, any> toAttributes(const py::dict &attributes) {
  std::map<std::string, any> out;
  for (const auto &item : attributes) {
    const auto name = item.first.cast<std::string>();
    out[name] = toAttribute(name, item.second);
  }
  return out;
}

namespace {

int64_t scopedInt(const Builder &builder, const char *name) {
  return nonstd::any_cast<int64_t>(builder.getAttribute(name));
}

void bindScopes(py::module_ &m) {
  py::class_<AttributeScope>(m, "AttributeContextManager")
      .def("__enter__", &AttributeScope::enter)
      .def("__exit__", [](AttributeScope &s, const py::args &) { s.exit(); });
  py::class_<NameScope>(m, "NameContextManager")
      .def("__enter__", &NameScope::enter)
      .def("__exit__", [](NameScope &s, const py::args &) { s.exit(); });
}

// The annotation `attribute` three ways: a setter on the node producing
// a tensor (or several), and a context manager for the nodes added in a
// block; `has<Name>()`/`get<Name>()` read the block's value.
void bindAnnotation(py::class_<Builder> &cls, const std::string &name,
                    const char *attribute,
                    void (Builder::*setter)(const TensorId &, int64_t),
                    std::optional<int64_t> defaultValue) {
  if (defaultValue)
    cls.def(name.c_str(), setter, py::arg("nodeOutputNames"),
            py::arg("value") = *defaultValue);
  else
    cls.def(name.c_str(), setter, py::arg("nodeOutputNames"), py::arg("value"));
  cls.def(
      name.c_str(),
      [setter](Builder &b, const std::set<TensorId> &ids, int64_t value) {
        for (const auto &id : ids)
          (b.*setter)(id, value);
      },
      py::arg("nodeOutputNames"), py::arg("value") = defaultValue.value_or(0));
  cls.def(
      name.c_str(),
      [attribute](Builder &b, int64_t value) {
        return AttributeScope(b, attribute, value);
      },
      py::arg("value"), py::keep_alive<0, 1>());
  std::string upper = name;
  upper[0] = static_cast<char>(std::toupper(upper[0]));
  cls.def(("has" + upper).c_str(),
          [attribute](const Builder &b) { return b.hasAttribute(attribute); });
  cls.def(("get" + upper).c_str(),
          [attribute](const Builder &b) { return scopedInt(b, attribute); });
}

// Recomputation: the setters of the node producing a tensor, and
// `with builder.recomputeOutput(popart.RecomputeType.Recompute):` for the
// nodes added in a block.
void bindRecomputation(py::class_<Builder> &cls) {
  cls.def("recomputeOutputInBackwardPass",
          py::overload_cast<const TensorId &, RecomputeType>(
              &Builder::recomputeOutputInBackwardPass),
          py::arg("nodeOutputName"), py::arg("value") = RecomputeType::Recompute);
  cls.def("recomputeOutputInBackwardPass",
          py::overload_cast<const std::set<TensorId> &, RecomputeType>(
              &Builder::recomputeOutputInBackwardPass),
          py::arg("nodeOutputNames"), py::arg("value") = RecomputeType::Recompute);
  cls.def("getRecomputeOutputInBackwardPass",
          &Builder::getRecomputeOutputInBackwardPass, py::arg("nodeOutputName"));
  cls.def("checkpointOutput", &Builder::checkpointOutput,
          py::arg("nodeOutputNames"));
  cls.def(
      "recomputeOutput",
      [](Builder &b, const TensorId &id, RecomputeType value) {
        b.recomputeOutputInBackwardPass(id, value);
      },
      py::arg("nodeOutputNames"), py::arg("value") = RecomputeType::Undefined);
  cls.def(
      "recomputeOutput",
      [](Builder &b, RecomputeType value) {
        return AttributeScope(b, sRecompute, static_cast<int64_t>(value));
      },
      py::arg("value") = RecomputeType::Undefined, py::keep_alive<0, 1>());
}

} // namespace

void bindBuilder(py::module_ &m) {
  bindScopes(m);
  py::enum_<RecomputeType>(m, "RecomputeType")
      .value("Undefined", RecomputeType::Undefined)
      .value("Checkpoint", RecomputeType::Checkpoint)
      .value("Recompute", RecomputeType::Recompute)
      .value("Recomputed", RecomputeType::Recomputed);
  py::class_<Builder> cls(m, "_BuilderCore");
  cls.def(py::init(&Builder::create));
  cls.def(py::init(&Builder::createFromOnnxModel), py::arg("modelProtoOrFilename"));

  // Inputs and outputs.
  cls.def("addInputTensor",
          py::overload_cast<const TensorInfo &, const DebugContext &>(
              &Builder::addInputTensor),
          py::arg("tensorInfo"), py::arg("debugContext") = std::string());
  cls.def(
      "addInputTensor",
      [](Builder &b, const py::object &dataType, const Shape &shape,
         const DebugContext &dc) {
        return b.addInputTensor(TensorInfo(dataTypeFromPython(dataType), shape), dc);
      },
      py::arg("dataType"), py::arg("shape"), py::arg("debugContext") = std::string());
  cls.def("addInputTensor",
          py::overload_cast<const TensorInfo &, const InputSettings &,
                            const DebugContext &>(&Builder::addInputTensor),
          py::arg("tensorInfo"), py::arg("settings"),
          py::arg("debugContext") = std::string());
  cls.def(
      "addInputTensor",
      [](Builder &b, const py::object &dataType, const Shape &shape,
         const InputSettings &settings, const DebugContext &dc) {
        return b.addInputTensor(TensorInfo(dataTypeFromPython(dataType), shape),
                                settings, dc);
      },
      py::arg("dataType"), py::arg("shape"), py::arg("settings"),
      py::arg("debugContext") = std::string());
  cls.def("addUntypedInputTensor", &Builder::addUntypedInputTensor,
          py::arg("debugContext") = std::string());
  cls.def("addInitializedInputTensor", &Builder::addInitializedInputTensor,
          py::arg("initVal"), py::arg("debugContext") = std::string());
  cls.def("addOutputTensor", &Builder::addOutputTensor, py::arg("outputName"));
  cls.def("_createSubgraphBuilder", &Builder::createSubgraphBuilder,
          py::return_value_policy::reference_internal);

  // The opset objects refer to the builder: they keep it alive.
#define POPART_PY_OPSET(N)                                                     \
  cls.def_property_readonly("aiOnnxOpset" #N, &Builder::aiOnnxOpset##N,        \
                            py::keep_alive<0, 1>());
  POPART_PY_OPSET(6)
  POPART_PY_OPSET(7)
  POPART_PY_OPSET(8)
  POPART_PY_OPSET(9)
  POPART_PY_OPSET(10)
  POPART_PY_OPSET(11)
  POPART_PY_OPSET(12)
  POPART_PY_OPSET(13)
  POPART_PY_OPSET(14)
  POPART_PY_OPSET(15)
  POPART_PY_OPSET(16)
  POPART_PY_OPSET(17)
#undef POPART_PY_OPSET
  static_assert(maxAiOnnxOpset == 17, "bind the builder's new opsets");
  cls.def_property_readonly("aiGraphcoreOpset1", &Builder::aiGraphcoreOpset1,
                            py::keep_alive<0, 1>());

  cls.def(
      "customOp",
      [](Builder &b, const std::string &opName, int opVersion,
         const std::string &domain, const std::vector<TensorId> &inputs,
         const py::dict &attributes, unsigned numOutputs, const DebugContext &dc) {
        return b.customOp(OperatorIdentifier(domain, opName, opVersion), opVersion,
                          inputs, numOutputs, toAttributes(attributes), dc);
      },
      py::arg("opName"), py::arg("opVersion"), py::arg("domain"), py::arg("inputs"),
      py::arg("attributes"), py::arg("numOutputs") = 1,
      py::arg("name") = std::string());

  // Annotations.
  bindAnnotation(cls, "virtualGraph", sVirtualGraph,
                 py::overload_cast<const TensorId &, int64_t>(&Builder::virtualGraph),
                 0);
  bindAnnotation(cls, "pipelineStage", sPipelineStage, &Builder::pipelineStage,
                 std::nullopt);
  bindAnnotation(cls, "executionPhase", sExecutionPhase, &Builder::executionPhase, 0);
  bindRecomputation(cls);
  cls.def("getVirtualGraph", &Builder::getVirtualGraph, py::arg("nodeOutputNames"));
  cls.def("nameScope",
          [](Builder &b, const std::string &name) { return NameScope(b, name); },
          py::arg("name"), py::keep_alive<0, 1>());
  cls.def("getNameScope", &Builder::getNameScope, py::arg("name") = "");
  cls.def("setAvailableMemoryProportion", &Builder::setAvailableMemoryProportion,
          py::arg("nodeOutputName"), py::arg("availableMemoryProportion"));
  cls.def(
      "setAvailableMemoryProportion",
      [](Builder &b, const std::set<TensorId> &ids, float proportion) {
        for (const auto &id : ids)
          b.setAvailableMemoryProportion(id, proportion);
      },
      py::arg("nodeOutputNames"), py::arg("availableMemoryProportion"));
  cls.def("setPartialsType", &Builder::setPartialsType, py::arg("nodeOutputName"),
          py::arg("partialsType"));
  cls.def("getPartialsType", &Builder::getPartialsType, py::arg("nodeOutputName"));
  cls.def("excludePatterns",
          py::overload_cast<const TensorId &, const std::vector<std::string> &>(
              &Builder::excludePatterns),
          py::arg("nodeOutputName"), py::arg("patternNames"));
  cls.def("excludePatterns",
          py::overload_cast<const std::set<TensorId> &,
                            const std::vector<std::string> &>(
              &Builder::excludePatterns),
          py::arg("nodeOutputNames"), py::arg("patternNames"));

  // Node attributes, by the type of the value.
  cls.def("addNodeAttribute",
          [](Builder &b, const std::string &name, const py::object &value,
             const std::set<TensorId> &ids) {
            const any a = toAttribute(name, value);
            if (auto v = nonstd::any_cast<int64_t>(&a))
              b.addNodeAttribute(name, *v, ids);
            else if (auto v = nonstd::any_cast<float>(&a))
              b.addNodeAttribute(name, *v, ids);
            else if (auto v = nonstd::any_cast<std::string>(&a))
              b.addNodeAttribute(name, *v, ids);
            else if (auto v = nonstd::any_cast<std::vector<int64_t>>(&a))
              b.addNodeAttribute(name, *v, ids);
            else if (auto v = nonstd::any_cast<std::vector<float>>(&a))
              b.addNodeAttribute(name, *v, ids);
            else if (auto v = nonstd::any_cast<std::vector<std::string>>(&a))
              b.addNodeAttribute(name, *v, ids);
            else
              throw error("Attribute '{}': a node attribute is an int, a float, "
                          "a str or a list of one of them",
                          name);
          },
          py::arg("attributeName"), py::arg("attributeValue"),
          py::arg("nodeOutputNames"));
  cls.def("nodeHasAttribute", &Builder::nodeHasAttribute, py::arg("attributeName"),
          py::arg("nodeOutputNames"));
  cls.def("getInt64NodeAttribute", &Builder::getInt64NodeAttribute,
          py::arg("attributeName"), py::arg("nodeOutputNames"));
  cls.def("getInt64VectorNodeAttribute", &Builder::getInt64VectorNodeAttribute,
          py::arg("attributeName"), py::arg("nodeOutputNames"));
  cls.def("getFloatNodeAttribute", &Builder::getFloatNodeAttribute,
          py::arg("attributeName"), py::arg("nodeOutputNames"));
  cls.def("getStringNodeAttribute", &Builder::getStringNodeAttribute,
          py::arg("attributeName"), py::arg("nodeOutputNames"));
  cls.def("removeNodeAttribute", &Builder::removeNodeAttribute,
          py::arg("attributeName"), py::arg("nodeOutputNames"));
  cls.def("getAllNodeAttributeNames", &Builder::getAllNodeAttributeNames,
          py::arg("nodeOutputNames"));

  // The model.
  cls.def(
      "getModelProto",
      [](const Builder &b, bool humanReadable) -> py::object {
        const std::string proto = b.getModelProto(humanReadable);
        if (humanReadable)
          return py::str(proto);
        return py::bytes(proto);
      },
      py::arg("humanReadable") = false);
  cls.def("saveModelProto", &Builder::saveModelProto, py::arg("filename"));
  cls.def("setGraphName", &Builder::setGraphName, py::arg("name"));
  cls.def("getInputTensorIds", &Builder::getInputTensorIds);
  cls.def("getOutputTensorIds", &Builder::getOutputTensorIds);
  cls.def("getValueTensorIds", &Builder::getValueTensorIds);
  cls.def("getTrainableTensorIds", &Builder::getTrainableTensorIds);
  cls.def("hasValueInfo", &Builder::hasValueInfo, py::arg("id"));
  cls.def("getTensorShape", &Builder::getTensorShape, py::arg("id"));
  cls.def("getTensorDtypeString", &Builder::getTensorDtypeString, py::arg("id"));
  cls.def("getTensorDataType", &Builder::getTensorDataType, py::arg("id"));
  cls.def("isInitializer", &Builder::isInitializer, py::arg("id"));
}

} // namespace python
} // namespace popart
