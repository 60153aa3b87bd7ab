#ifndef POPSOLVER_MODEL_HPP
#define POPSOLVER_MODEL_HPP

#include <popsolver/PriorityGroupID.hpp>
#include <popsolver/Variable.hpp>
#include <popsolver/popsolver_export.hpp>

#include <boost/optional.hpp>

#include <functional>
#include <memory>
#if __cplusplus >= 201703L
#include <optional>
#endif
#include <stdexcept>
#include <string>
#include <vector>

namespace popsolver {

/// Thrown by Model::minimize when no assignment meets every constraint.
struct POPSOLVER_API NoSolution : std::runtime_error {
  NoSolution() : std::runtime_error("popsolver: the model has no solution") {}
};

/// The value of every variable of a model in one solution.
class POPSOLVER_API Solution {
public:
  Solution() = default;
  explicit Solution(std::vector<DataType> values) : values(std::move(values)) {}
  DataType &operator[](Variable v) { return values.at(v.id); }
  DataType operator[](Variable v) const { return values.at(v.id); }
  bool validSolution() const { return !values.empty(); }

private:
  std::vector<DataType> values;
};

class Constraint;

/// A constraint model over non-negative integer variables. Variables are
/// created with a range, derived from others (sum, product, ...), or
/// constrained (less, equal, ...); minimize() searches for the solution
/// with the smallest objectives, compared lexicographically. Every
/// function of other variables is propagated on their bounds, and the
/// search splits the ranges of the variables made by addVariable in the
/// order of their priority groups (see prioritiseOver), and within a group
/// in the order they were made. Of solutions with equal objectives, the
/// first found is kept, so the priorities choose between them.
class POPSOLVER_API Model {
public:
  Model();
  ~Model();
  Model(Model &&) noexcept;
  Model &operator=(Model &&) noexcept;

  Variable addVariable(const std::string &debugName = "");
  Variable addVariable(DataType min, DataType max,
                       const std::string &debugName = "");
  Variable addConstant(DataType value, const std::string &debugName = "");
  Variable zero();
  Variable one();

  Variable product(const std::vector<Variable> &vars,
                   const std::string &debugName = "");
  Variable sum(const std::vector<Variable> &vars,
               const std::string &debugName = "");
  Variable max(const std::vector<Variable> &vars,
               const std::string &debugName = "");
  Variable min(const std::vector<Variable> &vars,
               const std::string &debugName = "");
  /// left - right, which must not be negative.
  Variable sub(Variable left, Variable right, const std::string &debugName = "");
  Variable floordiv(Variable left, Variable right,
                    const std::string &debugName = "");
  Variable ceildiv(Variable left, Variable right,
                   const std::string &debugName = "");
  Variable mod(Variable left, Variable right, const std::string &debugName = "");

  void less(Variable left, Variable right);
  void less(Variable left, DataType right);
  void less(DataType left, Variable right);
  void lessOrEqual(Variable left, Variable right);
  void lessOrEqual(Variable left, DataType right);
  void lessOrEqual(DataType left, Variable right);
  void equal(Variable left, Variable right);
  void equal(Variable left, DataType right);
  void equal(DataType left, Variable right);
  /// left divides right exactly.
  void factorOf(Variable left, Variable right);
  void factorOf(DataType left, Variable right);

  /// 1 if the relation holds, else 0.
  Variable reifiedLess(Variable left, Variable right);
  Variable reifiedLessOrEqual(Variable left, Variable right);
  Variable reifiedEqual(Variable left, Variable right);
  Variable booleanOr(Variable left, Variable right);
  Variable booleanAnd(Variable left, Variable right);
  Variable booleanNot(Variable v);

  /// A new priority group. Every variable starts in the model's default
  /// group, which the first call to addPriorityGroup does not return.
  PriorityGroupID addPriorityGroup();
  /// Puts v in group g.
  void setPriorityGroup(Variable v, PriorityGroupID g);
  /// The search splits the variables of group a before those of group b.
  /// Groups not ordered, directly or through others, are taken in the
  /// order they were made (the default group first). minimize() throws
  /// std::invalid_argument if the priorities form a cycle.
  void prioritiseOver(PriorityGroupID a, PriorityGroupID b);

  /// A variable computed by f from the values of vars once they are all
  /// known; f returning no value rules that assignment out.
  template <class T>
  Variable
  call(std::vector<Variable> vars,
       std::function<boost::optional<DataType>(const std::vector<T> &)> f,
       const std::string &debugName = "") {
    return callImpl(std::move(vars),
                    [f](const std::vector<DataType> &values)
                        -> boost::optional<DataType> {
                      std::vector<T> converted;
                      converted.reserve(values.size());
                      for (auto v : values)
                        converted.push_back(v.template getAs<T>());
                      return f(converted);
                    },
                    debugName);
  }
#if __cplusplus >= 201703L
  /// The same with a function returning std::optional.
  template <class T>
  Variable call(std::vector<Variable> vars,
                std::function<std::optional<DataType>(const std::vector<T> &)> f,
                const std::string &debugName = "") {
    std::function<boost::optional<DataType>(const std::vector<T> &)> g =
        [f](const std::vector<T> &values) -> boost::optional<DataType> {
      const std::optional<DataType> r = f(values);
      return r ? boost::optional<DataType>(*r) : boost::none;
    };
    return call<T>(std::move(vars), std::move(g), debugName);
  }
#endif

  /// The solution with the smallest objectives (the first compared first);
  /// NoSolution if there is none.
  Solution minimize(const std::vector<Variable> &objectives);
  Solution minimize(Variable objective) {
    return minimize(std::vector<Variable>{objective});
  }

  const std::string &getDebugName(Variable v) const;
  std::size_t numVariables() const;

  struct Impl;

private:
  Variable callImpl(
      std::vector<Variable> vars,
      std::function<boost::optional<DataType>(const std::vector<DataType> &)> f,
      const std::string &debugName);
  std::unique_ptr<Impl> impl;
};

} // namespace popsolver

#endif // POPSOLVER_MODEL_HPP
