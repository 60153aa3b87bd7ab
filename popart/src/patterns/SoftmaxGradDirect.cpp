// Patterns of the backward pass of Softmax followed by Nll:
//   SoftmaxGradDirect: an NllGrad whose probabilities come from a Softmax
//     over their last axis, and whose gradient only that Softmax's grad op
//     reads, and that grad op, become one SoftmaxGradDirect: (p - onehot)
//     scaled, which stays finite where -1/p overflows.
//   NlllWithSoftmaxGradDirect: that SoftmaxGradDirect and the Nll of the
//     same probabilities and labels become one op computing both (when the
//     loss's gradient does not depend on the loss itself).
#include "ir/Graph.hpp"
#include "ops/LossOps.hpp"
#include "ops/SoftmaxOp.hpp"
#include "patterns/PatternRewrites.hpp"

#include <set>

namespace popart {
namespace {

// The Softmax (not LogSoftmax) over the last axis that made `t`, if any.
const SoftmaxOp *lastAxisSoftmaxOf(const Tensor &t) {
  const auto *softmax = dynamic_cast<const SoftmaxOp *>(t.producer);
  if (!softmax || softmax->opid.type != "Softmax")
    return nullptr;
  const int64_t rank = static_cast<int64_t>(t.info.rank());
  return softmax->axis == rank - 1 ? softmax : nullptr;
}

// Whether `t` is computed from an output of `op`.
bool dependsOn(const Tensor &t, const Op &op) {
  std::set<const Op *> seen;
  std::vector<const Op *> work;
  if (t.producer)
    work.push_back(t.producer);
  while (!work.empty()) {
    const Op *o = work.back();
    work.pop_back();
    if (o == &op)
      return true;
    if (!seen.insert(o).second)
      continue;
    for (const Tensor *in : o->inputs)
      if (in && in->producer)
        work.push_back(in->producer);
  }
  return false;
}

} // namespace

bool softmaxGradDirect(Graph &graph, Op &op, const DataFlow &dataFlow) {
  auto *nllGrad = dynamic_cast<NllGradOp *>(&op);
  if (!nllGrad || nllGrad->inputIsLogProbability ||
      isExcluded(op, "SoftmaxGradDirect"))
    return false;
  Tensor &probs = *op.inputs.at(0);
  Tensor &gradProbs = *op.outputs.at(0);
  if (!lastAxisSoftmaxOf(probs) || gradProbs.consumers.size() != 1 ||
      isObserved(graph, dataFlow, gradProbs))
    return false;
  auto *softmaxGrad = dynamic_cast<SoftmaxGradOp *>(gradProbs.consumers[0]);
  if (!softmaxGrad || softmaxGrad->log || softmaxGrad->inTensor(1) != &probs ||
      softmaxGrad->inTensor(0) != &gradProbs)
    return false;
  Tensor &gradLogits = *softmaxGrad->outputs.at(0);
  const std::vector<TensorId> ins = {probs.id, op.inTensor(1)->id,
                                     op.inTensor(2)->id};
  auto direct = std::make_unique<SoftmaxGradDirectOp>(
      *nllGrad, softmaxGrad->settings.copy(softmaxGrad->name() + "/direct"));
  graph.eraseOp(*softmaxGrad);
  graph.eraseOp(op);
  graph.eraseTensor(gradProbs.id);
  Op &added = graph.addOp(std::move(direct));
  for (std::size_t i = 0; i < ins.size(); ++i)
    graph.connectInput(added, static_cast<int>(i), ins[i]);
  added.outputs = {&gradLogits};
  gradLogits.producer = &added;
  added.setup();
  return true;
}

bool nlllWithSoftmaxGradDirect(Graph &graph, Op &op, const DataFlow &) {
  auto *direct = dynamic_cast<SoftmaxGradDirectOp *>(&op);
  if (!direct || isExcluded(op, "NlllWithSoftmaxGradDirect"))
    return false;
  Tensor &probs = *op.inputs.at(0);
  const Tensor &labels = *op.inputs.at(1);
  const Tensor &lossGrad = *op.inputs.at(2);
  NllOp *nll = nullptr;
  for (Op *c : probs.consumers) {
    auto *candidate = dynamic_cast<NllOp *>(c);
    if (candidate && candidate->inTensor(1) == &labels &&
        !candidate->inputIsLogProbability &&
        candidate->reduction == direct->reduction &&
        candidate->hasIgnoreIndex == direct->hasIgnoreIndex &&
        candidate->ignoreIndex == direct->ignoreIndex &&
        candidate->settings.recomputeType != RecomputeType::Recompute)
      nll = candidate;
  }
  if (!nll || dependsOn(lossGrad, *nll))
    return false;
  Tensor &loss = *nll->outputs.at(0);
  Tensor &gradLogits = *op.outputs.at(0);
  const std::vector<TensorId> ins = {probs.id, labels.id, lossGrad.id};
  auto fused = std::make_unique<NlllWithSoftmaxGradDirectOp>(*nll, *direct);
  graph.eraseOp(*nll);
  graph.eraseOp(op);
  Op &added = graph.addOp(std::move(fused));
  for (std::size_t i = 0; i < ins.size(); ++i)
    graph.connectInput(added, static_cast<int>(i), ins[i]);
  added.outputs = {&loss, &gradLogits};
  loss.producer = &added;
  gradLogits.producer = &added;
  added.setup();
  return true;
}

} // namespace popart
