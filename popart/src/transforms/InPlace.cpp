// An input may be written in place when
//   - it is computed by an op (not a weight, constant or streamed input),
//     in the same execution context as the op writing it (an input made
//     in the micro-batch loop may not be overwritten after it);
//   - no op scheduled after the writer reads it, or any tensor aliasing it
//     (the outputs of earlier in-place ops share the storage of their
//     written inputs);
//   - neither it nor its aliases are anchored or outputs of the model.
// The schedule is fixed first, so "after" is simply a later position.
#include "transforms/InPlace.hpp"

#include "ir/Graph.hpp"
#include "ir/Ir.hpp"

#include <popart/logging.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace popart {
namespace {

class AliasClasses {
public:
  const Tensor *root(const Tensor *t) const {
    auto it = parent.find(t);
    return it == parent.end() ? t : root(it->second);
  }
  void join(const Tensor *alias, const Tensor *of) { parent[alias] = root(of); }
  /// Every tensor whose storage is that of `t`.
  std::vector<const Tensor *> members(const Tensor *t) const {
    const Tensor *r = root(t);
    std::vector<const Tensor *> all = {r};
    for (const auto &p : parent)
      if (root(p.first) == r)
        all.push_back(p.first);
    return all;
  }

private:
  std::map<const Tensor *, const Tensor *> parent;
};

bool isModelOutput(const Graph &g, const Tensor &t) {
  return std::find(g.outputs.begin(), g.outputs.end(), t.id) != g.outputs.end();
}

} // namespace

int applyInPlace(Ir &ir, std::vector<Op *> &schedule) {
  Graph &graph = ir.getMainGraph();
  const DataFlow &dataFlow = ir.getDataFlow();
  std::map<const Op *, std::size_t> position;
  for (std::size_t i = 0; i < schedule.size(); ++i)
    position[schedule[i]] = i;
  AliasClasses aliases;
  // Ops that already write into an input (variable updates, batch
  // normalisation's running statistics): their outputs may share its
  // storage.
  for (const Op *op : schedule)
    for (InIndex j = 0; j < op->inTensorCount(); ++j)
      if (op->hasInput(j) && op->modifiesInputInPlace(j))
        for (const Tensor *out : op->outputs)
          if (out)
            aliases.join(out, op->inputs[j]);

  auto mayOverwrite = [&](const Op &writer, const Tensor &in) {
    for (const Tensor *t : aliases.members(&in)) {
      if (!t->producer || dataFlow.isAnchored(t->id) || isModelOutput(graph, *t))
        return false;
      if (t->producer->settings.executionContext !=
          writer.settings.executionContext)
        return false;
      for (const Op *reader : t->consumers)
        if (reader != &writer && position.at(reader) > position.at(&writer))
          return false;
    }
    return true;
  };

  int replaced = 0;
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    Op *op = schedule[i];
    for (const auto &variant : op->inplacePriorityDefault()) {
      std::unique_ptr<Op> candidate =
          op->getInplaceVariant(std::get<0>(variant));
      InIndex written = -1;
      for (InIndex j = 0; j < op->inTensorCount(); ++j)
        if (op->hasInput(j) && candidate->modifiesInputInPlace(j))
          written = j;
      if (written < 0 || !mayOverwrite(*op, *op->inTensor(written)))
        continue;
      const Tensor *in = op->inTensor(written);
      const Tensor *out = op->outputs.at(0);
      logging::pattern::trace("InPlace: {} writes into '{}'", op->str(),
                              in->id);
      Op &added = graph.replaceOp(*op, std::move(candidate));
      position[&added] = i;
      position.erase(op);
      schedule[i] = &added;
      aliases.join(out, in);
      ++replaced;
      break;
    }
  }
  return replaced;
}

} // namespace popart
