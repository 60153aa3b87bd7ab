#include "ops/IfOp.hpp"
#include "core/Describe.hpp"
#include "ir/Graph.hpp"
#include "ir/Ir.hpp"

#include <popart/error.hpp>
#include <popart/opserialiser.hpp>

namespace popart {

IfOp::IfOp(const OperatorIdentifier &id, const Op::Settings &settings,
           std::string thenBranch_, std::string elseBranch_)
    : Op(id, settings), thenBranch(std::move(thenBranch_)),
      elseBranch(std::move(elseBranch_)) {}

const Graph &IfOp::getThenGraph() const {
  return getGraph().getIr().getGraph(thenBranch);
}

const Graph &IfOp::getElseGraph() const {
  return getGraph().getIr().getGraph(elseBranch);
}

void IfOp::setup() {
  const TensorInfo &cond = inInfo(getConditionInIndex());
  if (cond.dataType() != DataType::BOOL || cond.nelms() != 1)
    throw error("{}: the condition '{}' must be one BOOL, not {}", str(),
                inId(getConditionInIndex()), describe(cond));
  const Graph &thenGraph = getThenGraph(), &elseGraph = getElseGraph();
  for (const Graph *branch : {&thenGraph, &elseGraph}) {
    if (static_cast<int>(branch->inputs.size()) + 1 != inTensorCount())
      throw error("{}: branch '{}' has {} inputs, but the op gives {}", str(),
                  branch->getGraphId(), branch->inputs.size(),
                  inTensorCount() - 1);
    for (std::size_t i = 0; i < branch->inputs.size(); ++i) {
      const InIndex in = branchInToOpInIndex(static_cast<InIndex>(i));
      const TensorInfo &expected = branch->getTensor(branch->inputs[i]).info;
      if (inInfo(in) != expected)
        throw error("{}: input {} ('{}') is {}, but the input '{}' of branch "
                    "'{}' is {}",
                    str(), in, inId(in), describe(inInfo(in)),
                    branch->inputs[i], branch->getGraphId(),
                    describe(expected));
    }
  }
  if (thenGraph.outputs.size() != elseGraph.outputs.size())
    throw error("{}: the then branch has {} outputs, the else branch {}",
                str(), thenGraph.outputs.size(), elseGraph.outputs.size());
  if (static_cast<int>(thenGraph.outputs.size()) != outTensorCount())
    throw error("{}: {} outputs, but its branches have {}", str(),
                outTensorCount(), thenGraph.outputs.size());
  for (int j = 0; j < outTensorCount(); ++j) {
    const auto &t = thenGraph.getTensor(thenGraph.outputs[j]).info;
    const auto &e = elseGraph.getTensor(elseGraph.outputs[j]).info;
    // The IR has static shapes: an output is the same whichever branch
    // runs.
    if (t != e)
      throw error("{}: output {} is {} in the then branch but {} in the else "
                  "branch; both branches must give it the same type and shape",
                  str(), j, describe(t), describe(e));
    outInfo(j) = t;
  }
}

void IfOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  os.appendAttribute("then_branch", thenBranch);
  os.appendAttribute("else_branch", elseBranch);
}

} // namespace popart
