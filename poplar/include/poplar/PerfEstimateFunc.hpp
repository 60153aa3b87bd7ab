#ifndef POPLAR_PERFESTIMATEFUNC_HPP
#define POPLAR_PERFESTIMATEFUNC_HPP

#include <poplar/GraphElements.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <poplar/poplar_export.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace poplar {

/// The cycles one run of a vertex takes on the IPU, and the floating-point
/// operations it does.
struct VertexPerfEstimate {
  VertexPerfEstimate() = default;
  VertexPerfEstimate(std::uint64_t cycles, std::uint64_t flops = 0)
      : cycles(cycles), flops(flops) {}
  std::uint64_t cycles = 0;
  std::uint64_t flops = 0;
};

namespace layout {
/// How a vector field is laid out in vertex state, for estimators.
enum class Vector { NotAVector, Span, ShortSpan, OnePtr, ScaledPtr32,
                    ScaledPtr64, ScaledPtr128 };
} // namespace layout

/// What an estimator sees of one field: its size (elements of a region,
/// items of a list), the size of each item of a list, and the values of
/// vertex state.
class POPLAR_API FieldData {
public:
  FieldData() = default;
  FieldData(std::size_t size, std::vector<std::size_t> itemSizes,
            Type stateType, std::vector<unsigned char> stateBytes,
            layout::Vector vectorLayout)
      : count(size), items(std::move(itemSizes)), type(stateType),
        state(std::move(stateBytes)), vectorLayout(vectorLayout) {}

  /// Elements of a scalar or vector field, items of a list field.
  std::size_t size() const { return count; }
  /// Elements of item i of a list field.
  std::size_t getSizeAtIndex(std::size_t i) const;
  /// Item i of a list field as a field of its own.
  FieldData operator[](std::size_t i) const;
  layout::Vector getProfilerVectorLayout(std::size_t nestingLevel) const {
    return nestingLevel == 0 ? vectorLayout : layout::Vector::Span;
  }

  /// The value of a scalar state field, converted to T.
  template <class T> T getInitialValue(const Target &target) const {
    T value{};
    readState(equivalent_device_type<T>().value, &value, 1);
    return value;
  }
  /// The values of a state vector, converted to T.
  template <class T> std::vector<T> getInitialValues(const Target &target) const {
    std::vector<T> values(count);
    readState(equivalent_device_type<T>().value, values.data(), count);
    return values;
  }

private:
  void readState(const Type &hostType, void *out, std::size_t n) const;
  std::size_t count = 0;
  std::vector<std::size_t> items;
  Type type;
  std::vector<unsigned char> state;
  layout::Vector vectorLayout = layout::Vector::NotAVector;
};

/// A vertex as an estimator sees it.
class POPLAR_API VertexIntrospector {
public:
  VertexIntrospector(std::vector<std::string> names,
                     std::vector<FieldData> fields, ComputeSet cs)
      : names(std::move(names)), fields(std::move(fields)), cs(cs) {}
  /// The field of this name; poplar::unknown_field if there is none.
  FieldData getFieldInfo(const std::string &name) const;
  ComputeSet getComputeSet() const { return cs; }

private:
  std::vector<std::string> names;
  std::vector<FieldData> fields;
  ComputeSet cs;
};

/// A cycle estimator of a vertex type: a function of the vertex's field
/// sizes and state, registered with Graph::registerPerfEstimator.
using PerfEstimateFunc =
    std::function<VertexPerfEstimate(const VertexIntrospector &vertex,
                                     const Target &target)>;

} // namespace poplar

#endif // POPLAR_PERFESTIMATEFUNC_HPP
