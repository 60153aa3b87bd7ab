#include "transforms/Autodiff.hpp"
#include "ir/Ir.hpp"
#include "transforms/GraphBuilding.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>
#include <popart/onnxoperators.gen.hpp>
#include <popart/tensornames.hpp>

#include <algorithm>
#include <map>

namespace popart {

bool isDifferentiable(const TensorInfo &info) {
  return info.dataType() == DataType::FLOAT ||
         info.dataType() == DataType::FLOAT16;
}

namespace {

bool isFloatingPoint(const Tensor &t) { return isDifferentiable(t.info); }

class BackwardPass {
public:
  /// The main graph's pass: the loss's gradient is `seed`.
  BackwardPass(Ir &ir, const TensorId &lossId, const TensorId &seed)
      : BackwardPass(ir.getMainGraph(), {{lossId, seed}}) {
    this->lossId = lossId;
  }
  /// A pass over `graph` from several tensors, each (ends) with its
  /// gradient (seeds, tensors of the graph).
  BackwardPass(Graph &graph,
               const std::vector<std::pair<TensorId, TensorId>> &seeded)
      : graph(graph) {
    for (const auto &[end, seed] : seeded) {
      ends.insert(end);
      partials[end].push_back(seed);
      seeds.insert(seed);
    }
  }

  std::vector<TensorId> grow(const std::set<TensorId> &wanted);

  void markNeedsGrad(const std::set<TensorId> &sources);
  /// Differentiates the graph's ops, consumers before producers.
  void growGradOps();
  bool needsGradient(const TensorId &id) const {
    return needsGrad.count(&graph.getTensor(id)) != 0;
  }
  /// The final gradient of `t`: the seed for an end no op reads, the one
  /// partial gradient renamed, or the sum of several ("" for none).
  TensorId finalGradient(const Tensor &t);

private:
  void growGradOps(Op &op);
  TensorId zerosLike(const Tensor &t);

