#include "Constraints.hpp"

#include <algorithm>

namespace popsolver {

bool Domains::narrow(Variable v, Value lo, Value hi) {
  Range &r = ranges[v.id];
  const Value newLo = std::max(r.lo, lo);
  const Value newHi = std::min(r.hi, hi);
  if (newLo > newHi)
    return false;
  if (newLo != r.lo || newHi != r.hi) {
    r = {newLo, newHi};
    changed.push_back(v.id);
  }
  return true;
}

namespace {

Value ceilDiv(Value a, Value b) { return a / b + (a % b != 0); }

class Arithmetic : public Constraint {
public:
  Arithmetic(ArithmeticKind kind, Variable result, std::vector<Variable> ops)
      : kind(kind), result(result), ops(std::move(ops)) {
    vars = this->ops;
    vars.push_back(result);
  }

  bool propagate(Domains &d) const override {
    switch (kind) {
    case ArithmeticKind::Product:
      return product(d);
    case ArithmeticKind::Sum:
      return sum(d);
    case ArithmeticKind::Max:
      return maximum(d);
    case ArithmeticKind::Min:
      return minimum(d);
    }
    return true;
  }

private:
  bool product(Domains &d) const {
    Value lo = 1, hi = 1;
    for (Variable v : ops) {
      lo = satMul(lo, d[v].lo);
      hi = satMul(hi, d[v].hi);
    }
    if (!d.narrow(result, lo, hi))
      return false;
    // Each operand is bounded by the result over the others' extremes.
    // (By position: a variable may appear more than once.)
    for (std::size_t i = 0; i != ops.size(); ++i) {
      const Variable v = ops[i];
      Value othersLo = 1, othersHi = 1;
      for (std::size_t j = 0; j != ops.size(); ++j)
        if (j != i) {
          othersLo = satMul(othersLo, d[ops[j]].lo);
          othersHi = satMul(othersHi, d[ops[j]].hi);
        }
      if (othersLo != 0 && !d.atMost(v, d[result].hi / othersLo))
        return false;
      if (othersHi != 0 && othersHi != ~Value(0) &&
          !d.atLeast(v, ceilDiv(d[result].lo, othersHi)))
        return false;
    }
    return true;
  }

  bool sum(Domains &d) const {
    Value lo = 0, hi = 0;
    for (Variable v : ops) {
      lo = satAdd(lo, d[v].lo);
      hi = satAdd(hi, d[v].hi);
    }
    if (!d.narrow(result, lo, hi))
      return false;
    for (std::size_t i = 0; i != ops.size(); ++i) {
      const Variable v = ops[i];
      Value othersLo = 0, othersHi = 0;
      for (std::size_t j = 0; j != ops.size(); ++j)
        if (j != i) {
          othersLo = satAdd(othersLo, d[ops[j]].lo);
          othersHi = satAdd(othersHi, d[ops[j]].hi);
        }
      if (othersLo > d[result].hi)
        return false;
      if (!d.atMost(v, d[result].hi - othersLo))
        return false;
      if (othersHi != ~Value(0) && d[result].lo > othersHi &&
          !d.atLeast(v, d[result].lo - othersHi))
        return false;
    }
    return true;
  }

  bool maximum(Domains &d) const {
    Value lo = 0, hi = 0;
    for (Variable v : ops) {
      lo = std::max(lo, d[v].lo);
      hi = std::max(hi, d[v].hi);
    }
    if (!d.narrow(result, lo, hi))
      return false;
    for (Variable v : ops)
      if (!d.atMost(v, d[result].hi))
        return false;
    return true;
  }

  bool minimum(Domains &d) const {
    Value lo = ~Value(0), hi = ~Value(0);
    for (Variable v : ops) {
      lo = std::min(lo, d[v].lo);
      hi = std::min(hi, d[v].hi);
    }
    if (!d.narrow(result, lo, hi))
      return false;
    for (Variable v : ops)
      if (!d.atLeast(v, d[result].lo))
        return false;
    return true;
  }

  ArithmeticKind kind;
  Variable result;
  std::vector<Variable> ops;
};

class Binary : public Constraint {
public:
  Binary(BinaryKind kind, Variable result, Variable a, Variable b)
      : kind(kind), result(result), a(a), b(b) {
    vars = {a, b, result};
  }

  bool propagate(Domains &d) const override {
    const Range A = d[a], B = d[b];
    switch (kind) {
    case BinaryKind::Sub:
      // result = a - b with a >= b.
      if (!d.atLeast(a, B.lo) || !d.atMost(b, d[a].hi))
        return false;
      if (!d.narrow(result, d[a].lo > d[b].hi ? d[a].lo - d[b].hi : 0,
                    d[a].hi - d[b].lo))
        return false;
      return d.narrow(a, satAdd(d[result].lo, d[b].lo),
                      satAdd(d[result].hi, d[b].hi)) &&
             d.narrow(b, d[a].lo > d[result].hi ? d[a].lo - d[result].hi : 0,
                      d[a].hi - std::min(d[a].hi, d[result].lo));
    case BinaryKind::FloorDiv:
      if (!d.atLeast(b, 1))
        return false;
      if (!d.narrow(result, A.lo / d[b].hi, A.hi / d[b].lo))
        return false;
      return d.narrow(a, satMul(d[result].lo, d[b].lo),
                      satMul(satAdd(d[result].hi, 1), d[b].hi) == ~Value(0)
                          ? ~Value(0)
                          : satMul(d[result].hi + 1, d[b].hi) - 1);
    case BinaryKind::CeilDiv:
      if (!d.atLeast(b, 1))
        return false;
      if (!d.narrow(result, ceilDiv(A.lo, d[b].hi), ceilDiv(A.hi, d[b].lo)))
        return false;
      return d.narrow(a,
                      d[result].lo == 0
                          ? 0
                          : satAdd(satMul(d[result].lo - 1, d[b].lo), 1),
                      satMul(d[result].hi, d[b].hi));
    case BinaryKind::Mod:
      if (!d.atLeast(b, 1))
        return false;
      if (d[a].fixed() && d[b].fixed())
        return d.fix(result, d[a].lo % d[b].lo);
      return d.atMost(result, std::min(d[a].hi, d[b].hi - 1));
    }
    return true;
  }

private:
  BinaryKind kind;
  Variable result, a, b;
};

class Relation : public Constraint {
public:
  Relation(RelationKind kind, Variable a, Variable b) : kind(kind), a(a), b(b) {
    vars = {a, b};
  }

