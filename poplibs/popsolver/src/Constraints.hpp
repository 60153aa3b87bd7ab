// The constraints of a popsolver model and their bounds propagation.
#ifndef POPSOLVER_SRC_CONSTRAINTS_HPP
#define POPSOLVER_SRC_CONSTRAINTS_HPP

#include <popsolver/Model.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace popsolver {

using Value = std::uint64_t;

struct Range {
  Value lo;
  Value hi;
  bool fixed() const { return lo == hi; }
};

/// The current range of every variable during search. Narrowing records
/// which variables changed, so their constraints can be run again.
class Domains {
public:
  explicit Domains(std::vector<Range> ranges) : ranges(std::move(ranges)) {}
  const Range &operator[](Variable v) const { return ranges[v.id]; }
  std::size_t size() const { return ranges.size(); }

  /// Intersects v's range with [lo, hi]; false if it becomes empty.
  bool narrow(Variable v, Value lo, Value hi);
  bool atLeast(Variable v, Value lo) { return narrow(v, lo, ranges[v.id].hi); }
  bool atMost(Variable v, Value hi) { return narrow(v, ranges[v.id].lo, hi); }
  bool fix(Variable v, Value x) { return narrow(v, x, x); }

  std::vector<Variable::IndexType> changed;
  std::vector<Range> ranges;
};

class Constraint {
public:
  virtual ~Constraint() = default;
  /// Narrows the ranges of the constraint's variables to values that can
  /// still satisfy it; false if none can.
  virtual bool propagate(Domains &d) const = 0;
  std::vector<Variable> vars;
};

// Arithmetic that saturates at the largest value instead of wrapping.
inline Value satAdd(Value a, Value b) {
  Value r;
  return __builtin_add_overflow(a, b, &r) ? ~Value(0) : r;
}
inline Value satMul(Value a, Value b) {
  Value r;
  return __builtin_mul_overflow(a, b, &r) ? ~Value(0) : r;
}

enum class ArithmeticKind { Product, Sum, Max, Min };
enum class BinaryKind { Sub, FloorDiv, CeilDiv, Mod };
enum class RelationKind { Less, LessOrEqual, Equal, FactorOf };
enum class ReifiedKind { Less, LessOrEqual, Equal, Or, And, Not };

/// result = op(operands...)
std::unique_ptr<Constraint> makeArithmetic(ArithmeticKind kind, Variable result,
                                           std::vector<Variable> operands);
/// result = left op right
std::unique_ptr<Constraint> makeBinary(BinaryKind kind, Variable result,
                                       Variable left, Variable right);
/// left relation right
std::unique_ptr<Constraint> makeRelation(RelationKind kind, Variable left,
                                         Variable right);
/// result = (left relation right) as 0 or 1 (Not ignores right)
std::unique_ptr<Constraint> makeReified(ReifiedKind kind, Variable result,
                                        Variable left, Variable right);
/// result = f(operands) once every operand is fixed
std::unique_ptr<Constraint> makeCall(
    Variable result, std::vector<Variable> operands,
    std::function<std::optional<DataType>(const std::vector<DataType> &)> f);

} // namespace popsolver

#endif // POPSOLVER_SRC_CONSTRAINTS_HPP
