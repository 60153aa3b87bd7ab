// Template part of TensorImpl.hpp: walks the expression tree without
// recursion, because views built in loops can nest very deeply.
#ifndef POPLAR_SRC_GRAPH_TENSORIMPLINL_HPP
#define POPLAR_SRC_GRAPH_TENSORIMPLINL_HPP

#include <unordered_set>

namespace poplar::layout {

template <class F> void forEachVariable(const Tensor &t, F &&f) {
  if (!t.valid())
    return;
  std::vector<const Tensor::Impl *> stack{&t.getImpl()};
  std::unordered_set<const Tensor::Impl *> seen;
  while (!stack.empty()) {
    const Tensor::Impl *node = stack.back();
    stack.pop_back();
    if (!seen.insert(node).second)
      continue;
    if (node->kind == Tensor::Impl::Kind::Variable) {
      f(node->graphId, node->varId, node->isConstant);
      continue;
    }
    for (const auto &in : node->inputs)
      stack.push_back(in.get());
  }
}

} // namespace poplar::layout

#endif // POPLAR_SRC_GRAPH_TENSORIMPLINL_HPP
