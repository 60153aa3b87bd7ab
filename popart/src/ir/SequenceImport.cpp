#include "ir/SequenceImport.hpp"

#include "ir/Graph.hpp"
#include "ir/HostData.hpp"
#include "ir/Ir.hpp"
#include "onnx/OnnxUtil.hpp"
#include "transforms/GraphBuilding.hpp"

#include <popart/error.hpp>
#include <popart/onnxoperators.gen.hpp>

#include <onnx/onnx_pb.h>

#include <set>

namespace popart {
namespace {

const std::set<std::string> sequenceOps = {
    "SequenceConstruct", "SequenceEmpty",      "SequenceAt",
    "SequenceInsert",    "SequenceErase",      "SequenceLength",
    "SequenceMap",       "SplitToSequence",    "ConcatFromSequence",
    "Optional",          "OptionalHasElement", "OptionalGetElement"};

bool hasInput(const onnx::NodeProto &node, int i) {
  return i < node.input_size() && !node.input(i).empty();
}

int64_t intAttribute(const onnx::NodeProto &node, const std::string &name,
                     int64_t defaultValue) {
  const auto *a = onnxutil::findAttribute(node, name);
  return a ? a->i() : defaultValue;
}

} // namespace

SequenceImporter::SequenceImporter(Graph &graph, NodeImporter importNode)
    : graph(graph), importNode(std::move(importNode)) {}

bool SequenceImporter::handles(const onnx::NodeProto &node) const {
  const bool onnxDomain = node.domain().empty() || node.domain() == "ai.onnx";
  if (onnxDomain && sequenceOps.count(node.op_type()))
    return true;
  if (onnxDomain && (node.op_type() == "If" || node.op_type() == "Loop") &&
      takesOrGivesSequences(node))
    return true;
  for (const auto &in : node.input())
    if (values.count(in))
      return true;
  return false;
}

TensorId SequenceImporter::elementId(const TensorId &name, std::size_t k) {
  return name + "[" + std::to_string(k) + "]";
}

void SequenceImporter::rejectInput(const onnx::ValueInfoProto &input) {
  const auto kind = input.type().value_case();
  if (kind != onnx::TypeProto::kSequenceType &&
      kind != onnx::TypeProto::kOptionalType)
    return;
  throw error("Model input '{}' is {}: the IR holds tensors only, so give "
              "its elements as tensor inputs gathered by a {} node (as "
              "popart_run and onnx_io::ModelRunner do for a value given "
              "with --input)",
              input.name(),
              kind == onnx::TypeProto::kSequenceType ? "a sequence"
                                                     : "an optional",
              kind == onnx::TypeProto::kSequenceType ? "SequenceConstruct"
                                                     : "Optional");
}

const SequenceValue &SequenceImporter::get(const onnx::NodeProto &node,
                                           int input) const {
  if (!hasInput(node, input))
    throw error("{}: input {} (a sequence or optional) is missing",
                node.op_type(), input);
  auto found = values.find(node.input(input));
  if (found == values.end())
    throw error("{}: input {} ('{}') is not a sequence or optional value",
                node.op_type(), input, node.input(input));
  return found->second;
}

int64_t SequenceImporter::constantInt(const onnx::NodeProto &node, int input,
                                      const std::string &what) const {
  Tensor &t = graph.getTensor(node.input(input));
  if (t.type != TensorType::Const && t.producer)
    foldConstantOp(graph, *t.producer);
  if (t.type != TensorType::Const)
    throw error("the {} (input {}, '{}') must be a constant: the sequence "
                "is resolved when the IR is prepared (give the value as a "
                "constant to specialise the session on it)",
                what, input, t.id);
  if (t.info.nelms() != 1)
    throw error("the {} '{}' must hold one value, not {}", what, t.id,
                t.info.nelms());
  return static_cast<int64_t>(toDoubles(t.data, t.info.dataType())[0]);
}

TensorId SequenceImporter::copyOf(const TensorId &from, const TensorId &to,
                                  const std::string &nodeName) {
  if (graph.hasTensor(to))
    throw error("Node '{}': its output '{}' is already a tensor of the graph",
                nodeName, to);
  addBuiltinOp(graph, Onnx::Operators::Identity_1, nodeName, {from}, {to});
  return to;
}

void SequenceImporter::import(const onnx::NodeProto &node,
                              const std::string &nodeName) {
  const std::string &type = node.op_type();
  auto define = [&](SequenceValue v) {
    if (node.output_size() < 1 || node.output(0).empty())
      throw error("{} '{}' has no output", type, nodeName);
    if (graph.hasTensor(node.output(0)) || values.count(node.output(0)))
      throw error("{} '{}': its output '{}' is already defined", type,
                  nodeName, node.output(0));
    values[node.output(0)] = std::move(v);
  };
  try {
    if (type == "SequenceConstruct") {
      SequenceValue v;
      for (const auto &in : node.input()) {
        const Tensor &t = graph.getTensor(in);
        if (v.elementType != DataType::UNDEFINED &&
            t.info.dataType() != v.elementType)
          throw error("the elements must have one type: '{}' is {}, not {}",
                      in, t.info.data_type(),
                      TensorInfo(v.elementType, {}).data_type());
        v.elementType = t.info.dataType();
        v.elements.push_back(in);
      }
      if (v.elements.empty())
        throw error("it needs at least one input");
      define(v);
    } else if (type == "SequenceEmpty") {
      SequenceValue v;
      const auto dtype = intAttribute(node, "dtype", onnx::TensorProto::FLOAT);
      onnx::TensorProto probe;
      probe.set_data_type(static_cast<int32_t>(dtype));
      v.elementType = TensorInfo(probe).dataType();
      define(v);
    } else if (type == "SequenceAt") {
      sequenceAt(node, nodeName);
    } else if (type == "SequenceInsert") {
      sequenceInsert(node);
    } else if (type == "SequenceErase") {
      sequenceErase(node);
    } else if (type == "SequenceLength") {
      const SequenceValue &s = get(node, 0);
      if (s.optional)
        throw error("input 0 ('{}') is an optional, not a sequence",
                    node.input(0));
      graph.addTensor(node.output(0), TensorInfo(DataType::INT64, {}),
                      TensorType::Const,
                      fromDoubles({double(s.elements.size())}, DataType::INT64));
    } else if (type == "ConcatFromSequence") {
      concatFromSequence(node, nodeName);
    } else if (type == "SplitToSequence") {
      splitToSequence(node, nodeName);
    } else if (type == "SequenceMap") {
      sequenceMap(node, nodeName);
    } else if (type == "Optional" || type == "OptionalHasElement" ||
               type == "OptionalGetElement") {
      optionalOps(node, nodeName);
    } else if (type == "If") {
      ifOfSequences(node, nodeName);
    } else if (type == "Loop") {
      loopOfSequences(node, nodeName);
    } else if (type == "Identity" && node.input_size() == 1) {
      define(get(node, 0));
    } else {
      for (const auto &in : node.input())
        if (values.count(in))
          throw error("input '{}' is {} value, which only the sequence and "
                      "optional ops take",
                      in, values.at(in).optional ? "an optional" : "a sequence");
    }
  } catch (const error &e) {
    throw error("Node '{}' ({}): {}", nodeName, type, e.what());
  }
}

void SequenceImporter::sequenceAt(const onnx::NodeProto &node,
                                  const std::string &nodeName) {
  const SequenceValue &s = get(node, 0);
  if (s.optional)
    throw error("input 0 ('{}') is an optional, not a sequence", node.input(0));
  const int64_t n = int64_t(s.elements.size());
  if (!hasInput(node, 1))
    throw error("the position (input 1) is missing");
  const int64_t pos = constantInt(node, 1, "position");
  if (pos < -n || pos >= n)
    throw error("position {} is outside [{}, {}] of the sequence '{}' of {} "
                "elements",
                pos, -n, n - 1, node.input(0), n);
  copyOf(s.elements[std::size_t(pos < 0 ? pos + n : pos)], node.output(0),
         nodeName);
}

void SequenceImporter::sequenceInsert(const onnx::NodeProto &node) {
  SequenceValue s = get(node, 0);
  if (s.optional)
    throw error("input 0 ('{}') is an optional, not a sequence", node.input(0));
  if (!hasInput(node, 1))
    throw error("the tensor to insert (input 1) is missing");
  const Tensor &t = graph.getTensor(node.input(1));
  if (s.elementType != DataType::UNDEFINED &&
      t.info.dataType() != s.elementType)
    throw error("the tensor '{}' is {}, but the sequence '{}' holds {}",
                t.id, t.info.data_type(), node.input(0),
                TensorInfo(s.elementType, {}).data_type());
  const int64_t n = int64_t(s.elements.size());
  int64_t pos = n;
  if (hasInput(node, 2)) {
    pos = constantInt(node, 2, "position");
    if (pos < -n || pos > n)
      throw error("position {} is outside [{}, {}] of the sequence '{}' of "
                  "{} elements",
                  pos, -n, n, node.input(0), n);
    if (pos < 0)
      pos += n;
  }
  s.elements.insert(s.elements.begin() + pos, t.id);
  s.elementType = t.info.dataType();
  values[node.output(0)] = s;
}

void SequenceImporter::sequenceErase(const onnx::NodeProto &node) {
  SequenceValue s = get(node, 0);
  if (s.optional)
    throw error("input 0 ('{}') is an optional, not a sequence", node.input(0));
  const int64_t n = int64_t(s.elements.size());
  if (n == 0)
    throw error("the sequence '{}' is empty", node.input(0));
  int64_t pos = n - 1;
  if (hasInput(node, 1)) {
    pos = constantInt(node, 1, "position");
    if (pos < -n || pos >= n)
      throw error("position {} is outside [{}, {}] of the sequence '{}' of "
                  "{} elements",
                  pos, -n, n - 1, node.input(0), n);
    if (pos < 0)
      pos += n;
  }
  s.elements.erase(s.elements.begin() + pos);
  values[node.output(0)] = s;
}

void SequenceImporter::concatFromSequence(const onnx::NodeProto &node,
                                          const std::string &nodeName) {
  const SequenceValue &s = get(node, 0);
  if (s.optional)
    throw error("input 0 ('{}') is an optional, not a sequence", node.input(0));
  if (s.elements.empty())
    throw error("the sequence '{}' is empty", node.input(0));
  if (!onnxutil::findAttribute(node, "axis"))
    throw error("the attribute 'axis' is required");
  int64_t axis = intAttribute(node, "axis", 0);
  const int64_t newAxis = intAttribute(node, "new_axis", 0);
  if (newAxis != 0 && newAxis != 1)
    throw error("new_axis must be 0 or 1, not {}", newAxis);
  const int64_t rank = graph.getTensor(s.elements[0]).info.rank();
  const int64_t outRank = rank + newAxis;
  if (axis < -outRank || axis >= outRank)
    throw error("axis {} is outside [{}, {}] for elements of rank {}", axis,
                -outRank, outRank - 1, rank);
  if (axis < 0)
    axis += outRank;
  std::vector<TensorId> parts = s.elements;
  if (newAxis == 1) // stack: each element gets the new axis first
    for (auto &part : parts) {
      const TensorId id = graph.uniqueId(part + "/unsqueezed");
      addBuiltinOp(graph, Onnx::Operators::Unsqueeze_11, nodeName, {part},
                   {id}, OpAttributes{{}, {{"axes", {axis}}}});
      part = id;
    }
  addBuiltinOp(graph, Onnx::Operators::Concat_13, nodeName, parts,
               {node.output(0)}, OpAttributes{{{"axis", axis}}});
}

void SequenceImporter::splitToSequence(const onnx::NodeProto &node,
                                       const std::string &nodeName) {
  const Tensor &x = graph.getTensor(node.input(0));
  const int64_t rank = x.info.rank();
  int64_t axis = intAttribute(node, "axis", 0);
  if (axis < -rank || axis >= rank)
    throw error("axis {} is outside [{}, {}] for '{}' of rank {}", axis, -rank,
                rank - 1, x.id, rank);
  if (axis < 0)
    axis += rank;
  const int64_t length = x.info.dim(int(axis));
  const bool keepDims = intAttribute(node, "keepdims", 1) != 0;
  std::vector<int64_t> sizes;
  bool squeeze = false;
  if (hasInput(node, 1)) {
    Tensor &split = graph.getTensor(node.input(1));
    if (split.type != TensorType::Const && split.producer)
      foldConstantOp(graph, *split.producer);
    if (split.type != TensorType::Const)
      throw error("the split (input 1, '{}') must be a constant: the sequence "
                  "is resolved when the IR is prepared",
                  split.id);
    const auto given = toDoubles(split.data, split.info.dataType());
    if (split.info.rank() == 0) {
      const int64_t chunk = int64_t(given.at(0));
      if (chunk <= 0)
        throw error("the split size {} must be positive", chunk);
      for (int64_t at = 0; at < length; at += chunk)
        sizes.push_back(std::min(chunk, length - at));
    } else {
      int64_t total = 0;
      for (double d : given) {
        if (d < 0)
          throw error("the split sizes of '{}' must not be negative", split.id);
        sizes.push_back(int64_t(d));
        total += int64_t(d);
      }
      if (total != length)
        throw error("the split sizes add up to {}, but axis {} of '{}' has {}",
                    total, axis, x.id, length);
    }
  } else {
    sizes.assign(std::size_t(length), 1);
    squeeze = !keepDims;
  }
  SequenceValue s;
  s.elementType = x.info.dataType();
  int64_t start = 0;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    TensorId id = graph.uniqueId(node.output(0) + "/" + std::to_string(k));
    addBuiltinOp(graph, Onnx::Operators::Slice_1, nodeName, {x.id}, {id},
                 OpAttributes{{},
                              {{"starts", {start}},
                               {"ends", {start + sizes[k]}},
                               {"axes", {axis}}}});
    if (squeeze) {
      const TensorId squeezed = graph.uniqueId(id + "/squeezed");
      addBuiltinOp(graph, Onnx::Operators::Squeeze_11, nodeName, {id},
                   {squeezed}, OpAttributes{{}, {{"axes", {axis}}}});
      id = squeezed;
    }
    s.elements.push_back(id);
    start += sizes[k];
  }
  if (node.output_size() < 1 || node.output(0).empty())
    throw error("it has no output");
  values[node.output(0)] = s;
}

