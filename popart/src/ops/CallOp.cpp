#include "ops/CallOp.hpp"
#include "core/Describe.hpp"
#include "ir/Graph.hpp"
#include "ir/Ir.hpp"
#include "transforms/Autodiff.hpp"

#include <popart/error.hpp>
#include <popart/opserialiser.hpp>

namespace popart {

SubgraphOp::SubgraphOp(const OperatorIdentifier &id, const Op::Settings &settings,
                       const Attributes &attributes)
    : Op(id, settings), callee(attributes.getString("callee", "")) {
  if (callee.empty())
    throw error("{} '{}': the attribute 'callee' (the id of the subgraph to "
                "run) is missing",
                id.type, settings.name);
  if (!settings.graph.get().getIr().hasGraph(callee))
    throw error("{} '{}': the IR has no subgraph '{}'", id.type, settings.name,
                callee);
  for (auto i : attributes.getInts("modifiedInputs", {}))
    modified.insert(static_cast<InIndex>(i));
}

SubgraphOp::SubgraphOp(const OperatorIdentifier &id,
                       const Op::Settings &settings, const std::string &callee)
    : Op(id, settings), callee(callee) {
  if (!settings.graph.get().getIr().hasGraph(callee))
    throw error("{} '{}': the IR has no subgraph '{}'", id.type, settings.name,
                callee);
}

const Graph &SubgraphOp::getCalledGraph() const {
  return getGraph().getIr().getGraph(callee);
}

void SubgraphOp::setInputModified(InIndex i) {
  if (i < 0 || i >= inTensorCount() || !hasInput(i))
    throw error("{}: it has no input {} to pass by reference", str(), i);
  modified.insert(i);
}

void SubgraphOp::checkInput(InIndex i, int subgraphInput) const {
  const Graph &g = getCalledGraph();
  const TensorInfo &expected =
      g.getTensor(g.inputs.at(static_cast<std::size_t>(subgraphInput))).info;
  if (inInfo(i) != expected)
    throw error("{}: input {} ('{}') is {}, but the input '{}' of subgraph "
                "'{}' is {}",
                str(), i, inId(i), describe(inInfo(i)), g.inputs[subgraphInput],
                callee, describe(expected));
}

void SubgraphOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  os.appendAttribute("callee", callee);
  std::vector<int64_t> m(modified.begin(), modified.end());
  os.appendAttribute("modifiedInputs", m);
}

CallOp::CallOp(const OperatorIdentifier &id, const Op::Settings &settings,
               const Attributes &attributes)
    : SubgraphOp(id, settings, attributes) {}

void CallOp::setup() {
  const Graph &g = getCalledGraph();
  if (inTensorCount() != static_cast<int>(g.inputs.size()))
    throw error("{}: {} inputs given, but subgraph '{}' has {}", str(),
                inTensorCount(), getCalleeId(), g.inputs.size());
  for (int i = 0; i < inTensorCount(); ++i)
    checkInput(i, i);
  if (outTensorCount() != static_cast<int>(g.outputs.size()))
    throw error("{}: {} outputs, but subgraph '{}' has {}", str(),
                outTensorCount(), getCalleeId(), g.outputs.size());
  for (int i = 0; i < outTensorCount(); ++i)
    outInfo(i) = g.getTensor(g.outputs[static_cast<std::size_t>(i)]).info;
}

std::vector<std::unique_ptr<Op>> CallOp::getGradOps() {
  if (!getModifiedInputs().empty())
    throw error("{}: a call that modifies its inputs has no gradient", str());
  // One gradient subgraph for the op and its copies.
  if (!gradient) {
    const SubgraphGradient g =
        growSubgraphGradient(getGraph().getIr(), getCalledGraph());
    gradient = std::make_shared<std::pair<std::string, std::vector<int>>>(
        g.graphId, g.gradientOf);
  }
  std::vector<std::unique_ptr<Op>> ops;
  ops.push_back(
      std::make_unique<CallGradOp>(*this, gradient->first, gradient->second));
  return ops;
}

CallGradOp::CallGradOp(const CallOp &fwd, const std::string &gradientGraph,
                       const std::vector<int> &gradientOf)
    : CallOp(OperatorIdentifier(Domain::ai_graphcore, "CallGrad", 1),
             fwd.settings, gradientGraph) {
  const int ins = fwd.inTensorCount();
  for (int i = 0; i < ins; ++i)
    inInfo.push_back({i, i, GradOpInType::In});
  for (int j = 0; j < fwd.outTensorCount(); ++j)
    inInfo.push_back({ins + j, j, GradOpInType::GradOut});
  for (std::size_t k = 0; k < gradientOf.size(); ++k)
    outToIn[static_cast<int>(k)] = gradientOf[k];
}

LoopOp::LoopOp(const OperatorIdentifier &id, const Op::Settings &settings,
               const Attributes &attributes)
    : SubgraphOp(id, settings, attributes),
      tripCount(attributes.getInt("tripCount", -1)) {
  if (tripCount < 0)
    throw error("Loop '{}': the attribute 'tripCount' must be given and not "
                "negative, not {}",
                settings.name, tripCount);
}

void LoopOp::setup() {
  const Graph &g = getCalledGraph();
  if (inTensorCount() != static_cast<int>(g.inputs.size()))
    throw error("{}: {} inputs given, but subgraph '{}' has {}", str(),
                inTensorCount(), getCalleeId(), g.inputs.size());
  if (g.outputs.size() > g.inputs.size())
    throw error("{}: subgraph '{}' has {} outputs, more than its {} inputs: "
                "each output is carried to the input of the same index",
                str(), getCalleeId(), g.outputs.size(), g.inputs.size());
  for (int i = 0; i < inTensorCount(); ++i)
    checkInput(i, i);
  for (std::size_t i = 0; i < g.outputs.size(); ++i) {
    const TensorInfo &out = g.getTensor(g.outputs[i]).info;
    const TensorInfo &in = g.getTensor(g.inputs[i]).info;
    if (out != in)
      throw error("{}: output {} ('{}', {}) of subgraph '{}' is carried to its "
                  "input {} ('{}', {}), which differs",
                  str(), i, g.outputs[i], describe(out), getCalleeId(), i,
                  g.inputs[i], describe(in));
  }
  if (outTensorCount() != static_cast<int>(g.outputs.size()))
    throw error("{}: {} outputs, but subgraph '{}' has {}", str(),
                outTensorCount(), getCalleeId(), g.outputs.size());
  for (int i = 0; i < outTensorCount(); ++i)
    outInfo(i) = g.getTensor(g.outputs[static_cast<std::size_t>(i)]).info;
}

void LoopOp::appendAttributes(OpSerialiserBase &os) const {
  SubgraphOp::appendAttributes(os);
  os.appendAttribute("tripCount", tripCount);
}

} // namespace popart
