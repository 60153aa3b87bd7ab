// The names an ONNX graph being imported reads (ir/OnnxImport.hpp).
#include "ir/OnnxImport.hpp"

#include <popart/error.hpp>

namespace popart {

TensorId OnnxScope::resolve(const std::string &name, const std::string &reader) {
  auto found = names.find(name);
  if (found != names.end())
    return found->second;
  if (!parent) {
    if (!graph.hasTensor(name))
      throw error("Node '{}': input '{}' is not produced before it", reader,
                  name);
    return name;
  }
  // A value of an enclosing graph: a constant is copied in (so that what
  // reads it can fold), anything else becomes an input of this subgraph.
  const TensorId outer = parent->resolve(name, reader);
  const Tensor &t = parent->graph.getTensor(outer);
  const TensorId local = define(name);
  if (t.type == TensorType::Const && !t.producer) {
    graph.addTensor(local, t.info, TensorType::Const, t.data);
  } else {
    graph.addTensor(local, t.info, TensorType::ActGrad);
    graph.inputs.push_back(local);
    implicitInputs.emplace_back(outer, local);
  }
  return local;
}

TensorId OnnxScope::define(const std::string &name) {
  if (!parent)
    return name;
  if (names.count(name))
    throw error("Subgraph '{}': the value '{}' is defined twice",
                graph.getGraphId(), name);
  const TensorId id = graph.getGraphId() + "/" + name;
  names.emplace(name, id);
  return id;
}

TensorId OnnxScope::addInput(const std::string &name, const TensorInfo &info) {
  const TensorId id = define(name);
  graph.addTensor(id, info, TensorType::ActGrad);
  graph.inputs.push_back(id);
  return id;
}

} // namespace popart