namespace {

// Renames the inputs of a subgraph's nodes, and its outputs, that name
// tensors of an enclosing graph which were renamed (nested If and Loop
// bodies read names of the graph they are in).
void renameOuterNames(onnx::GraphProto &g,
                      const std::map<std::string, std::string> &renamed) {
  std::set<std::string> local;
  for (const auto &i : g.input())
    local.insert(i.name());
  for (const auto &init : g.initializer())
    local.insert(init.name());
  for (const auto &n : g.node())
    for (const auto &o : n.output())
      local.insert(o);
  auto rename = [&](std::string &name) {
    auto found = renamed.find(name);
    if (!local.count(name) && found != renamed.end())
      name = found->second;
  };
  for (auto &n : *g.mutable_node()) {
    for (auto &in : *n.mutable_input())
      rename(in);
    for (auto &a : *n.mutable_attribute())
      if (a.has_g())
        renameOuterNames(*a.mutable_g(), renamed);
  }
  for (auto &o : *g.mutable_output())
    rename(*o.mutable_name());
}

bool isSequenceOrOptional(const onnx::TypeProto &type) {
  return type.has_sequence_type() || type.has_optional_type();
}

} // namespace

bool SequenceImporter::takesOrGivesSequences(const onnx::NodeProto &node) {
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
}

