#include "lowering/IrLowering.hpp"
#include "ir/HostData.hpp"
#include "ops/IpuCopyOp.hpp"
#include "ops/PoplibsOptions.hpp"
#include "transforms/StreamingMemory.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <poplin/codelets.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>
#include <poprand/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <algorithm>
#include <cstring>
#include <set>

namespace popart {
namespace pe = popops::expr;

namespace {

template <typename T>
poplar::Tensor constantOf(poplar::Graph &graph, const Tensor &t,
                          const poplar::Type &type,
                          const std::vector<char> &data) {
  return graph.addConstant(type, dims(t.info.shape()),
                           reinterpret_cast<const T *>(data.data()), t.id);
}

bool isUpdateContext(const Op &op) {
  return op.settings.executionContext ==
         ExecutionContext::AccumulateOuterFragment;
}

} // namespace

IrLowering::IrLowering(const Ir &ir_, const poplar::Target &target,
                       std::function<void(int, int)> onOpLowered)
    : ir(ir_),
      // Replicas share the one graph: each runs it on its own IPUs with
      // its own copy of every tensor.
      graph(std::make_unique<poplar::Graph>(
          target, poplar::replication_factor(
                      static_cast<unsigned>(ir_.getReplicationFactor())))) {
  popops::addCodelets(*graph);
  poplin::addCodelets(*graph);
  popnn::addCodelets(*graph);
  poprand::addCodelets(*graph);
  const SessionOptions &options = ir.getSessionOptions();
  // The codelets custom ops' lowerings use (source files compiled on first
  // use, or .gp files).
  for (const auto &codelets : options.customCodelets) {
    try {
      graph->addCodelets(codelets);
    } catch (const poplar::poplar_error &e) {
      throw error("SessionOptions::customCodelets: '{}': {}", codelets,
                  e.what());
    }
  }
  // SessionOptions::partialsTypeMatMuls is the default of every matmul's
  // partialsType; a node's own setPartialsType overrides it.
  auto matmulOptions = options.matmulOptions;
  if (!options.partialsTypeMatMuls.empty())
    matmulOptions["partialsType"] = partialsTypeOption(
        options.partialsTypeMatMuls, "SessionOptions::partialsTypeMatMuls");
  ctx = std::make_unique<LoweringContext>(*graph, matmulOptions,
                                          options.convolutionOptions);
  for (const auto &[key, value] : options.gclOptions)
    ctx->gclOptions.set(key, value);
  makeIpuGraphs();
  lowerRootTensors();
  makeIpuContexts();
  lowerOps(onOpLowered);
  lowerAnchors();
  if (ir.getNumPipelineStages() > 0)
    makePipeline();
}

poplar::program::Sequence &IrLowering::microBatchProgram(PipelineStage stage) {
  if (ir.getNumPipelineStages() == 0)
    return inner;
  return stageFragments[stage];
}

PipelineStage IrLowering::rootStage(const Tensor &root) const {
  PipelineStage first = unusedPipelineStage;
  for (const Op *reader : root.consumers)
    if (!isUpdateContext(*reader) &&
        (first == unusedPipelineStage ||
         reader->settings.pipelineStage < first))
      first = reader->settings.pipelineStage;
  return first == unusedPipelineStage ? 0 : first;
}

bool IrLowering::readInItsStageOnly(const Tensor &root) const {
  const PipelineStage stage = rootStage(root);
  for (const Op *reader : root.consumers)
    if (!isUpdateContext(*reader) && reader->settings.pipelineStage != stage)
      return false;
  return true;
}

bool IrLowering::copiesAtCycleEnd(const Op &op) const {
  // An anchor of the copy is streamed in the copy's stage, before the
  // cycle's end.
  if (ir.getNumPipelineStages() == 0 || !dynamic_cast<const IpuCopyOp *>(&op) ||
      isUpdateContext(op) || ir.getDataFlow().isAnchored(op.outputs[0]->id))
    return false;
  for (const Op *reader : op.outputs[0]->consumers)
    if (isUpdateContext(*reader) ||
        reader->settings.pipelineStage <= op.settings.pipelineStage)
      return false;
  return true;
}

poplar::Tensor IrLowering::stageSeed(PipelineStage stage, poplar::Graph &g) {
  auto it = stageSeeds.find(stage);
  if (it == stageSeeds.end()) {
    poplar::Tensor seed = g.addVariable(
        poplar::UNSIGNED_INT, {2}, "randomSeed/stage" + std::to_string(stage));
    g.setTileMapping(seed, 0);
    it = stageSeeds.emplace(stage, seed).first;
  }
  return it->second;
}

void IrLowering::makePipeline() {
  const int64_t stages = ir.getNumPipelineStages();
  // The micro-batches of a batch (training), or the batches of a step
  // (inference).
  const int64_t af = ir.isTraining() ? ir.getAccumulationFactor()
                                     : ir.getDataFlow().batchesPerStep();
  std::map<PipelineStage, poplar::Function> run;
  for (auto &[stage, fragment] : stageFragments)
    run.emplace(stage, graph->addFunction(fragment));
  // Tensors read in a later stage than they are made in. Stages run later
  // ones first in a cycle, and the copies between IPUs run at its end, so
  // a tensor read only by the next stage is read (in the next cycle)
  // before its stage makes the next micro-batch's. Others are overwritten
  // before their last reader runs: each micro-batch's value waits in a
  // slot of its own (the original's stash and restore).
  struct Kept {
    poplar::Tensor value;
    PipelineStage from = 0;
    bool atCycleEnd = false; // made by a copy at the end of the cycle
    std::set<PipelineStage> readers;
    std::vector<poplar::Tensor> slots;
  };
  std::map<TensorId, Kept> kept;
  for (const Op *op : ir.getSchedule()) {
    if (isUpdateContext(*op))
      continue;
    for (const Tensor *t : op->inputs) {
      if (!t)
        continue;
      PipelineStage from;
      if (t->producer && !isUpdateContext(*t->producer))
        from = t->producer->settings.pipelineStage;
      else if (!t->producer && t->type == TensorType::Stream)
        from = rootStage(*t);
      else
        continue; // the same for every micro-batch of the batch
      if (from == op->settings.pipelineStage)
        continue;
      Kept &k = kept[t->id];
      k.value = ctx->get(*t);
      k.from = from;
      k.atCycleEnd = copiedAtCycleEnd.count(t->id) != 0;
      k.readers.insert(op->settings.pipelineStage);
    }
  }
  std::size_t stashed = 0;
  for (auto it = kept.begin(); it != kept.end();) {
    Kept &k = it->second;
    if (*k.readers.rbegin() == k.from + 1) {
      it = kept.erase(it);
      continue;
    }
    const auto depth = static_cast<std::size_t>(*k.readers.rbegin() - k.from + 1);
    for (std::size_t i = 0; i < depth; ++i)
      k.slots.push_back(graph->clone(k.value, it->first + "/stash"));
    stashed += depth;
    ++it;
  }
  auto slot = [](const Kept &k, int64_t mb) {
    return k.slots[static_cast<std::size_t>(mb) % k.slots.size()];
  };
  // The seeds of the stages with random ops: micro-batch mb of the batch
  // draws from the batch's seed with mb + 1 added to its first word, the
  // seed an unpipelined micro-batch has, so that a backward stage (and a
  // recomputed op) reproduces its forward stage's numbers. The stages run
  // their micro-batches in order: the first run copies the batch's seed,
  // each run moves it on by one.
  std::map<PipelineStage, poplar::program::Sequence> seedFirst, seedNext;
  for (const auto &[stage, seed] : stageSeeds) {
    seedFirst[stage].add(poplar::program::Copy(ctx->seed, seed));
    popops::mapInPlace(*graph, pe::_1 + pe::Const(1u), {seed.slice(0, 1)},
                       seedNext[stage], "randomSeed/stage" +
                                            std::to_string(stage) + "/next");
  }
  // The next batch (training) or step (inference) starts after these.
  if (!stageSeeds.empty())
    popops::mapInPlace(*graph,
                       pe::_1 + pe::Const(static_cast<unsigned>(af)),
                       {ctx->seed.slice(0, 1)}, ir.isTraining() ? outer : after,
                       "randomSeed/nextBatch");
  // Cycle c runs stage s on micro-batch c - s, the later stages first (a
  // stage reads what the earlier ones made in the cycle before), then the
  // copies between IPUs of every stage that ran, as one copy: the IPUs
  // compute apart and meet once a cycle.
  poplar::program::Sequence fill({}, "pipeline/fill"),
      main({}, "pipeline/main"), flush({}, "pipeline/flush");
  for (int64_t c = 0; c < af + stages - 1; ++c) {
    poplar::program::Sequence cycle;
    // Sources and destinations, one copy per element type.
    std::vector<std::pair<std::vector<poplar::Tensor>, std::vector<poplar::Tensor>>>
        copies;
    poplar::program::Sequence stashCopied, fromHost, toHost;
    for (int64_t s = stages - 1; s >= 0; --s) {
      const int64_t mb = c - s;
      if (mb < 0 || mb >= af)
        continue;
      if (auto in = cycleStartFromHost.find(s); in != cycleStartFromHost.end())
        fromHost.add(in->second);
      if (auto out = cycleEndToHost.find(s); out != cycleEndToHost.end())
        toHost.add(out->second);
      if (run.count(s)) {
        if (stageSeeds.count(s)) {
          if (mb == 0)
            cycle.add(seedFirst.at(s));
          cycle.add(seedNext.at(s));
        }
        for (auto &[id, k] : kept)
          if (k.readers.count(s))
            cycle.add(poplar::program::Copy(slot(k, mb), k.value));
        cycle.add(poplar::program::Call(run.at(s)));
      }
      for (auto &[id, k] : kept)
        if (k.from == s)
          (k.atCycleEnd ? stashCopied : cycle)
              .add(poplar::program::Copy(k.value, slot(k, mb)));
      auto made = cycleEndCopies.find(s);
      if (made == cycleEndCopies.end())
        continue;
      for (const auto &[src, dst] : made->second) {
        const poplar::Type type = src.elementType();
        auto group = std::find_if(copies.begin(), copies.end(), [&](const auto &g) {
          return g.first.front().elementType() == type;
        });
        if (group == copies.end())
          group = copies.emplace(copies.end());
        group->first.push_back(src.flatten());
        group->second.push_back(dst.flatten());
      }
    }
    for (const auto &[sources, destinations] : copies)
      cycle.add(poplar::program::Copy(poplar::concat(sources),
                                      poplar::concat(destinations), false,
                                      "pipeline/ipuCopies"));
    cycle.add(stashCopied);
    cycle.add(toHost);
    poplar::program::Sequence &phase = c < stages - 1 ? fill : c < af ? main : flush;
    phase.add(fromHost);
    phase.add(cycle);
  }
  pipeline.add(fill);
  pipeline.add(main);
  pipeline.add(flush);
  logging::devicex::info("Pipeline: {} stages, {} micro-batches, {} tensors "
                         "kept between stages in {} slots",
                         stages, af, kept.size(), stashed);
}

void IrLowering::makeIpuGraphs() {
  if (!ir.isPlacedOnIpus())
    return;
  const poplar::Target &target = graph->getTarget();
  const unsigned tiles = target.getTilesPerIPU();
  for (unsigned ipu = 0; ipu < target.getNumIPUs(); ++ipu)
    ipuGraphs.push_back(
        graph->createVirtualGraph(ipu * tiles, (ipu + 1) * tiles));
}

void IrLowering::makeIpuContexts() {
  for (poplar::Graph &g : ipuGraphs)
    ipuContexts.push_back(std::make_unique<LoweringContext>(g, *ctx));
}

poplar::Graph &IrLowering::graphOf(const Tensor &root) {
  if (ipuGraphs.empty())
    return *graph;
  // After the copies between IPUs, every reader of a root is on its IPU.
  for (const Op *reader : root.consumers)
    if (reader->settings.vgraphId != unusedVGraphId)
      return ipuGraphs.at(static_cast<std::size_t>(reader->settings.vgraphId));
  return ipuGraphs.front();
}

LoweringContext &IrLowering::contextOf(const Op &op) {
  if (ipuContexts.empty() || op.settings.vgraphId == unusedVGraphId)
    return *ctx;
  return *ipuContexts.at(static_cast<std::size_t>(op.settings.vgraphId));
}

poplar::Tensor IrLowering::addConstant(poplar::Graph &g, const Tensor &t) {
  const poplar::Type type = deviceType(t.info.dataType());
  const std::vector<char> data = toDeviceBytes(t.data, t.info.dataType());
  // A constant weight in the layout its reader's lowering reads: a
  // variable that keeps its initial value (no program writes it).
  const poplar::Tensor laid = type == poplar::HALF || type == poplar::FLOAT
                                  ? createdByReader(t, g)
                                  : poplar::Tensor();
  if (laid.valid()) {
    const std::size_t n = static_cast<std::size_t>(t.info.nelms());
    if (type == poplar::HALF)
      g.setInitialValueHalf(
          laid, poplar::ArrayRef<std::uint16_t>(
                    reinterpret_cast<const std::uint16_t *>(data.data()), n));
    else
      g.setInitialValue(
          laid, poplar::ArrayRef<float>(
                    reinterpret_cast<const float *>(data.data()), n));
    return laid;
  }
  poplar::Tensor c;
  if (type == poplar::HALF)
    c = g.addConstantHalf(type, dims(t.info.shape()),
                               reinterpret_cast<const uint16_t *>(data.data()),
                               t.id);
  else if (type == poplar::FLOAT)
    c = constantOf<float>(g, t, type, data);
  else if (type == poplar::INT)
    c = constantOf<int>(g, t, type, data);
  else if (type == poplar::UNSIGNED_INT)
    c = constantOf<unsigned>(g, t, type, data);
  else if (type == poplar::BOOL)
    c = constantOf<bool>(g, t, type, data);
  else if (type == poplar::SIGNED_CHAR)
    c = constantOf<signed char>(g, t, type, data);
  else if (type == poplar::UNSIGNED_CHAR)
    c = constantOf<unsigned char>(g, t, type, data);
  else if (type == poplar::SHORT)
    c = constantOf<short>(g, t, type, data);
  else if (type == poplar::UNSIGNED_SHORT)
    c = constantOf<unsigned short>(g, t, type, data);
  else
    throw error("Constant '{}' of type {} is not supported on the device",
                t.id, t.info.data_type());
  poputil::mapTensorLinearly(g, c);
  return c;
}

poplar::Tensor IrLowering::createdByReader(const Tensor &root,
                                           poplar::Graph &home) {
  // Only a weight one op reads: one that others read too (its gradient's
  // ops and its update, in training) keeps the layout in which they all
  // see it as whole rows.
  if (root.consumers.size() != 1)
    return {};
  const Op &reader = *root.consumers.front();
  const InputCreator *create = LoweringRegistry::instance().creator(reader);
  if (!create)
    return {};
  for (InIndex i = 0; i < reader.inTensorCount(); ++i) {
    if (reader.inputs[std::size_t(i)] != &root)
      continue;
    poplar::Tensor v = (*create)(reader, i, home, contextOf(reader), root.id);
    if (v.valid())
      return v;
  }
  return {};
}

void IrLowering::lowerRootTensors() {
  const Graph &g = ir.getMainGraph();
  for (const auto &p : g.getTensors()) {
    const Tensor &t = *p.second;
    if (t.producer)
      continue;
    const poplar::Type type = deviceType(t.info.dataType());
    poplar::Graph &home = graphOf(t);
    if (t.type == TensorType::Const) {
      ctx->set(t, addConstant(home, t));
      continue;
    }
    if (t.type != TensorType::Stream && t.type != TensorType::Variable)
      continue;
    poplar::Tensor v;
    if (t.type == TensorType::Variable)
      v = createdByReader(t, home);
    if (!v.valid()) {
      v = home.addVariable(type, dims(t.info.shape()), t.id);
      poputil::mapTensorLinearly(home, v);
    }
    const auto n = t.info.nelms();
    if (t.type == TensorType::Variable && isOffChip(ir, t)) {
      if (graph->getTarget().getTargetType() == poplar::TargetType::CPU)
        throw error("SessionOptions::{}.location.storage OffChip: '{}' needs "
                    "a remote buffer, which the CPU device does not have "
                    "(use an IPU Model device)",
                    tensorLocationSettingsName(ir, t), t.id);
      // Held in a remote buffer (a row per replica's part when sharded),
      // which the session fills and reads; `v` holds it only between a
      // load and a store (lowerOps).
      remote[t.id] = {graph->addRemoteBuffer(remoteBufferName(t.id), type,
                                             static_cast<std::size_t>(n)),
                      v};
      remoteVariables.push_back(t.id);
      ctx->set(t, v);
      continue;
    }
    // Inputs: each replica its own data; weights, optimiser state and
    // scalars: the same values to every replica, except the state sharded
    // over the replicas (each its part).
    // An input marked Broadcast (InputSettings) is one value for all.
    const auto mode =
        (t.type == TensorType::Stream && !ir.isBroadcastInput(t.id)) ||
                isReplicaSharded(t)
            ? poplar::ReplicatedStreamMode::REPLICATE
            : poplar::ReplicatedStreamMode::BROADCAST;
    auto fromHost =
        graph->addHostToDeviceFIFO(fromHostStream(t.id), type, n, mode);
    if (t.type == TensorType::Stream) {
      // In a pipeline, an input only its stage reads is copied at the
      // start of the cycle; one that later stages read too is copied in
      // its stage (it must wait until they have read the last one).
      poplar::program::Sequence &where =
          ir.getNumPipelineStages() > 0 && readInItsStageOnly(t)
              ? cycleStartFromHost[rootStage(t)]
              : microBatchProgram(rootStage(t));
      where.add(poplar::program::Copy(fromHost, v));
      inputs[t.id] = n;
    } else if (t.variableKind == VariableKind::HyperParameter) {
      optimizerFromHost.add(poplar::program::Copy(fromHost, v));
      optimizerScalars.push_back(t.id);
    } else {
      weightsFromHost.add(poplar::program::Copy(fromHost, v));
      weightsToHost.add(poplar::program::Copy(
          v, graph->addDeviceToHostFIFO(toHostStream(t.id), type, n)));
      variables.push_back(t.id);
    }
    ctx->set(t, v);
  }
  // The constants of subgraphs; their other tensors are lowered with the
  // subgraph (ops/CallLowering.cpp).
  for (const Graph *sub : ir.getSubgraphs())
    for (const auto &p : sub->getTensors())
      if (p.second->type == TensorType::Const && !p.second->producer)
        ctx->set(*p.second, addConstant(*graph, *p.second));
  if (ir.requiresRandomSeed()) {
    // The session's seed, moved on once per micro-batch so that each draws
    // new numbers.
    ctx->seed = graph->addVariable(poplar::UNSIGNED_INT, {2}, "randomSeed");
    graph->setTileMapping(ctx->seed, 0);
    seedFromHost.add(poplar::program::Copy(
        graph->addHostToDeviceFIFO(randomSeedStream(), poplar::UNSIGNED_INT, 2,
                                   poplar::ReplicatedStreamMode::BROADCAST),
        ctx->seed));
    // Each replica draws its own numbers: the seed's second word moved on
    // by the replica's global index (replica 0 of the first process keeps
    // the session's seed), so that the processes of distributed training
    // draw what the replicas of one process would.
    const SessionOptions &options = ir.getSessionOptions();
    const unsigned firstReplica =
        options.enableDistributedReplicatedGraphs
            ? static_cast<unsigned>(options.globalReplicaOffset)
            : 0u;
    if (graph->getReplicationFactor() > 1 || firstReplica != 0) {
      poplar::Tensor replica = graph->addReplicationIndexConstant("replica");
      graph->setTileMapping(replica, 0);
      popops::mapInPlace(*graph, pe::_1 + pe::_2 + pe::Const(firstReplica),
                         {ctx->seed.slice(1, 2).reshape({}), replica},
                         seedFromHost, "randomSeed/replica");
    }
    popops::mapInPlace(*graph, pe::_1 + pe::Const(1u), {ctx->seed.slice(0, 1)},
                       inner, "randomSeed/next");
  }
}

poplar::program::Sequence &IrLowering::programOf(const Op &op) {
  return isUpdateContext(op) ? outer
                             : microBatchProgram(op.settings.pipelineStage);
}

// The ops of each program fragment that use an off-chip variable (read it
// or an alias an in-place update made of it): the first loads it, the last
// stores it when one of them changed it.
std::map<const Op *, IrLowering::RemoteTransfers>
IrLowering::planRemoteTransfers() {
  std::map<const Op *, RemoteTransfers> plan;
  for (const TensorId &id : remoteVariables) {
    std::set<const Tensor *> aliases{&ir.getMainGraph().getTensor(id)};
    struct Use {
      const Op *first = nullptr, *last = nullptr;
      bool changed = false;
    };
    std::map<const poplar::program::Sequence *, Use> uses;
    for (const Op *op : ir.getSchedule()) {
      bool uses_ = false, changes = false;
      for (InIndex i = 0; i < op->inTensorCount(); ++i)
        if (op->hasInput(i) && aliases.count(op->inputs[i])) {
          uses_ = true;
          if (op->modifiesInputInPlace(i)) {
            changes = true;
            aliases.insert(op->outputs.at(0));
          }
        }
      if (!uses_)
        continue;
      Use &u = uses[&programOf(*op)];
      if (!u.first)
        u.first = op;
      u.last = op;
      u.changed = u.changed || changes;
    }
    for (const auto &[prog, u] : uses) {
      plan[u.first].loads.push_back(id);
      if (u.changed)
        plan[u.last].stores.push_back(id);
    }
  }
  return plan;
}

void IrLowering::lowerOps(const std::function<void(int, int)> &onOpLowered) {
  auto &registry = LoweringRegistry::instance();
  const auto &schedule = ir.getSchedule();
  const auto transfers = planRemoteTransfers();
  int done = 0;
  for (const Op *op : schedule) {
    logging::devicex::debug("Lowering {}", op->str());
    auto &prog = programOf(*op);
    const auto transfer = transfers.find(op);
    if (transfer != transfers.end())
      for (const TensorId &id : transfer->second.loads)
        prog.add(poplar::program::Copy(remote.at(id).buffer,
                                       remote.at(id).tensor,
                                       poplar::DebugContext(id + "/load")));
    LoweringContext &opCtx = contextOf(*op);
    // In a pipeline a random op draws from its stage's seed, which each
    // run of the stage sets to the micro-batch's (makePipeline).
    const poplar::Tensor sessionSeed = opCtx.seed;
    if (ir.getNumPipelineStages() > 0 && op->requiresRandomSeed())
      opCtx.seed = stageSeed(op->settings.pipelineStage, opCtx.graph);
    if (copiesAtCycleEnd(*op)) {
      // Lowered for its destination tensor; the copy itself runs with the
      // pipeline cycle's other copies between IPUs (makePipeline).
      poplar::program::Sequence inCycle;
      registry.get(*op)(*op, opCtx, inCycle);
      cycleEndCopies[op->settings.pipelineStage].emplace_back(
          ctx->get(op->inTensor(0)), ctx->get(*op->outputs[0]));
      copiedAtCycleEnd.insert(op->outputs[0]->id);
    } else {
      registry.get(*op)(*op, opCtx, prog);
      keepOutputsApart(*op, opCtx, prog);
    }
    opCtx.seed = sessionSeed;
    if (transfer != transfers.end())
      for (const TensorId &id : transfer->second.stores)
        prog.add(poplar::program::Copy(remote.at(id).tensor,
                                       remote.at(id).buffer,
                                       poplar::DebugContext(id + "/store")));
    if (onOpLowered)
      onOpLowered(++done, static_cast<int>(schedule.size()));
  }
}

// Only ops that write into an input may give an output the input's
// storage: a lowering that returns a view of an input (a cast to the same
// type, say) gets a copy, so that an in-place op writing into the output
// later leaves the input alone.
void IrLowering::keepOutputsApart(const Op &op, LoweringContext &opCtx,
                                  poplar::program::Sequence &prog) {
  for (InIndex i = 0; i < op.inTensorCount(); ++i)
    if (op.hasInput(i) && op.modifiesInputInPlace(i))
      return;
  for (const Tensor *out : op.outputs) {
    if (!out || !ctx->has(out->id))
      continue;
    const poplar::Tensor value = ctx->get(*out);
    for (const Tensor *in : op.inputs)
      if (in && ctx->has(in->id) && value.intersectsWith(ctx->get(*in))) {
        ctx->set(*out, copyOf(opCtx, value, prog, op.name()));
        break;
      }
  }
}

void IrLowering::lowerAnchors() {
  const DataFlow &dataFlow = ir.getDataFlow();
  const Graph &g = ir.getMainGraph();
  const int64_t af = ir.getAccumulationFactor();
  // ALL, EVERYN: every micro-batch (of every N-th batch); FINAL: after the
  // last; SUM: a running sum copied after the last. Tensors that change
  // once per batch (the weight update, variables) are copied after the
  // update, once for each of the batch's micro-batches.
  poplar::Tensor counter;
  if (dataFlow.isBatchCountingRequired()) {
    counter = graph->addVariable(poplar::INT, {}, "batchCounter");
    graph->setTileMapping(counter, 0);
    popops::zero(*graph, counter, before, "batchCounter");
    popops::mapInPlace(*graph, pe::_1 + pe::Const(1), {counter}, outer,
                       "batchCounter");
  }
  for (const auto &id : dataFlow.anchors()) {
    const Tensor &t = g.getTensor(id);
    const bool perBatch = !t.producer || isUpdateContext(*t.producer);
    const PipelineStage stage =
        t.producer ? t.producer->settings.pipelineStage : rootStage(t);
    // In a pipeline, a stage's anchors go to the host at the end of the
    // cycle (the stage's value stays until it runs again).
    poplar::program::Sequence &where =
        perBatch ? outer
        : ir.getNumPipelineStages() > 0 ? cycleEndToHost[stage]
                                        : microBatchProgram(stage);
    const poplar::Tensor value = ctx->get(t);
    auto stream = graph->addDeviceToHostFIFO(anchorStream(id),
                                             value.elementType(), t.info.nelms());
    anchors[id] = t.info.nelms();
    const auto art = dataFlow.art(id);
    poplar::program::Sequence copy;
    const int64_t copies = perBatch ? af : 1;
    for (int64_t i = 0; i < copies; ++i)
      copy.add(poplar::program::Copy(value, stream));
    switch (art.id()) {
    case AnchorReturnTypeId::All:
      where.add(copy);
      break;
    case AnchorReturnTypeId::Final:
      after.add(poplar::program::Copy(value, stream));
      break;
    case AnchorReturnTypeId::EveryN: {
      // In a micro-batch the counter holds the batches before this one;
      // after the update it includes this one.
      poplar::program::Sequence check;
      poplar::Tensor due = popops::map(
          *graph,
          pe::Equal(pe::Rem(pe::_1 + pe::Const(perBatch ? 0 : 1),
                            pe::Const(art.rp())),
                    pe::Const(0)),
          {counter}, check, id + "/everyN");
      where.add(check);
      where.add(poplar::program::If(due, copy));
      break;
    }
    case AnchorReturnTypeId::Sum: {
      poplar::Tensor sum = graph->clone(value, id + "/sum");
      popops::zero(*graph, sum, before, id + "/sum");
      popops::addInPlace(*graph, sum, value, where, id + "/sum");
      after.add(poplar::program::Copy(sum, stream));
      break;
    }
    }
  }
}

std::vector<poplar::program::Program> IrLowering::getPrograms() const {
  const int64_t af = ir.getAccumulationFactor();
  const bool pipelinedInference =
      ir.getNumPipelineStages() > 0 && !ir.isTraining();
  poplar::program::Sequence batch;
  if (pipelinedInference)
    batch.add(poplar::program::Sequence()); // the pipeline runs the step
  else if (ir.getNumPipelineStages() > 0)
    batch.add(pipeline);
  else if (af > 1)
    batch.add(poplar::program::Repeat(static_cast<unsigned>(af), inner));
  else
    batch.add(inner);
  batch.add(outer);
  poplar::program::Sequence step;
  step.add(before);
  if (pipelinedInference)
    // The step's batches through the pipeline, then what each batch does
    // once (anchors of tensors no micro-batch computes).
    step.add(pipeline);
  step.add(poplar::program::Repeat(
      static_cast<unsigned>(ir.getDataFlow().batchesPerStep()), batch));
  step.add(after);
  std::vector<poplar::program::Program> programs(
      static_cast<std::size_t>(ProgramIndex::N));
  programs[static_cast<int>(ProgramIndex::WeightsFromHost)] = weightsFromHost;
  programs[static_cast<int>(ProgramIndex::OptimizerFromHost)] = optimizerFromHost;
  programs[static_cast<int>(ProgramIndex::RandomSeedFromHost)] = seedFromHost;
  programs[static_cast<int>(ProgramIndex::Step)] = step;
  programs[static_cast<int>(ProgramIndex::WeightsToHost)] = weightsToHost;
  return programs;
}

} // namespace popart
