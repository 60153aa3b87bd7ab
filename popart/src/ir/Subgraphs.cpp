// The subgraphs of an IR: graphs with inputs and outputs, owned by the IR
// and run by the ops that call them (ops/CallOp.hpp).
#include "ir/Ir.hpp"

#include <popart/error.hpp>

namespace popart {

Graph &Ir::createGraph(const std::string &id) {
  if (id.empty())
    throw error("A subgraph needs an id: \"\" is the main graph's");
  if (hasGraph(id))
    throw error("The IR already has a graph '{}'", id);
  return *subgraphs.emplace(id, std::make_unique<Graph>(*this, id)).first->second;
}

bool Ir::hasGraph(const std::string &id) const {
  return id.empty() || subgraphs.count(id) != 0;
}

Graph &Ir::getGraph(const std::string &id) {
  return const_cast<Graph &>(static_cast<const Ir &>(*this).getGraph(id));
}

const Graph &Ir::getGraph(const std::string &id) const {
  if (id.empty())
    return mainGraph;
  auto found = subgraphs.find(id);
  if (found == subgraphs.end())
    throw error("The IR has no graph '{}'", id);
  return *found->second;
}

std::vector<const Graph *> Ir::getSubgraphs() const {
  std::vector<const Graph *> out;
  for (const auto &g : subgraphs)
    out.push_back(g.second.get());
  return out;
}

void Ir::removeGraph(const std::string &id) {
  if (!subgraphs.erase(id))
    throw error("The IR has no graph '{}'", id);
}

} // namespace popart