std::vector<std::string>
SequenceImporter::inlineGraph(const onnx::GraphProto &g,
                              const std::vector<std::string> &inputs,
                              const std::string &prefix) {
  if (std::size_t(g.input_size()) != inputs.size())
    throw error("the subgraph '{}' has {} inputs, but {} are given", g.name(),
                g.input_size(), inputs.size());
  // The subgraph's names, renamed for this copy; names from the outer
  // scope are left as they are.
  std::map<std::string, std::string> renamed;
  for (int i = 0; i < g.input_size(); ++i)
    renamed[g.input(i).name()] = inputs[std::size_t(i)];
  auto rename = [&](const std::string &name) {
    auto found = renamed.find(name);
    return name.empty() || found == renamed.end() ? name : found->second;
  };
  for (const auto &init : g.initializer()) {
    const TensorId id = graph.uniqueId(prefix + init.name());
    renamed[init.name()] = id;
    graph.addTensor(id, TensorInfo(init), TensorType::Const,
                    onnxutil::tensorData(init));
  }
  for (const auto &subNode : g.node()) {
    onnx::NodeProto copy = subNode;
    for (int i = 0; i < copy.input_size(); ++i)
      copy.set_input(i, rename(copy.input(i)));
    for (int i = 0; i < copy.output_size(); ++i)
      if (!copy.output(i).empty()) {
        const TensorId id = graph.uniqueId(prefix + copy.output(i));
        renamed[copy.output(i)] = id;
        copy.set_output(i, id);
      }
    for (auto &a : *copy.mutable_attribute())
      if (a.has_g())
        renameOuterNames(*a.mutable_g(), renamed);
    copy.set_name(prefix + (subNode.name().empty()
                                ? subNode.op_type() + "(" +
                                      (subNode.output_size() ? subNode.output(0)
                                                             : "") +
                                      ")"
                                : subNode.name()));
    importNode(copy);
  }
  std::vector<std::string> outputs;
  for (const auto &o : g.output()) {
    const std::string id = rename(o.name());
    if (!values.count(id) && !graph.hasTensor(id))
      throw error("the subgraph output '{}' is not produced", o.name());
    outputs.push_back(id);
  }
  return outputs;
}