  bool propagate(Domains &d) const override {
    switch (kind) {
    case RelationKind::Less:
      if (d[b].hi == 0)
        return false;
      return d.atMost(a, d[b].hi - 1) && d.atLeast(b, satAdd(d[a].lo, 1));
    case RelationKind::LessOrEqual:
      return d.atMost(a, d[b].hi) && d.atLeast(b, d[a].lo);
    case RelationKind::Equal:
      return d.narrow(a, d[b].lo, d[b].hi) && d.narrow(b, d[a].lo, d[a].hi);
    case RelationKind::FactorOf:
      // a divides b: a is at least 1, and no more than b unless b is 0.
      if (!d.atLeast(a, 1))
        return false;
      if (d[b].lo > 0 && !d.atMost(a, d[b].hi))
        return false;
      if (d[a].fixed() && d[b].fixed())
        return d[b].lo % d[a].lo == 0;
      return true;
    }
    return true;
  }

private:
  RelationKind kind;
  Variable a, b;
};

class Reified : public Constraint {
public:
  Reified(ReifiedKind kind, Variable result, Variable a, Variable b)
      : kind(kind), result(result), a(a), b(b) {
    vars = {a, b, result};
  }

  bool propagate(Domains &d) const override {
    if (!d.atMost(result, 1))
      return false;
    const Range A = d[a], B = d[b];
    // Whether the relation surely holds (1), surely fails (0), or neither.
    int known = -1;
    switch (kind) {
    case ReifiedKind::Less:
      known = A.hi < B.lo ? 1 : A.lo >= B.hi ? 0 : -1;
      break;
    case ReifiedKind::LessOrEqual:
      known = A.hi <= B.lo ? 1 : A.lo > B.hi ? 0 : -1;
      break;
    case ReifiedKind::Equal:
      known = A.fixed() && B.fixed() && A.lo == B.lo ? 1
              : A.hi < B.lo || B.hi < A.lo           ? 0
                                                     : -1;
      break;
    case ReifiedKind::Or:
      known = A.lo > 0 || B.lo > 0 ? 1 : A.hi == 0 && B.hi == 0 ? 0 : -1;
      break;
    case ReifiedKind::And:
      known = A.lo > 0 && B.lo > 0 ? 1 : A.hi == 0 || B.hi == 0 ? 0 : -1;
      break;
    case ReifiedKind::Not:
      known = A.hi == 0 ? 1 : A.lo > 0 ? 0 : -1;
      break;
    }
    if (known >= 0)
      return d.fix(result, Value(known));
    return true;
  }

private:
  ReifiedKind kind;
  Variable result, a, b;
};

class Call : public Constraint {
public:
  using Function =
      std::function<std::optional<DataType>(const std::vector<DataType> &)>;
  Call(Variable result, std::vector<Variable> ops, Function f)
      : result(result), ops(std::move(ops)), f(std::move(f)) {
    vars = this->ops;
    vars.push_back(result);
  }

  bool propagate(Domains &d) const override {
    std::vector<DataType> values;
    values.reserve(ops.size());
    for (Variable v : ops) {
      if (!d[v].fixed())
        return true;
      values.emplace_back(d[v].lo);
    }
    const auto value = f(values);
    return value && d.fix(result, **value);
  }

private:
  Variable result;
  std::vector<Variable> ops;
  Function f;
};

} // namespace

std::unique_ptr<Constraint> makeArithmetic(ArithmeticKind kind, Variable result,
                                           std::vector<Variable> operands) {
  return std::make_unique<Arithmetic>(kind, result, std::move(operands));
}

std::unique_ptr<Constraint> makeBinary(BinaryKind kind, Variable result,
                                       Variable left, Variable right) {
  return std::make_unique<Binary>(kind, result, left, right);
}

std::unique_ptr<Constraint> makeRelation(RelationKind kind, Variable left,
                                         Variable right) {
  return std::make_unique<Relation>(kind, left, right);
}

std::unique_ptr<Constraint> makeReified(ReifiedKind kind, Variable result,
                                        Variable left, Variable right) {
  return std::make_unique<Reified>(kind, result, left, right);
}

std::unique_ptr<Constraint> makeCall(
    Variable result, std::vector<Variable> operands,
    std::function<std::optional<DataType>(const std::vector<DataType> &)> f) {
  return std::make_unique<Call>(result, std::move(operands), std::move(f));
}

} // namespace popsolver
