// ai.onnx.preview.training Gradient: the derivatives of the value named by
// the attribute "y" with respect to the values named by "xs", at the values
// the node's inputs give xs and "zs" (zs held fixed). The nodes of the
// enclosing graph that compute y from them become a subgraph taking xs and
// zs as inputs (values it reads besides become implicit inputs, as an If
// branch's do); its gradient subgraph (transforms/Autodiff.hpp), seeded
// with ones, is run by a CallOp. A non-scalar y is differentiated as the
// sum of its elements, the seed reverse-mode differentiation starts from.
#include "core/Describe.hpp"
#include "ir/HostData.hpp"
#include "ir/Ir.hpp"
#include "ir/OnnxImport.hpp"
#include "ops/CallOp.hpp"
#include "transforms/Autodiff.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace popart {
namespace {

const char *const previewTraining = "ai.onnx.preview.training";

struct GradientAttributes {
  std::vector<std::string> xs, zs;
  std::string y;
};

GradientAttributes readAttributes(const onnx::NodeProto &node,
                                  const std::string &nodeName) {
  GradientAttributes a;
  bool hasY = false;
  for (const auto &attr : node.attribute()) {
    if (attr.name() == "xs" || attr.name() == "zs") {
      if (attr.type() != onnx::AttributeProto::STRINGS)
        throw error("Node '{}' (Gradient): the attribute '{}' must be a list "
                    "of tensor names",
                    nodeName, attr.name());
      (attr.name() == "xs" ? a.xs : a.zs)
          .assign(attr.strings().begin(), attr.strings().end());
    } else if (attr.name() == "y") {
      if (attr.type() != onnx::AttributeProto::STRING)
        throw error("Node '{}' (Gradient): the attribute 'y' must be a tensor "
                    "name",
                    nodeName);
      a.y = attr.s();
      hasY = true;
    } else if (attr.name().rfind("__", 0) != 0) {
      throw error("Node '{}' (Gradient): the attribute '{}' is not supported",
                  nodeName, attr.name());
    }
  }
  if (!hasY || a.y.empty())
    throw error("Node '{}' (Gradient): the attribute 'y' is missing", nodeName);
  if (a.xs.empty())
    throw error("Node '{}' (Gradient): the attribute 'xs' is missing or "
                "empty",
                nodeName);
  std::set<std::string> seen;
  for (const auto *names : {&a.xs, &a.zs})
    for (const auto &n : *names)
      if (!seen.insert(n).second)
        throw error("Node '{}' (Gradient): '{}' is named twice in xs and zs",
                    nodeName, n);
  return a;
}

// The names a node reads, those of the subgraphs of its graph attributes
// included (a branch reading an x depends on it).
void namesRead(const onnx::NodeProto &node, std::vector<std::string> &out) {
  for (const auto &in : node.input())
    if (!in.empty())
      out.push_back(in);
  for (const auto &attr : node.attribute()) {
    if (attr.has_g())
      for (const auto &n : attr.g().node())
        namesRead(n, out);
    for (const auto &g : attr.graphs())
      for (const auto &n : g.node())
        namesRead(n, out);
  }
}

// The nodes of `enclosing` before the Gradient node that compute y from
// xs and zs, in their order: y's producers back to the cut (xs and zs) or
// to values no earlier node makes (graph inputs, initializers).
std::vector<int> coneOfY(const onnx::NodeProto &gradient,
                         const std::string &nodeName,
                         const onnx::GraphProto &enclosing,
                         const GradientAttributes &a) {
  int position = enclosing.node_size();
  for (int i = 0; i < enclosing.node_size(); ++i)
    if (&enclosing.node(i) == &gradient)
      position = i;
  std::map<std::string, int> producer, later;
  for (int i = 0; i < enclosing.node_size(); ++i)
    for (const auto &out : enclosing.node(i).output())
      if (!out.empty())
        (i < position ? producer : later)[out] = i;
  std::set<std::string> cut(a.xs.begin(), a.xs.end());
  cut.insert(a.zs.begin(), a.zs.end());
  std::set<int> cone;
  std::set<std::string> visited;
  std::vector<std::string> stack{a.y};
  while (!stack.empty()) {
    const std::string name = stack.back();
    stack.pop_back();
    if (cut.count(name) || !visited.insert(name).second)
      continue;
    auto found = producer.find(name);
    if (found == producer.end()) {
      if (later.count(name))
        throw error("Node '{}' (Gradient): '{}' is computed after it; a "
                    "Gradient follows the nodes that compute its 'y'",
                    nodeName, name);
      continue;
    }
    if (cone.insert(found->second).second) {
      std::vector<std::string> reads;
      namesRead(enclosing.node(found->second), reads);
      stack.insert(stack.end(), reads.begin(), reads.end());
    }
  }
  return {cone.begin(), cone.end()};
}

} // namespace