void SequenceImporter::bind(const std::string &name, const std::string &value,
                            const std::string &nodeName) {
  auto found = values.find(value);
  if (found != values.end())
    values[name] = found->second;
  else
    copyOf(value, name, nodeName);
}

void SequenceImporter::sequenceMap(const onnx::NodeProto &node,
                                   const std::string &nodeName) {
  const auto *body = onnxutil::findAttribute(node, "body");
  if (!body || !body->has_g())
    throw error("the attribute 'body' (a graph) is required");
  const onnx::GraphProto &g = body->g();
  if (g.output_size() != node.output_size())
    throw error("the body has {} outputs, but the node has {}",
                g.output_size(), node.output_size());
  const SequenceValue &first = get(node, 0);
  if (first.optional)
    throw error("input 0 ('{}') is an optional, not a sequence", node.input(0));
  const std::size_t n = first.elements.size();
  for (int i = 1; i < node.input_size(); ++i) {
    auto found = values.find(node.input(i));
    if (found != values.end() &&
        (found->second.optional || found->second.elements.size() != n))
      throw error("input {} ('{}') is not a sequence of {} elements like "
                  "input 0",
                  i, node.input(i), n);
  }
  std::vector<SequenceValue> results(std::size_t(node.output_size()));
  for (std::size_t k = 0; k < n; ++k) {
    // Sequences give their element k, tensors themselves.
    std::vector<std::string> inputs;
    for (int i = 0; i < node.input_size(); ++i) {
      auto found = values.find(node.input(i));
      inputs.push_back(found != values.end() ? found->second.elements[k]
                                             : node.input(i));
    }
    const auto outputs =
        inlineGraph(g, inputs, nodeName + "/" + std::to_string(k) + "/");
    for (int j = 0; j < g.output_size(); ++j) {
      const std::string &id = outputs[std::size_t(j)];
      if (values.count(id))
        throw error("body output '{}' is a sequence or optional; the "
                    "elements of a SequenceMap result must be tensors",
                    g.output(j).name());
      results[std::size_t(j)].elements.push_back(id);
      results[std::size_t(j)].elementType =
          graph.getTensor(id).info.dataType();
    }
  }
  for (int j = 0; j < node.output_size(); ++j) {
    if (n == 0) { // an empty map: the declared element type
      const auto &t = g.output(j).type();
      if (t.has_tensor_type()) {
        onnx::TensorProto probe;
        probe.set_data_type(t.tensor_type().elem_type());
        results[std::size_t(j)].elementType = TensorInfo(probe).dataType();
      }
    }
    values[node.output(j)] = results[std::size_t(j)];
  }
}

