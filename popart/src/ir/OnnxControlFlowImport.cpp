// ONNX If, Loop and Scan, and the builder's Call and PackedDataBlock: each
// graph attribute becomes a subgraph of the IR, imported in a scope of its
// own (ir/OnnxImport.hpp). The values of
// enclosing graphs a subgraph reads become inputs of it that its op
// passes in (constants are copied in instead), so that a subgraph only
// reads its own tensors and can be lowered once, into a poplar function.
#include "core/Describe.hpp"
#include "ir/Ir.hpp"
#include "ir/OnnxImport.hpp"
#include "ops/CallOp.hpp"
#include "onnx/OnnxUtil.hpp"
#include "ops/IfOp.hpp"
#include "ops/OnnxLoopOp.hpp"
#include "ops/PackedDataBlockOp.hpp"
#include "ops/ScanOp.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <algorithm>
#include <memory>
#include <set>

namespace popart {

namespace {

// The attributes each op reads: any other is an error naming the node.
void checkAttributes(const onnx::NodeProto &node, const std::string &nodeName,
                     const std::set<std::string> &known) {
  for (const auto &a : node.attribute())
    if (!known.count(a.name()) && a.name().rfind("__", 0) != 0)
      throw error("Node '{}' ({}): the attribute '{}' is not supported",
                  nodeName, node.op_type(), a.name());
}

void checkInputCount(const onnx::NodeProto &node, const std::string &nodeName,
                     int least) {
  if (node.input_size() < least)
    throw error("Node '{}' ({}): {} inputs, fewer than its {}", nodeName,
                node.op_type(), node.input_size(), least);
}

const onnx::GraphProto &graphAttribute(const onnx::NodeProto &node,
                                       const std::string &nodeName,
                                       const std::string &name) {
  for (const auto &a : node.attribute())
    if (a.name() == name) {
      if (a.type() != onnx::AttributeProto::GRAPH)
        throw error("Node '{}' ({}): the attribute '{}' must be a graph",
                    nodeName, node.op_type(), name);
      return a.g();
    }
  throw error("Node '{}' ({}): the graph attribute '{}' is missing", nodeName,
              node.op_type(), name);
}

std::vector<int64_t> intsAttribute(const onnx::NodeProto &node,
                                   const std::string &name) {
  for (const auto &a : node.attribute())
    if (a.name() == name)
      return {a.ints().begin(), a.ints().end()};
  return {};
}

int64_t intAttribute(const onnx::NodeProto &node, const std::string &nodeName,
                     const std::string &name) {
  for (const auto &a : node.attribute())
    if (a.name() == name)
      return a.i();
  throw error("Node '{}' ({}): the attribute '{}' is missing", nodeName,
              node.op_type(), name);
}

// An id for the subgraph of a graph attribute: its ONNX name, made unique.
std::string subgraphId(const Ir &ir, const onnx::GraphProto &body,
                       const std::string &nodeName) {
  const std::string base = body.name().empty() ? nodeName : body.name();
  std::string id = base;
  for (int n = 1; ir.hasGraph(id); ++n)
    id = base + "_" + std::to_string(n);
  return id;
}

} // namespace

std::unique_ptr<OnnxScope>
importBody(const onnx::GraphProto &body, const std::vector<TensorInfo> &inputs,
           const OnnxImportSettings &settings, OnnxScope &parent,
           const std::string &nodeName) {
  Ir &ir = parent.graph.getIr();
  Graph &g = ir.createGraph(subgraphId(ir, body, nodeName));
  logging::ir::debug("Importing subgraph '{}' of node '{}'", g.getGraphId(),
                     nodeName);
  auto scope = std::make_unique<OnnxScope>(g, parent);
  if (body.input_size() != static_cast<int>(inputs.size()))
    throw error("Node '{}': its subgraph '{}' has {} inputs, not {}", nodeName,
                body.name(), body.input_size(), inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i)
    scope->addInput(body.input(static_cast<int>(i)).name(), inputs[i]);
  for (const auto &init : body.initializer())
    g.addTensor(scope->define(init.name()), TensorInfo(init),
                TensorType::Const, onnxutil::tensorData(init));
  importOnnxNodes(body, settings, *scope);
  for (const auto &out : body.output())
    g.outputs.push_back(scope->resolve(out.name(), nodeName));
  return scope;
}

namespace {

// Adds the op with its inputs ("" = absent) and the node's outputs.
Op &addOp(std::unique_ptr<Op> created, const onnx::NodeProto &node,
           const std::string &nodeName, OnnxScope &scope,
           const std::vector<TensorId> &inputs) {
  Graph &graph = scope.graph;
  Op &op = graph.addOp(std::move(created));
  // Absent optional inputs (Loop's M and cond) keep their indices.
  op.inputs.resize(inputs.size(), nullptr);
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (!inputs[i].empty())
      graph.connectInput(op, static_cast<int>(i), inputs[i]);
  for (int j = 0; j < node.output_size(); ++j)
    graph.createOutput(op, j,
                       node.output(j).empty()
                           ? graph.uniqueId(nodeName + "/unused_output")
                           : scope.define(node.output(j)));
  try {
    op.setup();
  } catch (const error &e) {
    throw error("Node '{}' ({}:{}): {}", nodeName, node.op_type(),
                op.opid.version, e.what());
  }
  logging::ir::trace("Made op {}", op.str());
  return op;
}

TensorId resolveOptional(OnnxScope &scope, const onnx::NodeProto &node, int i,
                         const std::string &nodeName) {
  if (i >= node.input_size() || node.input(i).empty())
    return "";
  return scope.resolve(node.input(i), nodeName);
}

const TensorInfo &infoOf(OnnxScope &scope, const TensorId &id) {
  return scope.graph.getTensor(id).info;
}

Op &importIf(const onnx::NodeProto &node, const std::string &nodeName,
              OpVersion version, const OnnxImportSettings &settings,
              OnnxScope &scope) {
  checkAttributes(node, nodeName, {"then_branch", "else_branch"});
  checkInputCount(node, nodeName, 1);
  const TensorId cond = scope.resolve(node.input(0), nodeName);
  auto thenScope =
      importBody(graphAttribute(node, nodeName, "then_branch"), {}, settings,
                 scope, nodeName + "/then");
  auto elseScope =
      importBody(graphAttribute(node, nodeName, "else_branch"), {}, settings,
                 scope, nodeName + "/else");
  // Both branches take every value either reads, in one order.
  std::vector<TensorId> outer;
  for (const OnnxScope *branch : {thenScope.get(), elseScope.get()})
    for (const auto &io : branch->getImplicitInputs())
      if (std::find(outer.begin(), outer.end(), io.first) == outer.end())
        outer.push_back(io.first);
  for (OnnxScope *branch : {thenScope.get(), elseScope.get()}) {
    Graph &g = branch->graph;
    std::vector<TensorId> inputs;
    for (const TensorId &o : outer) {
      const auto &implicit = branch->getImplicitInputs();
      auto found = std::find_if(implicit.begin(), implicit.end(),
                                [&](const auto &io) { return io.first == o; });
      if (found != implicit.end()) {
        inputs.push_back(found->second);
      } else {
        // Read by the other branch only.
        const TensorId unused = g.uniqueId(g.getGraphId() + "/" + o);
        g.addTensor(unused, infoOf(scope, o), TensorType::ActGrad);
        inputs.push_back(unused);
      }
    }
    g.inputs = inputs;
  }
  std::vector<TensorId> inputs{cond};
  inputs.insert(inputs.end(), outer.begin(), outer.end());
  return addOp(std::make_unique<IfOp>(
            OperatorIdentifier(Domain::ai_onnx, "If", version),
            Op::Settings(scope.graph, nodeName), thenScope->graph.getGraphId(),
            elseScope->graph.getGraphId()),
        node, nodeName, scope, inputs);
}

Op &importLoop(const onnx::NodeProto &node, const std::string &nodeName,
                OpVersion version, const OnnxImportSettings &settings,
                OnnxScope &scope) {
  checkAttributes(node, nodeName, {"body"});
  checkInputCount(node, nodeName, 2);
  std::vector<TensorId> inputs{resolveOptional(scope, node, 0, nodeName),
                               resolveOptional(scope, node, 1, nodeName)};
  std::vector<TensorInfo> bodyInputs{TensorInfo(DataType::INT64, {}),
                                     TensorInfo(DataType::BOOL, {})};
  for (int i = 2; i < node.input_size(); ++i) {
    if (node.input(i).empty())
      throw error("Node '{}' (Loop): the carried value {} has no initial "
                  "value",
                  nodeName, i - 2);
    inputs.push_back(scope.resolve(node.input(i), nodeName));
    bodyInputs.push_back(infoOf(scope, inputs.back()));
  }
  const int carried = node.input_size() - 2;
  auto body = importBody(graphAttribute(node, nodeName, "body"), bodyInputs,
                         settings, scope, nodeName + "/body");
  for (const auto &io : body->getImplicitInputs())
    inputs.push_back(io.first);
  return addOp(std::make_unique<OnnxLoopOp>(
            OperatorIdentifier(Domain::ai_onnx, "Loop", version),
            Op::Settings(scope.graph, nodeName), body->graph.getGraphId(),
            carried),
        node, nodeName, scope, inputs);
}

Op &importScan(const onnx::NodeProto &node, const std::string &nodeName,
                OpVersion version, const OnnxImportSettings &settings,
                OnnxScope &scope) {
  const bool batched = version < 9;
  if (batched)
    checkAttributes(node, nodeName, {"body", "num_scan_inputs", "directions"});
  else
    checkAttributes(node, nodeName,
                    {"body", "num_scan_inputs", "scan_input_axes",
                     "scan_input_directions", "scan_output_axes",
                     "scan_output_directions"});
  const int numScanInputs =
      static_cast<int>(intAttribute(node, nodeName, "num_scan_inputs"));
  const int first = batched ? 1 : 0; // opset 8: sequence_lens first
  const int numStates = node.input_size() - first - numScanInputs;
  if (numScanInputs < 1 || numStates < 0)
    throw error("Node '{}' (Scan): num_scan_inputs is {}, but it has {} "
                "inputs",
                nodeName, numScanInputs, node.input_size() - first);
  std::vector<int64_t> inputAxes, inputDirections, outputAxes,
      outputDirections;
  if (batched) {
    inputDirections = intsAttribute(node, "directions");
  } else {
    inputAxes = intsAttribute(node, "scan_input_axes");
    inputDirections = intsAttribute(node, "scan_input_directions");
    outputAxes = intsAttribute(node, "scan_output_axes");
    outputDirections = intsAttribute(node, "scan_output_directions");
  }
  for (const auto *list : {&inputAxes, &inputDirections})
    if (!list->empty() && static_cast<int>(list->size()) != numScanInputs)
      throw error("Node '{}' (Scan): {} scan input axes or directions given "
                  "for {} scan inputs",
                  nodeName, list->size(), numScanInputs);

  std::vector<TensorId> inputs;
  if (batched)
    inputs.push_back(resolveOptional(scope, node, 0, nodeName));
  std::vector<TensorInfo> bodyInputs;
  for (int i = first; i < node.input_size(); ++i) {
    inputs.push_back(scope.resolve(node.input(i), nodeName));
    const TensorInfo &info = infoOf(scope, inputs.back());
    Shape shape = info.shape();
    if (batched) {
      if (shape.empty())
        throw error("Node '{}' (Scan): input '{}' has no batch axis",
                    nodeName, node.input(i));
      shape.erase(shape.begin());
    }
    const int scanInput = i - first - numStates;
    if (scanInput >= 0) {
      // The element each iteration sees: the scan axis left out.
      const int64_t rank = static_cast<int64_t>(shape.size());
      int64_t axis = inputAxes.empty() ? 0 : inputAxes[scanInput];
      if (axis < -rank || axis >= rank)
        throw error("Node '{}' (Scan): scan input axis {} is out of range for "
                    "'{}' (rank {})",
                    nodeName, axis, node.input(i), rank);
      shape.erase(shape.begin() + (axis < 0 ? axis + rank : axis));
    }
    bodyInputs.push_back(TensorInfo(info.dataType(), shape));
  }
  auto body = importBody(graphAttribute(node, nodeName, "body"), bodyInputs,
                         settings, scope, nodeName + "/body");
  for (const auto &io : body->getImplicitInputs())
    inputs.push_back(io.first);
  return addOp(std::make_unique<ScanOp>(
            OperatorIdentifier(Domain::ai_onnx, "Scan", version),
            Op::Settings(scope.graph, nodeName), body->graph.getGraphId(),
            numStates, numScanInputs, inputAxes, inputDirections, outputAxes,
            outputDirections),
        node, nodeName, scope, inputs);
}

// The builder's call (ai.graphcore Call): the graph attribute "callee"
// run once on the node's inputs, whose infos its inputs take.
Op &importCall(const onnx::NodeProto &node, const std::string &nodeName,
               OpVersion version, const OnnxImportSettings &settings,
               OnnxScope &scope) {
  checkAttributes(node, nodeName, {"callee", "num_outputs"});
  std::vector<TensorId> inputs;
  std::vector<TensorInfo> infos;
  for (int i = 0; i < node.input_size(); ++i) {
    if (node.input(i).empty())
      throw error("Node '{}' (Call): input {} is missing", nodeName, i);
    inputs.push_back(scope.resolve(node.input(i), nodeName));
    infos.push_back(infoOf(scope, inputs.back()));
  }
  const onnx::GraphProto &callee = graphAttribute(node, nodeName, "callee");
  // The callee's inputs typed by its builder take only values of that type
  // and shape.
  for (int i = 0; i < node.input_size() && i < callee.input_size(); ++i) {
    const auto &declared = callee.input(i);
    if (!declared.has_type() || !declared.type().tensor_type().has_shape())
      continue;
    const TensorInfo expected(declared.type());
    if (expected != infos[static_cast<std::size_t>(i)])
      throw error("Node '{}' (Call): input {} ('{}') is {}, but the callee's "
                  "input '{}' is {}",
                  nodeName, i, node.input(i),
                  describe(infos[static_cast<std::size_t>(i)]),
                  declared.name(), describe(expected));
  }
  if (callee.output_size() != node.output_size())
    throw error("Node '{}' (Call): {} outputs, but its callee subgraph has {}",
                nodeName, node.output_size(), callee.output_size());
  // The calls of one callee on values of the same infos share its subgraph
  // (lowered once, into one poplar function), unless it reads values of
  // the enclosing graph.
  std::string key = callee.SerializeAsString();
  for (const auto &info : infos)
    key += "|" + describe(info);
  auto known = settings.callees->find(key);
  std::string graphId;
  if (known != settings.callees->end()) {
    graphId = known->second;
  } else {
    auto body =
        importBody(callee, infos, settings, scope, nodeName + "/callee");
    graphId = body->graph.getGraphId();
    if (body->getImplicitInputs().empty())
      settings.callees->emplace(key, graphId);
    for (const auto &io : body->getImplicitInputs())
      inputs.push_back(io.first);
  }
  return addOp(std::make_unique<CallOp>(
                   OperatorIdentifier(Domain::ai_graphcore, "Call", version),
                   Op::Settings(scope.graph, nodeName), graphId),
               node, nodeName, scope, inputs);
}

// The builder's packedDataBlock (ai.graphcore PackedDataBlock): the graph
// attribute "callback" takes, for each [data, offsets, lengths] triple,
// callbackBatchSize sequences of data unpacked (PackedDataBlockOp.hpp).
Op &importPackedDataBlock(const onnx::NodeProto &node,
                          const std::string &nodeName, OpVersion version,
                          const OnnxImportSettings &settings,
                          OnnxScope &scope) {
  checkAttributes(node, nodeName, {"callback", "maxSequenceLengths",
                                   "resultSize", "callbackBatchSize"});
  const std::vector<int64_t> maxSequenceLengths =
      intsAttribute(node, "maxSequenceLengths");
  const int64_t resultSize = intAttribute(node, nodeName, "resultSize");
  const int64_t batch = intAttribute(node, nodeName, "callbackBatchSize");
  const int packed = static_cast<int>(maxSequenceLengths.size());
  if (node.input_size() != 3 * packed + 2)
    throw error("Node '{}' (PackedDataBlock): {} inputs, but {} "
                "maxSequenceLengths need {} ([data, offsets, lengths] per "
                "packed input, then the result's offsets and lengths)",
                nodeName, node.input_size(), packed, 3 * packed + 2);
  std::vector<TensorId> inputs;
  for (int i = 0; i < node.input_size(); ++i) {
    if (node.input(i).empty())
      throw error("Node '{}' (PackedDataBlock): input {} is missing",
                  nodeName, i);
    inputs.push_back(scope.resolve(node.input(i), nodeName));
  }
  const onnx::GraphProto &callback =
      graphAttribute(node, nodeName, "callback");
  if (callback.input_size() != packed)
    throw error("Node '{}' (PackedDataBlock): the callback has {} inputs, "
                "but {} packed inputs are given",
                nodeName, callback.input_size(), packed);
  std::vector<TensorInfo> infos;
  for (int i = 0; i < packed; ++i) {
    const TensorInfo &data = infoOf(scope, inputs[static_cast<std::size_t>(
                                               PackedDataBlockOp::dataIndex(i))]);
    if (data.shape().empty())
      throw error("Node '{}' (PackedDataBlock): packed data '{}' is a "
                  "scalar; its sequences are rows of its outer dimension",
                  nodeName, node.input(PackedDataBlockOp::dataIndex(i)));
    infos.push_back(PackedDataBlockOp::callbackInputInfo(
        data, maxSequenceLengths[static_cast<std::size_t>(i)], batch));
    // A callback input its builder typed takes only that type and shape.
    const auto &declared = callback.input(i);
    if (declared.has_type() && declared.type().tensor_type().has_shape() &&
        TensorInfo(declared.type()) != infos.back())
      throw error("Node '{}' (PackedDataBlock): the callback's input {} "
                  "('{}') is {}, but the sequences of '{}' unpacked are {}",
                  nodeName, i, declared.name(),
                  describe(TensorInfo(declared.type())),
                  node.input(PackedDataBlockOp::dataIndex(i)),
                  describe(infos.back()));
  }
  auto body =
      importBody(callback, infos, settings, scope, nodeName + "/callback");
  for (const auto &io : body->getImplicitInputs())
    inputs.push_back(io.first);
  return addOp(std::make_unique<PackedDataBlockOp>(
                   OperatorIdentifier(Domain::ai_graphcore, "PackedDataBlock",
                                      version),
                   Op::Settings(scope.graph, nodeName),
                   body->graph.getGraphId(), maxSequenceLengths, resultSize,
                   batch),
               node, nodeName, scope, inputs);
}

} // namespace

bool isControlFlowNode(const std::string &domain, const std::string &type) {
  return (domain == Domain::ai_onnx &&
          (type == "If" || type == "Loop" || type == "Scan")) ||
         (domain == Domain::ai_graphcore &&
          (type == "Call" || type == "PackedDataBlock"));
}

Op &importControlFlowNode(const onnx::NodeProto &node,
                          const std::string &nodeName, OpVersion version,
                          const OnnxImportSettings &settings,
                          OnnxScope &scope) {
  if (node.op_type() == "Call")
    return importCall(node, nodeName, version, settings, scope);
  if (node.op_type() == "PackedDataBlock")
    return importPackedDataBlock(node, nodeName, version, settings, scope);
  if (node.op_type() == "If")
    return importIf(node, nodeName, version, settings, scope);
  if (node.op_type() == "Loop")
    return importLoop(node, nodeName, version, settings, scope);
  return importScan(node, nodeName, version, settings, scope);
}

} // namespace popart