bool isGradientNode(const std::string &domain, const std::string &type) {
  return domain == previewTraining && type == "Gradient";
}

void importGradientNode(const onnx::NodeProto &node,
                        const std::string &nodeName,
                        const onnx::GraphProto &enclosing,
                        const OnnxImportSettings &settings, OnnxScope &scope) {
  const GradientAttributes a = readAttributes(node, nodeName);
  const std::size_t nx = a.xs.size();
  if (static_cast<std::size_t>(node.input_size()) != nx + a.zs.size())
    throw error("Node '{}' (Gradient): {} inputs, but xs and zs name {} "
                "tensors (an input gives each its value)",
                nodeName, node.input_size(), nx + a.zs.size());
  if (static_cast<std::size_t>(node.output_size()) > nx)
    throw error("Node '{}' (Gradient): {} outputs, but xs names {} tensors",
                nodeName, node.output_size(), nx);
  Graph &graph = scope.graph;
  std::vector<TensorId> inputs;
  std::vector<TensorInfo> infos;
  for (int i = 0; i < node.input_size(); ++i) {
    if (node.input(i).empty())
      throw error("Node '{}' (Gradient): input {} is missing", nodeName, i);
    inputs.push_back(scope.resolve(node.input(i), nodeName));
    infos.push_back(graph.getTensor(inputs.back()).info);
  }
  for (std::size_t i = 0; i < nx; ++i)
    if (!isDifferentiable(infos[i]))
      throw error("Node '{}' (Gradient): x '{}' is {}; only floating-point "
                  "values have a gradient",
                  nodeName, a.xs[i], describe(infos[i]));

  // y as a function of xs and zs.
  onnx::GraphProto forward;
  forward.set_name(nodeName + "/forward");
  for (const auto *names : {&a.xs, &a.zs})
    for (const auto &n : *names)
      forward.add_input()->set_name(n);
  for (int i : coneOfY(node, nodeName, enclosing, a))
    *forward.add_node() = enclosing.node(i);
  forward.add_output()->set_name(a.y);
  auto fwd = importBody(forward, infos, settings, scope, nodeName);
  const Graph &fwdGraph = fwd->graph;
  const TensorInfo yInfo = fwdGraph.getTensor(fwdGraph.outputs.at(0)).info;
  if (!isDifferentiable(yInfo))
    throw error("Node '{}' (Gradient): y '{}' is {}; only a floating-point "
                "value can be differentiated",
                nodeName, a.y, describe(yInfo));

  Ir &ir = graph.getIr();
  const SubgraphGradient gradient = growSubgraphGradient(ir, fwdGraph);
  for (const auto &io : fwd->getImplicitInputs())
    inputs.push_back(io.first);
  ir.removeGraph(fwdGraph.getGraphId());

  const TensorId seed = graph.uniqueId(nodeName + "/dy");
  graph.addTensor(
      seed, yInfo, TensorType::Const,
      fromDoubles(std::vector<double>(
                      static_cast<std::size_t>(yInfo.nelms()), 1.0),
                  yInfo.dataType()));
  inputs.push_back(seed);

  std::vector<TensorId> outputs;
  std::vector<bool> given(nx, false);
  for (int of : gradient.gradientOf) {
    const auto i = static_cast<std::size_t>(of);
    if (i < static_cast<std::size_t>(node.output_size()) &&
        !node.output(of).empty()) {
      outputs.push_back(scope.define(node.output(of)));
      given[i] = true;
    } else {
      outputs.push_back(graph.uniqueId(nodeName + "/unused_gradient"));
    }
  }
  Op &call = graph.addOp(std::make_unique<CallOp>(
      OperatorIdentifier(Domain::ai_graphcore, "Call", 1),
      Op::Settings(graph, nodeName), gradient.graphId));
  try {
    graph.connect(call, inputs, outputs);
  } catch (const error &e) {
    throw error("Node '{}' (Gradient): {}", nodeName, e.what());
  }
  // y does not depend on these xs: their gradients are zeros.
  for (std::size_t i = 0; i < nx && i < static_cast<std::size_t>(node.output_size()); ++i)
    if (!given[i] && !node.output(static_cast<int>(i)).empty())
      graph.addTensor(scope.define(node.output(static_cast<int>(i))), infos[i],
                      TensorType::Const,
                      std::vector<char>(
                          static_cast<std::size_t>(infos[i].nbytes()), 0));
  logging::ir::debug("Gradient '{}': d{} by {} x(s), through subgraph '{}'",
                     nodeName, a.y, nx, gradient.graphId);
}

} // namespace popart