void SequenceImporter::ifOfSequences(const onnx::NodeProto &node,
                                     const std::string &nodeName) {
  const bool cond = constantInt(node, 0, "condition") != 0;
  const auto *branch =
      onnxutil::findAttribute(node, cond ? "then_branch" : "else_branch");
  if (!branch || !branch->has_g())
    throw error("the attribute '{}' (a graph) is required",
                cond ? "then_branch" : "else_branch");
  const auto outputs = inlineGraph(branch->g(), {}, nodeName + "/" +
                                                        (cond ? "then" : "else") +
                                                        "/");
  if (outputs.size() != std::size_t(node.output_size()))
    throw error("the branch has {} outputs, but the node has {}",
                outputs.size(), node.output_size());
  for (int j = 0; j < node.output_size(); ++j)
    if (!node.output(j).empty())
      bind(node.output(j), outputs[std::size_t(j)], nodeName);
}

void SequenceImporter::loopOfSequences(const onnx::NodeProto &node,
                                       const std::string &nodeName) {
  const auto *body = onnxutil::findAttribute(node, "body");
  if (!body || !body->has_g())
    throw error("the attribute 'body' (a graph) is required");
  const onnx::GraphProto &g = body->g();
  if (!hasInput(node, 0))
    throw error("the trip count (input 0) must be given: a Loop of "
                "sequences is unrolled when the IR is prepared");
  const int64_t tripCount = constantInt(node, 0, "trip count");
  // Each iteration is a copy of the body in the IR: a bound keeps a bad
  // trip count from exhausting the host.
  constexpr int64_t maxIterations = 4096;
  if (tripCount > maxIterations)
    throw error("the trip count {} is more than the {} iterations a Loop of "
                "sequences may be unrolled into",
                tripCount, maxIterations);
  bool cond = hasInput(node, 1) ? constantInt(node, 1, "condition") != 0 : true;
  const int carried = node.input_size() - 2;
  const int scans = g.output_size() - 1 - carried;
  if (carried < 0 || scans < 0 || g.input_size() != carried + 2)
    throw error("the body's inputs and outputs do not match the node's");
  std::vector<std::string> state(node.input().begin() + 2, node.input().end());
  std::vector<std::vector<TensorId>> scanned(static_cast<std::size_t>(scans));
  for (int64_t k = 0; k < tripCount && cond; ++k) {
    const std::string prefix = nodeName + "/" + std::to_string(k) + "/";
    std::vector<std::string> inputs = {
        graph.uniqueId(prefix + "iteration"), graph.uniqueId(prefix + "cond")};
    graph.addTensor(inputs[0], TensorInfo(DataType::INT64, {}),
                    TensorType::Const, fromDoubles({double(k)}, DataType::INT64));
    graph.addTensor(inputs[1], TensorInfo(DataType::BOOL, {}),
                    TensorType::Const, fromDoubles({1.0}, DataType::BOOL));
    for (int j = 0; j < carried; ++j) {
      // A body input of optional type takes a sequence or tensor as an
      // optional holding it (the body's output gives the value itself).
      std::string value = state[std::size_t(j)];
      auto found = values.find(value);
      if (g.input(2 + j).type().has_optional_type() &&
          (found == values.end() || !found->second.optional)) {
        SequenceValue wrapped;
        wrapped.optional = true;
        if (found != values.end()) {
          wrapped.elements = found->second.elements;
          wrapped.elementType = found->second.elementType;
        } else {
          wrapped.ofSequence = false;
          wrapped.elements = {value};
          wrapped.elementType = graph.getTensor(value).info.dataType();
        }
        value = graph.uniqueId(prefix + g.input(2 + j).name());
        values[value] = wrapped;
      }
      inputs.push_back(value);
    }
    const auto outputs = inlineGraph(g, inputs, prefix);
    Tensor &condOut = graph.getTensor(outputs[0]);
    if (condOut.type != TensorType::Const && condOut.producer)
      foldConstantOp(graph, *condOut.producer);
    if (condOut.type != TensorType::Const)
      throw error("the body's condition '{}' must be a constant: a Loop of "
                  "sequences is unrolled when the IR is prepared",
                  g.output(0).name());
    cond = toDoubles(condOut.data, condOut.info.dataType()).at(0) != 0;
    state.assign(outputs.begin() + 1, outputs.begin() + 1 + carried);
    for (int j = 0; j < scans; ++j) {
      const std::string &id = outputs[std::size_t(1 + carried + j)];
      if (values.count(id))
        throw error("the scan output '{}' is a sequence or optional",
                    g.output(1 + carried + j).name());
      scanned[std::size_t(j)].push_back(id);
    }
  }
  for (int j = 0; j < carried && j < node.output_size(); ++j)
    if (!node.output(j).empty())
      bind(node.output(j), state[std::size_t(j)], nodeName);
  for (int j = 0; j < scans && carried + j < node.output_size(); ++j) {
    const std::string &out = node.output(carried + j);
    if (out.empty())
      continue;
    if (scanned[std::size_t(j)].empty())
      throw error("the scan output '{}' would be empty (the loop runs no "
                  "iteration; zero-size tensors are not supported)",
                  out);
    std::vector<TensorId> parts;
    for (const auto &id : scanned[std::size_t(j)]) {
      parts.push_back(graph.uniqueId(id + "/unsqueezed"));
      addBuiltinOp(graph, Onnx::Operators::Unsqueeze_11, nodeName, {id},
                   {parts.back()}, OpAttributes{{}, {{"axes", {0}}}});
    }
    addBuiltinOp(graph, Onnx::Operators::Concat_13, nodeName, parts, {out},
                 OpAttributes{{{"axis", 0}}});
  }
}

