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

void Graph::eraseOp(Op &op) {
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

void Graph::eraseTensor(const TensorId &id) {
  Tensor &t = getTensor(id);
  if (!t.consumers.empty() || t.producer)
    throw internal_error("Tensor '{}' is still in use", id);
  tensors.erase(id);
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
