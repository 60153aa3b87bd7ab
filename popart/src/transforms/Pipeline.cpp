#include "transforms/Pipeline.hpp"
#include "ir/Ir.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <map>
#include <sstream>
#include <vector>

namespace popart {
namespace {

bool perMicroBatch(const Op &op) {
  return op.settings.executionContext == ExecutionContext::Normal;
}

bool staged(const Op &op) {
  return op.settings.pipelineStage != unusedPipelineStage;
}

// The stages of the ops the IR added to the model's (copies between IPUs):
// the latest stage of what they read, else the earliest of their readers.
void stageTheOthers(const std::vector<Op *> &order) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (Op *op : order) {
      if (!perMicroBatch(*op) || staged(*op))
        continue;
      PipelineStage s = unusedPipelineStage;
      for (const Tensor *t : op->inputs)
        if (t && t->producer && perMicroBatch(*t->producer) &&
            staged(*t->producer))
          s = std::max(s, t->producer->settings.pipelineStage);
      if (s == unusedPipelineStage)
        for (const Tensor *t : op->outputs)
          if (t)
            for (const Op *c : t->consumers)
              if (perMicroBatch(*c) && staged(*c) &&
                  (s == unusedPipelineStage || c->settings.pipelineStage < s))
                s = c->settings.pipelineStage;
      if (s != unusedPipelineStage) {
        op->settings.pipelineStage = s;
        changed = true;
      }
    }
  }
}

// Inference: the step's batches are the pipeline's micro-batches (the
// original's depth is batchesPerStep), and the stages are the model's.
int64_t inferenceStages(const Ir &ir, int64_t stages) {
  const DataFlow &flow = ir.getDataFlow();
  if (flow.batchesPerStep() < stages)
    throw error("For pipelining, depth (batchesPerStep) must equal at least "
                "the number of pipeline stages ({})",
                stages);
  // An EVERYN anchor counts batches, which a pipeline runs interleaved.
  for (const auto &id : flow.anchors())
    if (flow.art(id).id() == AnchorReturnTypeId::EveryN)
      throw error("SessionOptions::enablePipelining: the anchor '{}' is "
                  "returned EVERYN, which a pipelined InferenceSession does "
                  "not support here (ALL, FINAL and SUM are)",
                  id);
  logging::ir::info("Pipelining inference: {} stages over the {} batches of "
                    "a step",
                    stages, flow.batchesPerStep());
  return stages;
}

} // namespace

int64_t assignPipelineStages(Ir &ir, const std::set<OpId> &modelOps) {
  const SessionOptions &o = ir.getSessionOptions();
  Graph &graph = ir.getMainGraph();
  if (o.virtualGraphMode == VirtualGraphMode::Off)
    throw error("SessionOptions::enablePipelining: pipelining requires the "
                "'virtualGraphMode' session option to not be "
                "VirtualGraphMode::Off");
  // Random ops of the main graph draw from their stage's seed of the
  // micro-batch (IrLowering::makePipeline); a subgraph is lowered once
  // for all its callers, so it would have one seed for every stage.
  for (const Graph *sub : ir.getSubgraphs())
    for (const auto &p : sub->getOps())
      if (p.second->requiresRandomSeed())
        throw error("SessionOptions::enablePipelining: {} draws random "
                    "numbers inside the subgraph '{}', which a pipeline "
                    "does not support here (random ops of the main graph "
                    "are)",
                    p.second->str(), sub->getGraphId());
  const std::vector<Op *> order = graph.getOpSchedule(o.kahnTieBreaker);

  // The model's stages: every op annotated, 0 to N-1 each used, one IPU
  // each.
  std::vector<std::string> missing;
  std::map<PipelineStage, VGraphId> ipuOf;
  PipelineStage last = -1;
  for (const Op *op : order) {
    if (!modelOps.count(op->id))
      continue;
    if (!staged(*op)) {
      missing.push_back(op->str());
      continue;
    }
    const PipelineStage s = op->settings.pipelineStage;
    auto [it, first] = ipuOf.emplace(s, op->settings.vgraphId);
    if (!first && it->second != op->settings.vgraphId)
      throw error("{} is in pipeline stage {} on virtual graph {}, and other "
                  "ops of the stage are on virtual graph {}: all ops with "
                  "the same pipeline stage must be on one virtual graph",
                  op->str(), s, op->settings.vgraphId, it->second);
    last = std::max(last, s);
  }
  if (!missing.empty()) {
    std::ostringstream list;
    for (const auto &m : missing)
      list << " " << m;
    throw error("Pipelining needs a pipeline stage on every op "
                "(Builder::pipelineStage); ops without one:{}",
                list.str());
  }
  const int64_t forwardStages = last + 1;
  for (PipelineStage s = 0; s < forwardStages; ++s)
    if (!ipuOf.count(s))
      throw error("Pipeline stage {} has no ops (stages are numbered from 0 "
                  "without gaps)",
                  s);
  const int64_t stages = ir.isTraining() ? 2 * forwardStages - 1
                                         : inferenceStages(ir, forwardStages);
  if (ir.isTraining() && !o.enableGradientAccumulation)
    throw error("SessionOptions::enablePipelining: training with pipelining "
                "needs gradient accumulation (enableGradientAccumulation, "
                "and an accumulationFactor of at least the {} pipeline "
                "stages)",
                stages);
  if (ir.isTraining() && o.accumulationFactor < stages)
    throw error("For pipelining, depth (gradient accumulation factor) must "
                "equal at least the number of pipeline stages ({})",
                stages);

  // The IR's ops that carry a stage are the gradient ops, with their
  // forward op's stage s: theirs is 2N-2-s.
  for (Op *op : order)
    if (ir.isTraining() && !modelOps.count(op->id) && perMicroBatch(*op) &&
        staged(*op))
      op->settings.pipelineStage = stages - 1 - op->settings.pipelineStage;
  // Others (the loss's gradient, accumulations, copies between IPUs).
  stageTheOthers(order);
  for (Op *op : order) {
    if (!perMicroBatch(*op)) {
      op->settings.pipelineStage = unusedPipelineStage;
      continue;
    }
    if (!staged(*op))
      op->settings.pipelineStage = 0;
    for (const Tensor *t : op->inputs)
      if (t && t->producer && perMicroBatch(*t->producer) &&
          t->producer->settings.pipelineStage > op->settings.pipelineStage)
        throw error("{} in pipeline stage {} reads '{}' of the later stage "
                    "{}: the stages must follow the data",
                    op->str(), op->settings.pipelineStage, t->id,
                    t->producer->settings.pipelineStage);
  }
  logging::ir::info("Pipelining: {} forward stages, {} in all", forwardStages,
                    stages);
  return stages;
}

} // namespace popart
