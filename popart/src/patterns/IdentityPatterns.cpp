// Patterns that remove copies:
//   OpToIdentity: ops that are identities here (Dropout outside training,
//     Detach outside training) become Identity.
//   PreUniRepl: an Identity whose output is neither anchored nor a model
//     output is removed, its consumers reading its input.
//   PostNRepl: ops whose output is their single input (Sum, Mean, Max,
//     Min or Concat of one input, Pad by nothing) are removed likewise.
#include "ir/Graph.hpp"
#include "ops/IdentityOp.hpp"
#include "patterns/PatternRewrites.hpp"

#include <algorithm>

namespace popart {

bool opToIdentity(Graph &graph, Op &op, const DataFlow &) {
  if (op.opid.type == "Identity" || op.opid.type == "Nop" ||
      !op.isIdentityLike() || isExcluded(op, "OpToIdentity"))
    return false;
  if (op.outputs.size() > 1 && op.outputs[1])
    return false; // Dropout's mask is used
  replaceByBuiltin(graph, op, {Domain::ai_onnx, "Identity", 1},
                   {op.inTensor(0)->id}, Attributes());
  return true;
}

bool preUniRepl(Graph &graph, Op &op, const DataFlow &dataFlow) {
  if (op.opid.type != "Identity" || isExcluded(op, "PreUniRepl") ||
      isObserved(graph, dataFlow, *op.outputs.at(0)))
    return false;
  bypass(graph, op, *op.inputs.at(0));
  return true;
}

bool postNRepl(Graph &graph, Op &op, const DataFlow &dataFlow) {
  static const std::vector<std::string> oneInputIdentities = {
      "Sum", "Mean", "Max", "Min", "Concat"};
  const auto &t = op.opid.type;
  bool replicates = false;
  if (std::find(oneInputIdentities.begin(), oneInputIdentities.end(), t) !=
      oneInputIdentities.end())
    replicates = op.inputs.size() == 1 && op.hasInput(0);
  else if (t == "Pad")
    replicates = op.hasInput(0) && op.inInfo(0) == op.outInfo(0);
  if (!replicates || op.outputs.size() != 1 || isExcluded(op, "PostNRepl") ||
      isObserved(graph, dataFlow, *op.outputs[0]) ||
      op.inInfo(0) != op.outInfo(0))
    return false;
  bypass(graph, op, *op.inputs[0]);
  return true;
}

} // namespace popart
