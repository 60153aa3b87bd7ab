// The model and its search: depth-first branch and bound over the ranges
// of the decision variables (those made by addVariable), propagating every
// constraint to a fixed point at each node.
#include "Constraints.hpp"

#include <algorithm>
#include <deque>
#include <map>

namespace popsolver {

struct Model::Impl {
  std::vector<Range> initial;
  std::vector<std::string> names;
  std::vector<bool> isDecision;
  std::vector<PriorityGroupID::IndexType> group; // per variable
  PriorityGroupID::IndexType numGroups = 1;       // 0 is the default group
  std::vector<std::pair<PriorityGroupID::IndexType,
                        PriorityGroupID::IndexType>>
      priorities; // (a, b): a before b
  std::vector<std::unique_ptr<Constraint>> constraints;
  std::vector<std::vector<std::size_t>> watchers; // constraints per variable
  std::map<Value, Variable> constants;

  Variable add(Range r, const std::string &name, bool decision) {
    const auto id = static_cast<Variable::IndexType>(initial.size());
    initial.push_back(r);
    names.push_back(name);
    isDecision.push_back(decision);
    group.push_back(0);
    watchers.emplace_back();
    return Variable(id);
  }

  void check(Variable v) const {
    if (v.id >= initial.size())
      throw std::invalid_argument("popsolver: variable " + std::to_string(v.id) +
                                  " does not belong to this model");
  }

  void addConstraint(std::unique_ptr<Constraint> c) {
    for (Variable v : c->vars)
      check(v);
    const std::size_t index = constraints.size();
    for (Variable v : c->vars)
      watchers[v.id].push_back(index);
    constraints.push_back(std::move(c));
  }

  void checkGroup(PriorityGroupID g) const {
    if (g.id >= numGroups)
      throw std::invalid_argument("popsolver: priority group " +
                                  std::to_string(g.id) +
                                  " does not belong to this model");
  }

  /// Each group's place in the search order: a topological order of the
  /// priorities, ties taken in the order the groups were made.
  std::vector<unsigned> groupRanks() const {
    std::vector<std::vector<PriorityGroupID::IndexType>> after(numGroups);
    std::vector<unsigned> before(numGroups, 0);
    for (const auto &p : priorities) {
      after[p.first].push_back(p.second);
      ++before[p.second];
    }
    std::vector<unsigned> rank(numGroups, 0);
    std::vector<bool> done(numGroups, false);
    for (unsigned placed = 0; placed != numGroups; ++placed) {
      unsigned next = numGroups;
      for (unsigned g = 0; g != numGroups && next == numGroups; ++g)
        if (!done[g] && before[g] == 0)
          next = g;
      if (next == numGroups) {
        unsigned inCycle = 0;
        while (done[inCycle])
          ++inCycle;
        throw std::invalid_argument(
            "popsolver: the priorities of the groups form a cycle (through "
            "group " + std::to_string(inCycle) + ")");
      }
      done[next] = true;
      rank[next] = placed;
      for (auto g : after[next])
        --before[g];
    }
    return rank;
  }

  Variable derived(const std::string &name) {
    return add({0, ~Value(0)}, name, false);
  }

  /// Runs constraints until nothing changes; false if one fails.
  bool propagate(Domains &d, bool all) const {
    std::deque<std::size_t> queue;
    std::vector<bool> queued(constraints.size(), false);
    auto enqueue = [&](std::size_t c) {
      if (!queued[c]) {
        queued[c] = true;
        queue.push_back(c);
      }
    };
    if (all) {
      for (std::size_t c = 0; c != constraints.size(); ++c)
        enqueue(c);
    } else {
      for (auto v : d.changed)
        for (auto c : watchers[v])
          enqueue(c);
    }
    d.changed.clear();
    while (!queue.empty()) {
      const std::size_t c = queue.front();
      queue.pop_front();
      queued[c] = false;
      if (!constraints[c]->propagate(d))
        return false;
      for (auto v : d.changed)
        for (auto w : watchers[v])
          enqueue(w);
      d.changed.clear();
    }
    return true;
  }
};

namespace {

class Search {
public:
  Search(const Model::Impl &model, const std::vector<Variable> &objectives)
      : model(model), objectives(objectives) {
    const auto ranks = model.groupRanks();
    for (std::size_t i = 0; i != model.initial.size(); ++i)
      if (model.isDecision[i])
        decisionOrder.push_back(i);
    std::stable_sort(decisionOrder.begin(), decisionOrder.end(),
                     [&](std::size_t a, std::size_t b) {
                       return ranks[model.group[a]] < ranks[model.group[b]];
                     });
  }

