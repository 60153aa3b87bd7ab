#include "builder/BuilderImpl.hpp"
#include "ir/Graph.hpp"
#include "ir/Ir.hpp"
#include "ir/OpManager.hpp"
#include "ops/CallOp.hpp"

#include <popart/error.hpp>
#include <popart/irbuilder.hpp>
#include <popart/logging.hpp>

#include <onnx/onnx_pb.h>

namespace popart {

namespace {

// Whether `op` changes its input `t` in place.
bool modifies(const Op &op, const Tensor &t) {
  for (int i = 0; i < op.inTensorCount(); ++i)
    if (op.inputs[static_cast<std::size_t>(i)] == &t) {
      if (op.modifiesInputInPlace(i))
        return true;
      if (auto *s = dynamic_cast<const SubgraphOp *>(&op))
        if (s->isInputModified(i))
          return true;
    }
  return false;
}

// An op that changes a tensor in place runs after the ops made before it
// that read the tensor, and before those made after it: a tensor's
// readers see the updates made before them, in the order of the program.
void orderAroundUpdates(Graph &g, Op &op) {
  for (Tensor *t : op.inputs) {
    if (!t)
      continue;
    const bool opModifies = modifies(op, *t);
    for (Op *other : t->consumers) {
      if (other == &op || (!opModifies && !modifies(*other, *t)))
        continue;
      if (other->id < op.id)
        g.addTopoCon(*other, op);
      else
        g.addTopoCon(op, *other);
    }
  }
}

} // namespace

IrBuilder::IrBuilder() : ir(std::make_shared<Ir>()) { ir->setBuiltOpByOp(); }
IrBuilder::~IrBuilder() = default;

void IrBuilder::checkEditable(const char *what) const {
  if (inSession)
    throw error("{}: the IR is in a session and cannot change", what);
}

void IrBuilder::createGraph(const std::string &graphId) {
  checkEditable("createGraph");
  ir->createGraph(graphId);
}

bool IrBuilder::hasGraph(const std::string &graphId) const {
  return ir->hasGraph(graphId);
}

void IrBuilder::addGraphInput(const std::string &graphId, const TensorId &id,
                              const TensorInfo &info) {
  checkEditable("addGraphInput");
  if (graphId.empty())
    throw error("addGraphInput: the main graph's inputs are streams "
                "(addStream), '{}' must be an input of a subgraph",
                id);
  Graph &g = ir->getGraph(graphId);
  g.addTensor(id, info, TensorType::ActGrad);
  g.inputs.push_back(id);
}

void IrBuilder::addGraphOutput(const std::string &graphId, const TensorId &id) {
  checkEditable("addGraphOutput");
  if (graphId.empty())
    throw error("addGraphOutput: the main graph returns tensors through "
                "HostStore ops, not as outputs ('{}')",
                id);
  Graph &g = ir->getGraph(graphId);
  g.getTensor(id); // popart::error naming it if it is not in the graph
  g.outputs.push_back(id);
}

std::vector<TensorId> IrBuilder::getGraphInputIds(const std::string &graphId) const {
  return ir->getGraph(graphId).inputs;
}

std::vector<TensorId> IrBuilder::getGraphOutputIds(const std::string &graphId) const {
  return ir->getGraph(graphId).outputs;
}

void IrBuilder::addVariable(const TensorId &id, const ConstVoidData &data) {
  checkEditable("addVariable");
  const char *bytes = static_cast<const char *>(data.data);
  ir->getMainGraph().addTensor(
      id, data.info, TensorType::Variable,
      std::vector<char>(bytes, bytes + data.info.nbytes()));
}

void IrBuilder::addConstant(const std::string &graphId, const TensorId &id,
                            const ConstVoidData &data) {
  checkEditable("addConstant");
  const char *bytes = static_cast<const char *>(data.data);
  ir->getGraph(graphId).addTensor(
      id, data.info, TensorType::Const,
      std::vector<char>(bytes, bytes + data.info.nbytes()));
}

void IrBuilder::addStream(const TensorId &id, const TensorInfo &info) {
  checkEditable("addStream");
  Graph &g = ir->getMainGraph();
  g.addTensor(id, info, TensorType::Stream);
  g.inputs.push_back(id);
}

bool IrBuilder::hasTensor(const std::string &graphId, const TensorId &id) const {
  return ir->getGraph(graphId).hasTensor(id);
}

TensorInfo IrBuilder::getTensorInfo(const std::string &graphId,
                                    const TensorId &id) const {
  return ir->getGraph(graphId).getTensor(id).info;
}

std::string IrBuilder::getTensorType(const std::string &graphId,
                                     const TensorId &id) const {
  return ir->getGraph(graphId).getTensor(id).tensor_type();
}

TensorId IrBuilder::uniqueId(const std::string &graphId, const TensorId &base) const {
  return ir->getGraph(graphId).uniqueId(base);
}

int64_t IrBuilder::addOp(const std::string &graphId, const OperatorIdentifier &opid,
                         const std::vector<TensorId> &inputs,
                         const std::vector<TensorId> &outputs,
                         const std::map<std::string, any> &attributes,
                         const std::string &name, int64_t virtualGraph) {
  checkEditable("addOp");
  Graph &g = ir->getGraph(graphId);
  const std::string opName = name.empty() ? opid.type : name;
  for (const auto &id : inputs)
    if (!id.empty() && !g.hasTensor(id))
      throw error("Op '{}' ({}): its input '{}' is not a tensor of graph '{}'",
                  opName, opid.type, id, graphId.empty() ? "main" : graphId);
  for (const auto &id : outputs)
    if (g.hasTensor(id))
      throw error("Op '{}' ({}): its output '{}' is already a tensor of the "
                  "graph",
                  opName, opid.type, id);
  // The op is made as that of an ONNX node with these attributes.
  onnx::NodeProto node;
  node.set_op_type(opid.type);
  node.set_domain(opid.domain);
  node.set_name(opName);
  for (const auto &a : attributes)
    BuilderImpl::setNodeAttribute(node, a.first, a.second);
  std::unique_ptr<Op> made = createOpForNode(opid.domain, opid.type, opid.version,
                                             g, opName, Attributes(node), inputs);
  if (virtualGraph >= 0)
    made->settings.vgraphId = virtualGraph;
  Op &op = g.addOp(std::move(made));
  try {
    g.connect(op, inputs, outputs);
  } catch (const error &e) {
    // Leave the graph as it was.
    const std::string what = op.str();
    std::vector<Tensor *> outs = op.outputs;
    g.eraseOp(op);
    for (Tensor *t : outs)
      if (t)
        g.eraseTensor(t->id);
    throw error("{} in graph '{}': {}", what, graphId.empty() ? "main" : graphId,
                e.what());
  }
  orderAroundUpdates(g, op);
  logging::ir::trace("Added {} to graph '{}'", op.str(), graphId);
  return op.id;
}

void IrBuilder::setCallInputModified(const std::string &graphId, int64_t opId,
                                     int inIndex) {
  checkEditable("setCallInputModified");
  Graph &g = ir->getGraph(graphId);
  auto found = g.getOps().find(opId);
  if (found == g.getOps().end())
    throw error("setCallInputModified: graph '{}' has no op {}", graphId, opId);
  auto *op = dynamic_cast<SubgraphOp *>(found->second.get());
  if (!op)
    throw error("setCallInputModified: {} does not call a subgraph",
                found->second->str());
  op->setInputModified(inIndex);
  orderAroundUpdates(g, *op);
}

std::vector<TensorId> IrBuilder::getOpOutputIds(const std::string &graphId,
                                                int64_t opId) const {
  const Graph &g = ir->getGraph(graphId);
  auto found = g.getOps().find(opId);
  if (found == g.getOps().end())
    throw error("Graph '{}' has no op {}", graphId, opId);
  std::vector<TensorId> ids;
  for (const Tensor *t : found->second->outputs)
    ids.push_back(t ? t->id : "");
  return ids;
}

void IrBuilder::addTopoCon(const std::string &graphId, int64_t before,
                           int64_t after) {
  checkEditable("addTopoCon");
  Graph &g = ir->getGraph(graphId);
  auto op = [&g, &graphId](int64_t id) -> Op & {
    auto found = g.getOps().find(id);
    if (found == g.getOps().end())
      throw error("addTopoCon: graph '{}' has no op {}", graphId, id);
    return *found->second;
  };
  g.addTopoCon(op(before), op(after));
}

void IrBuilder::setDataFlow(const DataFlow &df) {
  checkEditable("setDataFlow");
  dataFlow = df;
}

void IrBuilder::updateVertices() {
  checkEditable("updateVertices");
  auto setUp = [](Graph &g) {
    for (Op *op : g.getOpSchedule())
      op->setup();
  };
  // Subgraphs first: the ops calling them take their outputs' infos.
  for (const Graph *sub : ir->getSubgraphs())
    setUp(ir->getGraph(sub->getGraphId()));
  setUp(ir->getMainGraph());
}

std::string IrBuilder::serialise() const { return ir->serialise(); }

} // namespace popart
