#include "transforms/Recompute.hpp"
#include "ir/Ir.hpp"
#include "ops/BatchNormOp.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>
#include <popart/tensornames.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace popart {
namespace {

// The ops, in schedule order, with an output the loss depends on.
std::vector<Op *> opsOnPathToLoss(Ir &ir) {
  Graph &graph = ir.getMainGraph();
  std::set<const Tensor *> toLoss;
  std::vector<const Tensor *> stack{&graph.getTensor(ir.getFinalLossId())};
  toLoss.insert(stack.back());
  while (!stack.empty()) {
    const Tensor *t = stack.back();
    stack.pop_back();
    if (t->producer)
      for (const Tensor *in : t->producer->inputs)
        if (in && toLoss.insert(in).second)
          stack.push_back(in);
  }
  std::vector<Op *> ops;
  for (Op *op : graph.getOpSchedule("greedy"))
    for (const Tensor *out : op->outputs)
      if (out && toLoss.count(out)) {
        ops.push_back(op);
        break;
      }
  return ops;
}

bool canRecompute(const Op &op) {
  // The loss itself is needed anyway. A recomputed random op draws its
  // forward numbers: it has the forward op's seed modifier and runs with
  // the micro-batch's seed (its stage's in a pipeline).
  return !op.isLossOp();
}

void mark(Op &op, RecomputeType type) {
  if (op.settings.recomputeType == RecomputeType::Undefined)
    op.settings.recomputeType = type;
}

int64_t outputBytes(const Op &op) {
  int64_t bytes = 0;
  for (const Tensor *t : op.outputs)
    if (t)
      bytes += t->info.nbytes();
  return bytes;
}

// Checkpoints, in each of about sqrt(n) stretches of the forward ops, the
// outputs live where the stretch's live memory is least; every other op
// is recomputed.
void annotateStandard(const std::vector<Op *> &fwd) {
  const std::size_t n = fwd.size();
  if (n == 0)
    return;
  std::map<const Op *, std::size_t> position;
  for (std::size_t i = 0; i < n; ++i)
    position[fwd[i]] = i;
  // An op's outputs are live from it to its last forward consumer.
  std::vector<std::size_t> lastUse(n);
  for (std::size_t i = 0; i < n; ++i) {
    lastUse[i] = i;
    for (const Tensor *out : fwd[i]->outputs)
      if (out)
        for (const Op *c : out->consumers) {
          auto it = position.find(c);
          if (it != position.end())
            lastUse[i] = std::max(lastUse[i], it->second);
        }
  }
  auto liveAt = [&](std::size_t p) {
    std::vector<Op *> live;
    for (std::size_t i = 0; i <= p; ++i)
      if (lastUse[i] > p || i == p)
        live.push_back(fwd[i]);
    return live;
  };
  const std::size_t stretch =
      std::max<std::size_t>(1, std::size_t(std::ceil(std::sqrt(double(n)))));
  std::set<Op *> checkpoints;
  for (std::size_t begin = 0; begin < n; begin += stretch) {
    const std::size_t end = std::min(n, begin + stretch);
    std::size_t best = begin;
    int64_t bestBytes = -1;
    for (std::size_t p = begin; p < end; ++p) {
      int64_t bytes = 0;
      for (const Op *op : liveAt(p))
        bytes += outputBytes(*op);
      if (bestBytes < 0 || bytes < bestBytes) {
        bestBytes = bytes;
        best = p;
      }
    }
    for (Op *op : liveAt(best))
      checkpoints.insert(op);
  }
  for (Op *op : fwd)
    mark(*op, checkpoints.count(op) || !canRecompute(*op)
                  ? RecomputeType::Checkpoint
                  : RecomputeType::Recompute);
}

// The ops between the last checkpoints and the loss run once: recomputing
// them just before the backward pass would save nothing.
void checkpointAfterLastCheckpoint(Ir &ir) {
  Graph &graph = ir.getMainGraph();
  std::vector<Op *> stack;
  if (Op *p = graph.getTensor(ir.getFinalLossId()).producer)
    stack.push_back(p);
  std::set<Op *> seen;
  while (!stack.empty()) {
    Op *op = stack.back();
    stack.pop_back();
    if (!seen.insert(op).second)
      continue;
    if (op->settings.recomputeType == RecomputeType::Recompute ||
        op->isLossOp()) {
      if (!op->isLossOp())
        op->settings.recomputeType = RecomputeType::Checkpoint;
      for (const Tensor *in : op->inputs)
        if (in && in->producer)
          stack.push_back(in->producer);
    }
  }
}

// In a pipeline, as the original does: the last forward stage runs with
// its backward in one pipeline cycle, so recomputing it would save nothing.
// With RecomputationType::Pipeline every other forward op is recomputed
// from its stage's inputs, the only tensors a stage then keeps for its
// backward (its stash); with the other policies an op whose output a
// later stage reads (copied to the next IPU) is kept and the rest
// recomputed.
void annotatePipelined(const std::vector<Op *> &fwd, RecomputationType policy) {
  PipelineStage last = unusedPipelineStage;
  for (const Op *op : fwd)
    last = std::max(last, op->settings.pipelineStage);
  for (Op *op : fwd) {
    const PipelineStage stage = op->settings.pipelineStage;
    if (!canRecompute(*op) || stage == unusedPipelineStage || stage == last) {
      mark(*op, RecomputeType::Checkpoint);
      continue;
    }
    bool leavesStage = false;
    for (const Tensor *out : op->outputs)
      if (out)
        for (const Op *reader : out->consumers)
          leavesStage |= reader->settings.pipelineStage != stage;
    mark(*op, policy == RecomputationType::Pipeline || !leavesStage
                  ? RecomputeType::Recompute
                  : RecomputeType::Checkpoint);
  }
}

} // namespace