  bool run(Domains root) {
    if (!model.propagate(root, true))
      return false;
    explore(root);
    return found;
  }

  std::vector<DataType> best;

private:
  // Whether a node can still beat the best solution, and if so the bound
  // it gives the first objective.
  bool canImprove(const Domains &d) const {
    if (!found)
      return true;
    for (std::size_t k = 0; k != objectives.size(); ++k) {
      const Value lo = d[objectives[k]].lo, b = *bestObjectives[k];
      if (lo < b)
        return true;
      if (lo > b)
        return false;
    }
    return false; // equal at best: not an improvement
  }

  void explore(Domains &d) {
    if (!canImprove(d))
      return;
    const int v = chooseVariable(d);
    if (v < 0) {
      record(d);
      return;
    }
    const Variable var(static_cast<Variable::IndexType>(v));
    const Range r = d[var];
    const Value mid = r.lo + (r.hi - r.lo) / 2;
    for (const auto &half : {Range{r.lo, mid}, Range{mid + 1, r.hi}}) {
      Domains child = d;
      if (found && !child.atMost(objectives[0], *bestObjectives[0]))
        continue;
      if (child.narrow(var, half.lo, half.hi) && model.propagate(child, false))
        explore(child);
    }
  }

  // The first decision variable (in priority order) not yet fixed, else
  // any variable not yet fixed; -1 when all are.
  int chooseVariable(const Domains &d) const {
    for (std::size_t i : decisionOrder)
      if (!d.ranges[i].fixed())
        return static_cast<int>(i);
    for (std::size_t i = 0; i != d.size(); ++i)
      if (!d.ranges[i].fixed())
        return static_cast<int>(i);
    return -1;
  }

  void record(const Domains &d) {
    found = true;
    best.assign(d.size(), DataType());
    for (std::size_t i = 0; i != d.size(); ++i)
      best[i] = d.ranges[i].lo;
    bestObjectives.clear();
    for (Variable o : objectives)
      bestObjectives.push_back(d[o].lo);
  }

