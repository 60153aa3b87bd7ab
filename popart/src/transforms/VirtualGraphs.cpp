#include "transforms/VirtualGraphs.hpp"
#include "ir/Ir.hpp"
#include "ops/IpuCopyOp.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <algorithm>
#include <map>
#include <vector>

namespace popart {
namespace {

bool placed(const Op &op) { return op.settings.vgraphId != unusedVGraphId; }

// Auto: the model's ops, in schedule order, split into numIpus runs of
// about equal cost (the elements each reads and writes).
void splitOverIpus(const std::vector<Op *> &ops, int64_t numIpus) {
  auto cost = [](const Op &op) {
    int64_t c = 0;
    for (const Tensor *t : op.inputs)
      if (t)
        c += t->info.nelms();
    for (const Tensor *t : op.outputs)
      if (t)
        c += t->info.nelms();
    return std::max<int64_t>(c, 1);
  };
  int64_t total = 0;
  for (const Op *op : ops)
    total += cost(*op);
  int64_t before = 0;
  for (Op *op : ops) {
    const int64_t c = cost(*op);
    // The IPU of the op's middle: its share of the cost so far.
    const int64_t ipu = std::min<int64_t>(
        numIpus - 1, (2 * before + c) * numIpus / (2 * total));
    op->settings.vgraphId = ipu;
    before += c;
  }
}

// A root tensor (variable, stream, constant) that `op` changes in place.
const Tensor *modifiedRoot(const Op &op) {
  for (int i = 0; i < op.inTensorCount(); ++i)
    if (op.hasInput(i) && op.modifiesInputInPlace(i) && !op.inputs[i]->producer)
      return op.inputs[i];
  return nullptr;
}

void replaceInput(Graph &graph, Op &op, int index, const TensorId &with) {
  auto &consumers = op.inputs[index]->consumers;
  consumers.erase(std::find(consumers.begin(), consumers.end(), &op));
  graph.connectInput(op, index, with);
}

} // namespace

void placeOnVirtualGraphs(Ir &ir, const std::set<OpId> &modelOps,
                          int64_t numIpus) {
  Graph &graph = ir.getMainGraph();
  const VirtualGraphMode mode = ir.getSessionOptions().virtualGraphMode;
  const std::vector<Op *> order =
      graph.getOpSchedule(ir.getSessionOptions().kahnTieBreaker);

  std::vector<Op *> model;
  for (Op *op : order)
    if (modelOps.count(op->id))
      model.push_back(op);
  if (mode == VirtualGraphMode::Auto) {
    splitOverIpus(model, numIpus);
  } else {
    for (const Op *op : model)
      if (!placed(*op))
        throw error("{} has no virtual graph, which the Manual virtual graph "
                    "mode needs (Builder::virtualGraph)",
                    op->str());
  }

  // A root tensor's IPU: that of its first placed reader in the model,
  // else of the first placed op that reads it.
  std::map<const Tensor *, VGraphId> rootIpu;
  for (const std::vector<Op *> *ops :
       {static_cast<const std::vector<Op *> *>(&model), &order})
    for (const Op *op : *ops)
      if (placed(*op))
        for (const Tensor *t : op->inputs)
          if (t && !t->producer)
            rootIpu.emplace(t, op->settings.vgraphId);

  // The IR's ops: in place on a root on its IPU, else with the first
  // input made on an IPU, else with a placed reader of an output;
  // repeated until nothing changes (readers may be placed later).
  bool changed = true;
  while (changed) {
    changed = false;
    for (Op *op : order) {
      if (placed(*op))
        continue;
      VGraphId ipu = unusedVGraphId;
      if (const Tensor *root = modifiedRoot(*op)) {
        auto it = rootIpu.find(root);
        if (it != rootIpu.end())
          ipu = it->second;
      }
      for (const Tensor *t : op->inputs)
        if (ipu == unusedVGraphId && t && t->producer && placed(*t->producer))
          ipu = t->producer->settings.vgraphId;
      for (const Tensor *t : op->outputs)
        if (t)
          for (const Op *reader : t->consumers)
            if (ipu == unusedVGraphId && placed(*reader))
              ipu = reader->settings.vgraphId;
      if (ipu != unusedVGraphId) {
        op->settings.vgraphId = ipu;
        changed = true;
      }
    }
  }
  for (Op *op : order) {
    if (!placed(*op))
      op->settings.vgraphId = 0; // reads and feeds nothing placed
    for (const Tensor *t : op->inputs)
      if (t && !t->producer)
        rootIpu.emplace(t, op->settings.vgraphId);
  }

  // Copies: each tensor read on another IPU than its own, once per IPU.
  std::map<std::pair<TensorId, VGraphId>, TensorId> copies;
  int count = 0;
  for (Op *op : order) {
    const VGraphId to = op->settings.vgraphId;
    for (int i = 0; i < op->inTensorCount(); ++i) {
      if (!op->hasInput(i))
        continue;
      Tensor *t = op->inputs[i];
      const VGraphId from =
          t->producer ? t->producer->settings.vgraphId : rootIpu.at(t);
      if (from == to)
        continue;
      if (op->modifiesInputInPlace(i))
        throw internal_error("{} changes '{}' in place on IPU {}, and the "
                             "tensor is on IPU {}",
                             op->str(), t->id, to, from);
      auto key = std::make_pair(t->id, to);
      auto found = copies.find(key);
      if (found == copies.end()) {
        Op::Settings settings(graph, t->id + "/IpuCopy");
        settings.vgraphId = to;
        settings.executionContext =
            t->producer ? t->producer->settings.executionContext
                        : op->settings.executionContext;
        auto copy = std::make_unique<IpuCopyOp>(settings, from);
        Op &added = graph.addOp(std::move(copy));
        const TensorId out = graph.uniqueId(t->id + "_c" + std::to_string(to));
        graph.connect(added, {t->id}, {out});
        found = copies.emplace(key, out).first;
        ++count;
      }
      replaceInput(graph, *op, i, found->second);
    }
  }
  logging::ir::info("Virtual graphs: {} ops over {} IPUs, {} copies between "
                    "IPUs",
                    order.size(), numIpus, count);
}

} // namespace popart