  Graph &graph;
  TensorId lossId;
  std::set<TensorId> ends, seeds;
  std::set<const Tensor *> needsGrad;
  std::map<TensorId, std::vector<TensorId>> partials;
  std::map<TensorId, TensorId> finals;
};

void BackwardPass::markNeedsGrad(const std::set<TensorId> &sources) {
  // Tensors reached from a source through floating-point values ...
  std::set<const Tensor *> fromSources;
  std::vector<const Tensor *> stack;
  for (const auto &id : sources) {
    const Tensor &t = graph.getTensor(id);
    if (isFloatingPoint(t) && fromSources.insert(&t).second)
      stack.push_back(&t);
  }
  while (!stack.empty()) {
    const Tensor *t = stack.back();
    stack.pop_back();
    for (Op *c : t->consumers) {
      if (c->opid.type == "Detach" && c->opid.domain == Domain::ai_graphcore)
        continue; // no gradient flows through a Detach
      for (Tensor *out : c->outputs)
        if (out && isFloatingPoint(*out) && fromSources.insert(out).second)
          stack.push_back(out);
    }
  }
  // ... that an end (the loss) depends on.
  std::set<const Tensor *> toLoss;
  for (const auto &id : ends) {
    const Tensor &end = graph.getTensor(id);
    if (fromSources.count(&end) && toLoss.insert(&end).second)
      stack.push_back(&end);
  }
  while (!stack.empty()) {
    const Tensor *t = stack.back();
    stack.pop_back();
    if (!t->producer)
      continue;
    for (Tensor *in : t->producer->inputs)
      if (in && fromSources.count(in) && toLoss.insert(in).second)
        stack.push_back(in);
  }
  needsGrad = toLoss;
}

TensorId BackwardPass::zerosLike(const Tensor &t) {
  return addZerosConst(graph, reservedGradientPrefix() + t.id + "_zeros", t.info);
}

TensorId BackwardPass::finalGradient(const Tensor &t) {
  auto done = finals.find(t.id);
  if (done != finals.end())
    return done->second;
  const TensorId gradId = getGradId(t.id);
  auto &parts = partials[t.id];
  if (parts.size() == 1 && seeds.count(parts[0])) {
    finals[t.id] = parts[0];
    return parts[0];
  }
  if (parts.empty()) {
    // Every path to the loss goes through inputs that have no gradient
    // (the running mean of a batch normalisation, indices ...).
    finals[t.id] = "";
    return "";
  }
  if (parts.size() == 1) {
    graph.renameTensor(parts[0], gradId);
  } else {
    Op &sum = addBuiltinOp(graph, Onnx::Operators::Sum_8, gradId + "/sum",
                           parts, {gradId}, {}, t.producer);
    sum.settings.executionContext = ExecutionContext::Normal;
    sum.settings.recomputeType = RecomputeType::Undefined;
  }
  finals[t.id] = gradId;
  return gradId;
}

void BackwardPass::growGradOps(Op &op) {
  bool anyInput = false, anyOutput = false;
  for (Tensor *in : op.inputs)
    anyInput |= in && needsGrad.count(in);
  for (Tensor *out : op.outputs)
    anyOutput |= out && needsGrad.count(out);
  if (!anyInput || !anyOutput)
    return;

  // The gradients of the outputs, complete now that every consumer of
  // them has been differentiated.
  std::map<int, TensorId> outGrads;
  for (int o = 0; o < op.outTensorCount(); ++o)
    if (op.hasOutput(o) && needsGrad.count(op.outputs[o])) {
      const TensorId g = finalGradient(*op.outputs[o]);
      if (!g.empty())
        outGrads[o] = g;
    }
  if (outGrads.empty())
    return;

  auto gradOps = op.getGradOps();
  if (gradOps.empty()) {
    for (Tensor *in : op.inputs)
      if (in && needsGrad.count(in))
        throw error("The loss depends on '{}' through {}, which has no "
                    "gradient",
                    in->id, op.str());
  }
  for (auto &g : gradOps) {
    const auto &outToIn = g->gradOutToNonGradIn();
    bool useful = false;
    for (const auto &p : outToIn)
      useful |= op.hasInput(p.second) && needsGrad.count(op.inputs[p.second]);
    if (!useful)
      continue;
    std::vector<TensorId> ins;
    for (const auto &m : g->gradInputInfo()) {
      if (static_cast<int>(ins.size()) <= m.iGrad)
        ins.resize(m.iGrad + 1);
      switch (m.type) {
      case GradOpInType::In:
        if (op.hasInput(m.iNonGrad))
          ins[m.iGrad] = op.inId(m.iNonGrad);
        break;
      case GradOpInType::Out:
        ins[m.iGrad] = op.outId(m.iNonGrad);
        break;
      case GradOpInType::GradOut: {
        auto it = outGrads.find(m.iNonGrad);
        ins[m.iGrad] = it != outGrads.end()
                           ? it->second
                           : zerosLike(*op.outTensor(m.iNonGrad));
        break;
      }
      }
    }
    std::vector<TensorId> outs;
    for (const auto &p : outToIn) {
      if (static_cast<int>(outs.size()) <= p.first)
        outs.resize(p.first + 1);
      const Tensor *in = op.hasInput(p.second) ? op.inputs[p.second] : nullptr;
      const TensorId base =
          reservedGradientPrefix() +
          (in ? in->id : op.name() + "_in" + std::to_string(p.second)) +
          "__from_" + std::to_string(op.id);
      outs[p.first] = graph.uniqueId(base);
    }
    g->setName(op.name() + "/" + g->opid.type);
    g->settings.executionContext = ExecutionContext::Normal;
    g->settings.recomputeType = RecomputeType::Undefined;
    g->settings.optimizerOp = false;
    Op &added = graph.addOp(std::move(g));
    try {
      graph.connect(added, ins, outs);
    } catch (const error &e) {
      throw error("The gradient of {}: {}", op.str(), e.what());
    }
    for (const auto &p : outToIn) {
      if (!op.hasInput(p.second))
        continue;
      const Tensor &in = *op.inputs[p.second];
      const TensorInfo &got = added.outInfo(p.first);
      if (got.shape() != in.info.shape())
        throw error("{} gives the gradient of '{}' the shape {}, not the "
                    "tensor's {}",
                    added.str(), in.id, got.shape(), in.info.shape());
      if (needsGrad.count(&in))
        partials[in.id].push_back(outs[p.first]);
    }
    logging::ir::trace("Grew {} for {}", added.str(), op.str());
  }
}

void BackwardPass::growGradOps() {
  const auto forward = graph.getOpSchedule("fifo");
  for (auto it = forward.rbegin(); it != forward.rend(); ++it)
    growGradOps(**it);
}

std::vector<TensorId> BackwardPass::grow(const std::set<TensorId> &wanted) {
  std::set<TensorId> sources = wanted;
  for (const auto &p : graph.getTensors())
    if (p.second->type == TensorType::Variable &&
        p.second->variableKind == VariableKind::Weight && !p.second->producer)
      sources.insert(p.first);
  markNeedsGrad(sources);
  for (const auto &id : wanted)
    if (!needsGrad.count(&graph.getTensor(id)))
      throw error("The gradient of '{}' is anchored, but the loss '{}' does "
                  "not depend on it",
                  id, lossId);

  growGradOps();

  std::vector<TensorId> weights;
  for (const Tensor *t : std::vector<const Tensor *>(needsGrad.begin(),
                                                     needsGrad.end())) {
    const bool weight = t->type == TensorType::Variable &&
                        t->variableKind == VariableKind::Weight && !t->producer;
    const TensorId g =
        weight || wanted.count(t->id) ? finalGradient(*t) : TensorId();
    if (g.empty() && wanted.count(t->id))
      throw error("The gradient of '{}' is anchored, but no gradient reaches "
                  "it from the loss '{}'",
                  t->id, lossId);
    if (weight && !g.empty())
      weights.push_back(t->id);
  }
  std::sort(weights.begin(), weights.end());
  return weights;
}

std::string unusedGraphId(const Ir &ir, const std::string &base) {
  std::string id = base;
  for (int n = 1; ir.hasGraph(id); ++n)
    id = base + "_" + std::to_string(n);
  return id;
}

} // namespace

SubgraphGradient growSubgraphGradient(Ir &ir, const Graph &fwd) {
  Graph &g = ir.createGraph(unusedGraphId(ir, fwd.getGraphId() + "_grad"));
  // Tensor ids are unique in the IR: the copies take the graph's prefix.
  const auto local = [&](const TensorId &id) {
    return g.getGraphId() + "/" + id;
  };
  for (const auto &id : fwd.inputs) {
    g.addTensor(local(id), fwd.getTensor(id).info, TensorType::ActGrad);
    g.inputs.push_back(local(id));
  }
  for (const auto &p : fwd.getTensors())
    if (!p.second->producer && p.second->type == TensorType::Const)
      g.addTensor(local(p.first), p.second->info, TensorType::Const,
                  p.second->data);
  // The forward ops again, on the copies.
  for (const Op *op : fwd.getOpSchedule("fifo")) {
    std::unique_ptr<Op> copy = op->clone();
    copy->settings.graph = g;
    Op &added = g.addOp(std::move(copy));
    std::vector<TensorId> ins, outs;
    for (const Tensor *t : op->inputs)
      ins.push_back(t ? local(t->id) : TensorId());
    for (const Tensor *t : op->outputs)
      outs.push_back(t ? local(t->id) : TensorId());
    g.connect(added, ins, outs);
  }
  // A gradient input for each output.
  std::vector<std::pair<TensorId, TensorId>> seeded;
  for (const auto &id : fwd.outputs) {
    const TensorId seed = g.uniqueId(local(getGradId(id)) + "_in");
    g.addTensor(seed, fwd.getTensor(id).info, TensorType::ActGrad);
    g.inputs.push_back(seed);
    seeded.push_back({local(id), seed});
  }
  BackwardPass pass(g, seeded);
  std::set<TensorId> sources;
  for (const auto &id : fwd.inputs)
    if (isFloatingPoint(fwd.getTensor(id)))
      sources.insert(local(id));
  pass.markNeedsGrad(sources);
  pass.growGradOps();
  SubgraphGradient result{g.getGraphId(), {}};
  for (std::size_t i = 0; i < fwd.inputs.size(); ++i) {
    const TensorId in = local(fwd.inputs[i]);
    if (!sources.count(in) || !pass.needsGradient(in))
      continue;
    const TensorId grad = pass.finalGradient(g.getTensor(in));
    if (grad.empty())
      continue;
    g.outputs.push_back(grad);
    result.gradientOf.push_back(static_cast<int>(i));
  }
  logging::ir::debug("Subgraph '{}': its gradient is subgraph '{}' ({} "
                     "gradients)",
                     fwd.getGraphId(), g.getGraphId(),
                     result.gradientOf.size());
  return result;
}

std::vector<TensorId> growBackwardPass(Ir &ir, const TensorId &lossId,
                                       const TensorId &lossGradSeed,
                                       const std::set<TensorId> &alsoWanted) {
  BackwardPass pass(ir, lossId, lossGradSeed);
  auto weights = pass.grow(alsoWanted);
  logging::ir::info("Autodiff: gradients of {} weights from the loss '{}'",
                    weights.size(), lossId);
  return weights;
}

} // namespace popart
