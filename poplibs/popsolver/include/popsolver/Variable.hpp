#ifndef POPSOLVER_VARIABLE_HPP
#define POPSOLVER_VARIABLE_HPP

#include <cstdint>
#include <limits>
#include <ostream>
#include <type_traits>

namespace popsolver {

/// A value of a variable: a non-negative integer.
class DataType {
public:
  using UnderlyingType = std::uint64_t;

  constexpr DataType() = default;
  template <class T, class = typename std::enable_if<std::is_integral<T>::value>::type>
  constexpr DataType(T value) : value(static_cast<UnderlyingType>(value)) {}

  static constexpr DataType min() { return DataType(UnderlyingType(0)); }
  static constexpr DataType max() {
    return DataType(std::numeric_limits<UnderlyingType>::max());
  }

  constexpr UnderlyingType operator*() const { return value; }
  template <class T> constexpr T getAs() const { return static_cast<T>(value); }

  friend constexpr bool operator==(DataType a, DataType b) { return a.value == b.value; }
  friend constexpr bool operator!=(DataType a, DataType b) { return a.value != b.value; }
  friend constexpr bool operator<(DataType a, DataType b) { return a.value < b.value; }
  friend constexpr bool operator<=(DataType a, DataType b) { return a.value <= b.value; }
  friend constexpr bool operator>(DataType a, DataType b) { return a.value > b.value; }
  friend constexpr bool operator>=(DataType a, DataType b) { return a.value >= b.value; }
  friend std::ostream &operator<<(std::ostream &os, DataType d) {
    return os << d.value;
  }

private:
  UnderlyingType value = 0;
};

/// A variable of a Model, named by its index.
class Variable {
public:
  using IndexType = std::uint32_t;
  Variable() = default;
  explicit Variable(IndexType id) : id(id) {}
  IndexType id = std::numeric_limits<IndexType>::max();
  friend bool operator==(Variable a, Variable b) { return a.id == b.id; }
  friend bool operator!=(Variable a, Variable b) { return a.id != b.id; }
  friend bool operator<(Variable a, Variable b) { return a.id < b.id; }
};

} // namespace popsolver

#endif // POPSOLVER_VARIABLE_HPP