  const Model::Impl &model;
  const std::vector<Variable> &objectives;
  std::vector<std::size_t> decisionOrder;
  bool found = false;
  std::vector<DataType> bestObjectives;
};

} // namespace

Model::Model() : impl(std::make_unique<Impl>()) {}
Model::~Model() = default;
Model::Model(Model &&) noexcept = default;
Model &Model::operator=(Model &&) noexcept = default;

Variable Model::addVariable(const std::string &debugName) {
  return impl->add({0, ~Value(0)}, debugName, true);
}

Variable Model::addVariable(DataType min, DataType max,
                            const std::string &debugName) {
  if (min > max)
    throw std::invalid_argument("popsolver: variable '" + debugName +
                                "' has an empty range");
  return impl->add({*min, *max}, debugName, true);
}

Variable Model::addConstant(DataType value, const std::string &debugName) {
  auto it = impl->constants.find(*value);
  if (it != impl->constants.end())
    return it->second;
  Variable v = impl->add({*value, *value},
                         debugName.empty() ? std::to_string(*value) : debugName,
                         false);
  impl->constants.emplace(*value, v);
  return v;
}

Variable Model::zero() { return addConstant(0); }

PriorityGroupID Model::addPriorityGroup() {
  return PriorityGroupID(impl->numGroups++);
}

void Model::setPriorityGroup(Variable v, PriorityGroupID g) {
  impl->check(v);
  impl->checkGroup(g);
  impl->group[v.id] = g.id;
}

void Model::prioritiseOver(PriorityGroupID a, PriorityGroupID b) {
  impl->checkGroup(a);
  impl->checkGroup(b);
  impl->priorities.emplace_back(a.id, b.id);
}
Variable Model::one() { return addConstant(1); }

namespace {
std::string orName(const std::string &name, const char *what) {
  return name.empty() ? what : name;
}
} // namespace

#define POPSOLVER_ARITHMETIC(fn, KIND)                                        \
  Variable Model::fn(const std::vector<Variable> &vars,                       \
                     const std::string &debugName) {                         \
    if (vars.empty())                                                         \
      throw std::invalid_argument("popsolver: " #fn " of no variables");     \
    Variable result = impl->derived(orName(debugName, #fn));                 \
    impl->addConstraint(makeArithmetic(ArithmeticKind::KIND, result, vars));  \
    return result;                                                            \
  }
POPSOLVER_ARITHMETIC(product, Product)
POPSOLVER_ARITHMETIC(sum, Sum)
POPSOLVER_ARITHMETIC(max, Max)
POPSOLVER_ARITHMETIC(min, Min)
#undef POPSOLVER_ARITHMETIC

#define POPSOLVER_BINARY(fn, KIND)                                            \
  Variable Model::fn(Variable left, Variable right,                          \
                     const std::string &debugName) {                         \
    Variable result = impl->derived(orName(debugName, #fn));                 \
    impl->addConstraint(makeBinary(BinaryKind::KIND, result, left, right));   \
    return result;                                                            \
  }
POPSOLVER_BINARY(sub, Sub)
POPSOLVER_BINARY(floordiv, FloorDiv)
POPSOLVER_BINARY(ceildiv, CeilDiv)
POPSOLVER_BINARY(mod, Mod)
#undef POPSOLVER_BINARY

void Model::less(Variable l, Variable r) {
  impl->addConstraint(makeRelation(RelationKind::Less, l, r));
}
void Model::less(Variable l, DataType r) { less(l, addConstant(r)); }
void Model::less(DataType l, Variable r) { less(addConstant(l), r); }
void Model::lessOrEqual(Variable l, Variable r) {
  impl->addConstraint(makeRelation(RelationKind::LessOrEqual, l, r));
}
void Model::lessOrEqual(Variable l, DataType r) { lessOrEqual(l, addConstant(r)); }
void Model::lessOrEqual(DataType l, Variable r) { lessOrEqual(addConstant(l), r); }
void Model::equal(Variable l, Variable r) {
  impl->addConstraint(makeRelation(RelationKind::Equal, l, r));
}
void Model::equal(Variable l, DataType r) { equal(l, addConstant(r)); }
void Model::equal(DataType l, Variable r) { equal(addConstant(l), r); }
void Model::factorOf(Variable l, Variable r) {
  impl->addConstraint(makeRelation(RelationKind::FactorOf, l, r));
}
void Model::factorOf(DataType l, Variable r) { factorOf(addConstant(l), r); }

#define POPSOLVER_REIFIED(fn, KIND)                                           \
  Variable Model::fn(Variable left, Variable right) {                        \
    Variable result = impl->derived(#fn);                                    \
    impl->addConstraint(makeReified(ReifiedKind::KIND, result, left, right)); \
    return result;                                                            \
  }
POPSOLVER_REIFIED(reifiedLess, Less)
POPSOLVER_REIFIED(reifiedLessOrEqual, LessOrEqual)
POPSOLVER_REIFIED(reifiedEqual, Equal)
POPSOLVER_REIFIED(booleanOr, Or)
POPSOLVER_REIFIED(booleanAnd, And)
#undef POPSOLVER_REIFIED

Variable Model::booleanNot(Variable v) {
  Variable result = impl->derived("booleanNot");
  impl->addConstraint(makeReified(ReifiedKind::Not, result, v, v));
  return result;
}

Variable Model::callImpl(
    std::vector<Variable> vars,
    std::function<boost::optional<DataType>(const std::vector<DataType> &)> f,
    const std::string &debugName) {
  Variable result = impl->derived(orName(debugName, "call"));
  auto g = [f = std::move(f)](const std::vector<DataType> &values)
      -> std::optional<DataType> {
    const boost::optional<DataType> r = f(values);
    return r ? std::optional<DataType>(*r) : std::nullopt;
  };
  impl->addConstraint(makeCall(result, std::move(vars), std::move(g)));
  return result;
}

Solution Model::minimize(const std::vector<Variable> &objectives) {
  for (Variable v : objectives)
    impl->check(v);
  Search search(*impl, objectives);
  if (!search.run(Domains(impl->initial)))
    throw NoSolution();
  return Solution(std::move(search.best));
}

const std::string &Model::getDebugName(Variable v) const {
  impl->check(v);
  return impl->names[v.id];
}

std::size_t Model::numVariables() const { return impl->initial.size(); }

} // namespace popsolver
