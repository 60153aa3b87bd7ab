#include "ir/Graph.hpp"

#include <popart/error.hpp>

#include <algorithm>

namespace popart {

Tensor &Graph::addTensor(const TensorId &id, const TensorInfo &info,
                         TensorType type, std::vector<char> data) {
  if (tensors.count(id))
    throw error("Tensor '{}' is defined twice", id);
  auto t = std::make_unique<Tensor>();
  t->id = id;
  t->info = info;
  t->type = type;
  t->data = std::move(data);
  auto &ref = *t;
  tensors.emplace(id, std::move(t));
  return ref;
}

Tensor &Graph::getTensor(const TensorId &id) const {
  auto it = tensors.find(id);
  if (it == tensors.end())
    throw error("No tensor '{}' in the graph", id);
  return *it->second;
}

Op &Graph::addOp(std::unique_ptr<Op> op) {
  op->id = nextOpId++;
  auto &ref = *op;
  ops.emplace(op->id, std::move(op));
  return ref;
}

void Graph::connectInput(Op &op, int index, const TensorId &id) {
  if (static_cast<int>(op.inputs.size()) <= index)
    op.inputs.resize(index + 1, nullptr);
  Tensor &t = getTensor(id);
  op.inputs[index] = &t;
  t.consumers.push_back(&op);
}

Tensor &Graph::createOutput(Op &op, int index, const TensorId &id) {
  if (static_cast<int>(op.outputs.size()) <= index)
    op.outputs.resize(index + 1, nullptr);
  Tensor &t = addTensor(id, TensorInfo(), TensorType::ActGrad);
  t.producer = &op;
  op.outputs[index] = &t;
  return t;
}

void Graph::connect(Op &op, const std::vector<TensorId> &ins,
                    const std::vector<TensorId> &outs) {
  for (std::size_t i = 0; i < ins.size(); ++i)
    if (!ins[i].empty())
      connectInput(op, static_cast<int>(i), ins[i]);
    else if (op.inputs.size() <= i)
      op.inputs.resize(i + 1, nullptr);
  for (std::size_t i = 0; i < outs.size(); ++i)
    if (!outs[i].empty())
      createOutput(op, static_cast<int>(i), outs[i]);
  op.setup();
}

TensorId Graph::uniqueId(const TensorId &base) const {
  if (!hasTensor(base))
    return base;
  for (int n = 1;; ++n) {
    TensorId id = base + "__" + std::to_string(n);
    if (!hasTensor(id))
      return id;
  }
}

void Graph::addTopoCon(Op &before, Op &after) {
  if (&before == &after)
    return;
  auto &v = topoCons[&before];
  if (std::find(v.begin(), v.end(), &after) == v.end())
    v.push_back(&after);
}

void Graph::eraseOp(Op &op) {
  topoCons.erase(&op);
  for (auto &c : topoCons) {
    auto &v = c.second;
    v.erase(std::remove(v.begin(), v.end(), &op), v.end());
  }
  for (Tensor *in : op.inputs)
    if (in) {
      auto &c = in->consumers;
      c.erase(std::remove(c.begin(), c.end(), &op), c.end());
    }
  for (Tensor *out : op.outputs)
    if (out && out->producer == &op)
      out->producer = nullptr;
  ops.erase(op.id);
}

Op &Graph::replaceOp(Op &op, std::unique_ptr<Op> replacement) {
  Op &added = addOp(std::move(replacement));
  added.inputs = op.inputs;
  added.outputs = op.outputs;
  for (Tensor *in : added.inputs)
    if (in)
      std::replace(in->consumers.begin(), in->consumers.end(), &op, &added);
  for (Tensor *out : added.outputs)
    if (out && out->producer == &op)
      out->producer = &added;
  for (auto &c : topoCons)
    std::replace(c.second.begin(), c.second.end(), &op, &added);
  auto own = topoCons.find(&op);
  if (own != topoCons.end()) {
    topoCons[&added] = std::move(own->second);
    topoCons.erase(&op);
  }
  ops.erase(op.id);
  return added;
}

void Graph::eraseTensor(const TensorId &id) {
  Tensor &t = getTensor(id);
  if (!t.consumers.empty() || t.producer)
    throw internal_error("Tensor '{}' is still in use", id);
  tensors.erase(id);
}

void Graph::renameTensor(const TensorId &from, const TensorId &to) {
  if (from == to)
    return;
  if (hasTensor(to))
    throw internal_error("Cannot rename '{}' to '{}': the name is taken", from,
                         to);
  auto it = tensors.find(from);
  if (it == tensors.end())
    throw internal_error("No tensor '{}' to rename", from);
  auto t = std::move(it->second);
  tensors.erase(it);
  t->id = to;
  tensors.emplace(to, std::move(t));
  for (auto &id : inputs)
    if (id == from)
      id = to;
  for (auto &id : outputs)
    if (id == from)
      id = to;
}

void Graph::replaceUses(Tensor &from, Tensor &to) {
  for (Op *consumer : from.consumers) {
    for (auto &in : consumer->inputs)
      if (in == &from)
        in = &to;
    to.consumers.push_back(consumer);
  }
  from.consumers.clear();
}

} // namespace popart
