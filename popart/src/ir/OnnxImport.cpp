// ONNX graph -> IR graph.
#include "ir/HostData.hpp"
#include "ir/Ir.hpp"
#include "ir/OnnxImport.hpp"
#include "ir/OpManager.hpp"
#include "ir/SequenceImport.hpp"
#include "onnx/OnnxUtil.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <onnx/defs/schema.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace popart {
namespace {

std::map<std::string, int64_t> opsetVersions(const onnx::ModelProto &model) {
  std::map<std::string, int64_t> versions;
  for (const auto &o : model.opset_import())
    versions[o.domain().empty() ? Domain::ai_onnx : o.domain()] = o.version();
  return versions;
}

// The version of the definition a node of the model uses: the latest
// since-version not after the model's opset (ONNX's rule).
OpVersion definitionVersion(const onnx::NodeProto &node,
                            const std::string &domain, int64_t opset) {
  if (domain != Domain::ai_onnx)
    return static_cast<OpVersion>(opset);
  const auto *schema =
      onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(opset), "");
  if (!schema)
    throw error("Node '{}': op type '{}' does not exist in ai.onnx opset {}",
                node.name(), node.op_type(), opset);
  return static_cast<OpVersion>(schema->SinceVersion());
}

void addConstantNode(const onnx::NodeProto &node, const TensorId &id,
                     Graph &graph) {
  // The value as a tensor, or (from opset 12) as one or a list of numbers.
  for (const auto &a : node.attribute()) {
    if (a.name() == "value") {
      graph.addTensor(id, TensorInfo(a.t()), TensorType::Const,
                      onnxutil::tensorData(a.t()));
      return;
    }
    if (a.name() == "value_float" || a.name() == "value_int") {
      const bool isFloat = a.name() == "value_float";
      const DataType type = isFloat ? DataType::FLOAT : DataType::INT64;
      graph.addTensor(id, TensorInfo(type, {}), TensorType::Const,
                      fromDoubles({isFloat ? double(a.f()) : double(a.i())}, type));
      return;
    }
    if (a.name() == "value_floats" || a.name() == "value_ints") {
      const bool isFloat = a.name() == "value_floats";
      const DataType type = isFloat ? DataType::FLOAT : DataType::INT64;
      std::vector<double> values;
      if (isFloat)
        values.assign(a.floats().begin(), a.floats().end());
      else
        values.assign(a.ints().begin(), a.ints().end());
      graph.addTensor(id, TensorInfo(type, {int64_t(values.size())}),
                      TensorType::Const, fromDoubles(values, type));
      return;
    }
  }
  throw error("Constant node '{}': only the value, value_float(s) and "
              "value_int(s) attributes are supported",
              node.name());
}

// The Builder's annotations of a node (its "__" attributes) as op settings.
void applyNodeAnnotations(const onnx::NodeProto &node, Op::Settings &settings) {
  for (const auto &a : node.attribute()) {
    const std::string &n = a.name();
    if (n == "__ipu_number")
      settings.vgraphId = a.i();
    else if (n == "__pipeline_stage")
      settings.pipelineStage = a.i();
    else if (n == "__execution_phase")
      settings.executionPhase = a.i();
    else if (n == "__exclude_patterns")
      settings.excludePatterns.assign(a.strings().begin(), a.strings().end());
    else if (n == "__schedule_priority")
      settings.schedulePriority = a.f();
    else if (n == "__recompute_output_in_backward_pass") {
      if (a.i() < 0 || a.i() > static_cast<int64_t>(RecomputeType::Recomputed))
        throw error("Node '{}': {} is not a RecomputeType", node.name(), a.i());
      settings.recomputeType = static_cast<RecomputeType>(a.i());
    }
  }
}

// Imports the nodes of one ONNX graph into its scope. The main graph also
// resolves sequence and optional values (ir/SequenceImport.hpp), whose
// SequenceMap bodies and inlined If and Loop iterations come back here one
// node at a time.
class NodeImporter {
public:
  NodeImporter(const onnx::GraphProto &g, const OnnxImportSettings &settings,
               OnnxScope &scope, bool withSequences)
      : proto(g), settings(settings), scope(scope) {
    // How many nodes read each tensor: without
    // enableConstantFoldingOfMultipleConsumers, an op reading a constant
    // that other nodes read too is not folded as it is made.
    for (const auto &node : g.node())
      for (const auto &in : std::set<std::string>(node.input().begin(),
                                                  node.input().end()))
        ++nodeConsumers[in];
    if (withSequences)
      sequences.emplace(scope.graph, [this](const onnx::NodeProto &node) {
        import(node);
      });
  }

  void importAll(const onnx::GraphProto &g) {
    for (const auto &node : g.node())
      import(node);
  }

  SequenceImporter *sequenceValues() {
    return sequences ? &*sequences : nullptr;
  }

  void import(const onnx::NodeProto &node);

private:
  bool mayFold(const onnx::NodeProto &node, const Op &op) const {
    if (settings.options.enableConstantFoldingOfMultipleConsumers ||
        op.foldsFromShapesOnly())
      return true;
    for (const auto &in : node.input()) {
      auto found = nodeConsumers.find(in);
      if (!in.empty() && found != nodeConsumers.end() && found->second > 1)
        return false;
    }
    return true;
  }