void annotateRecomputation(Ir &ir, RecomputationType policy) {
  if (policy == RecomputationType::None)
    return;
  const auto fwd = opsOnPathToLoss(ir);
  if (ir.getSessionOptions().enablePipelining)
    annotatePipelined(fwd, policy);
  else
    switch (policy) {
    case RecomputationType::Standard:
      annotateStandard(fwd);
      break;
    case RecomputationType::NormOnly:
      for (Op *op : fwd)
        mark(*op, op->isNorm() && canRecompute(*op) ? RecomputeType::Recompute
                                                    : RecomputeType::Checkpoint);
      break;
    case RecomputationType::RecomputeAll:
      for (Op *op : fwd)
        if (canRecompute(*op))
          mark(*op, RecomputeType::Recompute);
      checkpointAfterLastCheckpoint(ir);
      break;
    default:
      throw error("SessionOptions::autoRecomputation: "
                  "RecomputationType::Pipeline recomputes the forward "
                  "pipeline stages: it needs enablePipelining");
    }
  int recomputed = 0;
  for (const Op *op : fwd)
    recomputed += op->settings.recomputeType == RecomputeType::Recompute;
  logging::transform::info("Recomputation: {} of the {} forward ops on the "
                           "loss's path are recomputed",
                           recomputed, fwd.size());
}

namespace {

class Recomputer {
public:
  Recomputer(Ir &ir, const std::set<const Op *> &forward)
      : ir(ir), graph(ir.getMainGraph()), forward(forward) {
    if (Op *p = graph.getTensor(ir.getFinalLossId()).producer)
      lossOp = p;
  }

  bool isRecomputed(const Tensor *t) const {
    return t && t->producer && forward.count(t->producer) &&
           t->producer->settings.recomputeType == RecomputeType::Recompute;
  }

  // Whether `reader` (a backward op, or a recomputed op's original) takes
  // t's recomputed copy. In a pipeline only within a stage: an op reads
  // what an earlier stage made from that stage's output, kept for it.
  bool readsRecomputed(const Op &reader, const Tensor *t) const {
    return isRecomputed(t) &&
           (!ir.getSessionOptions().enablePipelining ||
            t->producer->settings.pipelineStage == reader.settings.pipelineStage);
  }

  // The copy of t made in the backward pass.
  TensorId recomputed(const Tensor &t) {
    auto it = copies.find(t.id);
    if (it != copies.end())
      return it->second;
    const Op &original = *t.producer;
    std::vector<TensorId> ins;
    for (const Tensor *in : original.inputs)
      ins.push_back(!in                             ? TensorId()
                    : readsRecomputed(original, in) ? recomputed(*in)
                                                    : in->id);
    std::vector<TensorId> outs;
    for (const Tensor *out : original.outputs)
      outs.push_back(out ? graph.uniqueId(reservedRecomputePrefix() + out->id)
                         : TensorId());
    auto clone = original.clone();
    clone->setName(original.name() + "/recompute");
    clone->settings.recomputeType = RecomputeType::Recomputed;
    // A recomputed batch normalisation leaves the running statistics to
    // the forward pass.
    if (auto *bn = dynamic_cast<BatchNormOp *>(clone.get()))
      bn->updatesRunningStatistics = false;
    Op &added = graph.addOp(std::move(clone));
    graph.connect(added, ins, outs);
    // Made in the backward pass: after the loss.
    if (lossOp)
      graph.addTopoCon(*lossOp, added);
    for (std::size_t i = 0; i < original.outputs.size(); ++i)
      if (original.outputs[i])
        copies[original.outputs[i]->id] = outs[i];
    return copies.at(t.id);
  }

  void run() {
    std::vector<Op *> backward;
    for (const auto &p : graph.getOps())
      if (!forward.count(p.second.get()))
        backward.push_back(p.second.get());
    int replaced = 0;
    for (Op *op : backward)
      for (int i = 0; i < op->inTensorCount(); ++i) {
        Tensor *in = op->inputs[i];
        if (!readsRecomputed(*op, in))
          continue;
        const TensorId copy = recomputed(*in);
        auto &consumers = in->consumers;
        consumers.erase(std::find(consumers.begin(), consumers.end(), op));
        op->inputs[i] = nullptr;
        graph.connectInput(*op, i, copy);
        ++replaced;
      }
    logging::transform::info("Recomputation: {} inputs of the backward pass "
                             "read recomputed tensors",
                             replaced);
  }

private:
  Ir &ir;
  Graph &graph;
  const std::set<const Op *> &forward;
  Op *lossOp = nullptr;
  std::map<TensorId, TensorId> copies;
};

} // namespace

void growRecomputation(Ir &ir, const std::set<const Op *> &forwardOps) {
  Recomputer(ir, forwardOps).run();
}

} // namespace popart