void SequenceImporter::optionalOps(const onnx::NodeProto &node,
                                   const std::string &nodeName) {
  const std::string &type = node.op_type();
  if (type == "Optional") {
    SequenceValue v;
    v.optional = true;
    if (hasInput(node, 0)) {
      auto found = values.find(node.input(0));
      if (found != values.end()) {
        if (found->second.optional)
          throw error("an optional of an optional is not supported");
        v.elements = found->second.elements;
        v.elementType = found->second.elementType;
      } else {
        const Tensor &t = graph.getTensor(node.input(0));
        v.ofSequence = false;
        v.elements = {t.id};
        v.elementType = t.info.dataType();
      }
    } else {
      const auto *typeAttr = onnxutil::findAttribute(node, "type");
      if (!typeAttr || !typeAttr->has_tp())
        throw error("an Optional without input needs the attribute 'type'");
      v.present = false;
      v.ofSequence = typeAttr->tp().has_sequence_type();
      const auto &tensorType = v.ofSequence
                                   ? typeAttr->tp().sequence_type().elem_type()
                                   : typeAttr->tp();
      if (tensorType.has_tensor_type()) {
        onnx::TensorProto probe;
        probe.set_data_type(tensorType.tensor_type().elem_type());
        v.elementType = TensorInfo(probe).dataType();
      }
    }
    if (graph.hasTensor(node.output(0)) || values.count(node.output(0)))
      throw error("its output '{}' is already defined", node.output(0));
    values[node.output(0)] = v;
    return;
  }
  const SequenceValue &o = get(node, 0);
  if (!o.optional)
    throw error("input 0 ('{}') is a sequence, not an optional", node.input(0));
  if (type == "OptionalHasElement") {
    graph.addTensor(node.output(0), TensorInfo(DataType::BOOL, {}),
                    TensorType::Const,
                    fromDoubles({o.present ? 1.0 : 0.0}, DataType::BOOL));
    return;
  }
  // OptionalGetElement
  if (!o.present)
    throw error("the optional '{}' holds no value", node.input(0));
  if (o.ofSequence) {
    SequenceValue s = o;
    s.optional = false;
    values[node.output(0)] = s;
  } else {
    copyOf(o.elements.at(0), node.output(0), nodeName);
  }
}

std::vector<TensorId> SequenceImporter::exposeOutput(const std::string &name) {
  const SequenceValue &v = values.at(name);
  std::vector<TensorId> ids;
  if (v.optional && !v.present)
    return ids;
  for (std::size_t k = 0; k < v.elements.size(); ++k)
    ids.push_back(copyOf(v.elements[k], elementId(name, k),
                         "output '" + name + "'"));
  return ids;
}

} // namespace popart