  const onnx::GraphProto &proto;
  const OnnxImportSettings &settings;
  OnnxScope &scope;
  std::map<std::string, int> nodeConsumers;
  std::optional<SequenceImporter> sequences;
};

void NodeImporter::import(const onnx::NodeProto &node) {
  Graph &graph = scope.graph;
  const std::string domain =
      node.domain().empty() ? Domain::ai_onnx : node.domain();
  const std::string nodeName = node.name().empty()
                                   ? node.op_type() + "(" + node.output(0) + ")"
                                   : node.name();
  if (domain == Domain::ai_onnx && node.op_type() == "Constant") {
    addConstantNode(node, scope.define(node.output(0)), graph);
    return;
  }
  if (sequences && sequences->handles(node)) {
    sequences->import(node, nodeName);
    return;
  }
  auto v = settings.opsets.find(domain);
  if (v == settings.opsets.end())
    throw error("Node '{}' of type {} is in domain '{}', which the model "
                "does not import",
                nodeName, node.op_type(), domain);
  const OpVersion version = definitionVersion(node, domain, v->second);
  if (isGradientNode(domain, node.op_type())) {
    importGradientNode(node, nodeName, proto, settings, scope);
    return;
  }
  if (isControlFlowNode(domain, node.op_type())) {
    Op &op = importControlFlowNode(node, nodeName, version, settings, scope);
    applyNodeAnnotations(node, op.settings);
    return;
  }
  Attributes attrs(node);
  std::vector<TensorId> inputIds;
  for (const auto &in : node.input())
    inputIds.push_back(in.empty() ? in : scope.resolve(in, nodeName));
  std::unique_ptr<Op> created;
  try {
    created = createOpForNode(domain, node.op_type(), version, graph, nodeName,
                              attrs, inputIds);
  } catch (const error &e) {
    throw error("{} (ai.onnx opset {})", e.what(), v->second);
  }
  applyNodeAnnotations(node, created->settings);
  Op &op = graph.addOp(std::move(created));
  for (int i = 0; i < node.input_size(); ++i)
    if (!inputIds[i].empty())
      graph.connectInput(op, i, inputIds[i]);
  for (int i = 0; i < node.output_size(); ++i)
    if (!node.output(i).empty())
      graph.createOutput(op, i, scope.define(node.output(i)));
  try {
    op.setup();
  } catch (const error &e) {
    throw error("Node '{}' ({}:{}): {}", nodeName, node.op_type(), version,
                e.what());
  }
  logging::ir::trace("Made op {}", op.str());
  if (mayFold(node, op))
    foldConstantOp(graph, op);
}

} // namespace

void importOnnxNodes(const onnx::GraphProto &g,
                     const OnnxImportSettings &settings, OnnxScope &scope) {
  NodeImporter(g, settings, scope, /*withSequences=*/false).importAll(g);
}

void importOnnxGraph(const onnx::ModelProto &model, const InputShapeInfo &shapes,
                     const SessionOptions &options, ExecutionMode mode,
                     Graph &graph) {
  const auto &g = model.graph();

  for (const auto &init : g.initializer()) {
    // In training the floating-point initializers are the weights; other
    // initializers (shapes, indices) stay constant so that they fold.
    const TensorInfo info(init);
    const bool isFloat = info.dataType() == DataType::FLOAT ||
                         info.dataType() == DataType::FLOAT16;
    TensorType type = TensorType::Const;
    if (mode == ExecutionMode::Training ? isFloat : !options.constantWeights)
      type = TensorType::Variable;
    graph.addTensor(init.name(), TensorInfo(init), type,
                    onnxutil::tensorData(init));
  }
  for (const auto &input : g.input()) {
    if (graph.hasTensor(input.name()))
      continue; // an initializer also listed as an input
    SequenceImporter::rejectInput(input);
    TensorInfo info;
    if (shapes.has(input.name())) {
      info = shapes.get(input.name());
    } else {
      try {
        info = TensorInfo(input.type());
      } catch (const error &e) {
        throw error("Model input '{}': {}; give its shape with InputShapeInfo",
                    input.name(), e.what());
      }
    }
    graph.addTensor(input.name(), info, TensorType::Stream);
    graph.inputs.push_back(input.name());
  }

  OnnxImportSettings settings{opsetVersions(model), options};
  OnnxScope scope(graph);
  NodeImporter nodes(g, settings, scope, /*withSequences=*/true);
  nodes.importAll(g);

  SequenceImporter &sequences = *nodes.sequenceValues();
  for (const auto &out : g.output()) {
    if (sequences.has(out.name())) {
      auto &elements = graph.sequenceOutputs[out.name()];
      elements = sequences.exposeOutput(out.name());
      graph.outputs.insert(graph.outputs.end(), elements.begin(),
                           elements.end());
      continue;
    }
    if (!graph.hasTensor(out.name()))
      throw error("Model output '{}' is not produced by the graph", out.name());
    graph.outputs.push_back(out.name());
  }
}

} // namespace popart
