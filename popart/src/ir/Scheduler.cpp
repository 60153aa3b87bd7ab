// The schedule: a topological order of the ops (Kahn's algorithm). The
// "greedy" tie breaker runs first the ready op that frees the most input
// tensors (less live memory); "fifo" keeps the order ops were added in.
#include "ir/Graph.hpp"

#include <popart/error.hpp>

#include <set>

namespace popart {

std::vector<Op *> Graph::getOpSchedule(const std::string &tieBreaker) const {
  if (tieBreaker != "greedy" && tieBreaker != "fifo")
    throw error("Unknown kahnTieBreaker '{}': use greedy or fifo", tieBreaker);
  std::map<Op *, int> waiting; // producers not yet scheduled
  std::map<Tensor *, int> usesLeft;
  std::set<std::pair<int, OpId>> ready; // (priority, id)
  auto priority = [&](Op *op) {
    if (tieBreaker == "fifo")
      return 0;
    int frees = 0;
    for (Tensor *in : op->inputs)
      if (in && usesLeft[in] == 1)
        ++frees;
    return -frees;
  };
  for (const auto &p : ops) {
    Op *op = p.second.get();
    int n = 0;
    for (Tensor *in : op->inputs)
      if (in) {
        ++usesLeft[in];
        if (in->producer)
          ++n;
      }
    waiting[op] += n;
  }
  // Topological constraints count as one more thing to wait for.
  for (const auto &c : topoCons)
    for (Op *after : c.second)
      ++waiting[after];
  for (const auto &w : waiting)
    if (w.second == 0)
      ready.insert({priority(w.first), w.first->id});

  std::vector<Op *> schedule;
  while (!ready.empty()) {
    Op *op = ops.at(ready.begin()->second).get();
    ready.erase(ready.begin());
    schedule.push_back(op);
    for (Tensor *in : op->inputs)
      if (in)
        --usesLeft[in];
    for (Tensor *out : op->outputs)
      if (out)
        for (Op *consumer :
             std::set<Op *>(out->consumers.begin(), out->consumers.end())) {
          int &n = waiting[consumer];
          for (Tensor *in : consumer->inputs)
            if (in == out)
              --n;
          if (n == 0)
            ready.insert({priority(consumer), consumer->id});
        }
    auto cons = topoCons.find(op);
    if (cons != topoCons.end())
      for (Op *after : cons->second)
        if (--waiting[after] == 0)
          ready.insert({priority(after), after->id});
  }
  if (schedule.size() != ops.size())
    throw error("The graph has a cycle: {} of its {} ops cannot be scheduled",
                ops.size() - schedule.size(), ops.size());
  return schedule;
}

} // namespace popart
