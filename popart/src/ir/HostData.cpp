#include "ir/HostData.hpp"

#include <popart/error.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <poplar/detail/HalfBits.hpp>

namespace popart {
namespace {
template <typename T>
void readAll(const std::vector<char> &data, std::vector<double> &out) {
  const std::size_t n = data.size() / sizeof(T);
  out.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, data.data() + i * sizeof(T), sizeof(T));
    out[i] = static_cast<double>(v);
  }
}
template <typename T>
void writeAll(const std::vector<double> &values, std::vector<char> &out) {
  out.resize(values.size() * sizeof(T));
  for (std::size_t i = 0; i < values.size(); ++i) {
    T v = static_cast<T>(values[i]);
    std::memcpy(out.data() + i * sizeof(T), &v, sizeof(T));
  }
}
} // namespace

#define POPART_HOSTDATA_TYPES(X)                                               \
  X(FLOAT, float)                                                              \
  X(DOUBLE, double)                                                            \
  X(INT64, int64_t)                                                            \
  X(INT32, int32_t)                                                            \
  X(INT16, int16_t)                                                            \
  X(INT8, int8_t)                                                              \
  X(UINT64, uint64_t)                                                          \
  X(UINT32, uint32_t)                                                          \
  X(UINT16, uint16_t)                                                          \
  X(UINT8, uint8_t)                                                            \
  X(BOOL, uint8_t)                                                             \
  X(FLOAT16, Half)

namespace {
// Half-precision data, converted through float.
struct Half {
  std::uint16_t bits = 0;
  Half() = default;
  Half(double v) : bits(poplar::detail::floatToHalfBits(static_cast<float>(v))) {}
  operator double() const { return poplar::detail::halfBitsToFloat(bits); }
};
} // namespace

// Calls f with a value of the C++ type that holds elements of `type`.
template <typename F> void withHostType(DataType type, F &&f) {
  switch (type) {
#define X(T, C)                                                                \
  case DataType::T:                                                            \
    f(C{});                                                                    \
    return;
    POPART_HOSTDATA_TYPES(X)
#undef X
  default:
    throw error("Constant folding of {} data is not supported",
                getDataTypeInfo(type).name());
  }
}

std::vector<double> toDoubles(const std::vector<char> &data, DataType type) {
  std::vector<double> out;
  withHostType(type, [&](auto c) { readAll<decltype(c)>(data, out); });
  return out;
}

namespace {
// v as a 64-bit integer: integers exactly (unsigned ones past INT64_MAX
// saturate), floating-point values truncated and saturated; NaN has none.
template <typename T> int64_t toInt64(T v) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_unsigned_v<T> && sizeof(T) == sizeof(int64_t))
      return v > uint64_t(std::numeric_limits<int64_t>::max())
                 ? std::numeric_limits<int64_t>::max()
                 : int64_t(v);
    else
      return int64_t(v);
  } else {
    const double d = static_cast<double>(v);
    if (std::isnan(d))
      throw error("NaN where an integer is needed");
    if (d >= 9223372036854775808.0) // 2^63
      return std::numeric_limits<int64_t>::max();
    if (d < -9223372036854775808.0)
      return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(d);
  }
}
} // namespace

std::vector<int64_t> toInt64s(const std::vector<char> &data, DataType type) {
  std::vector<int64_t> out;
  withHostType(type, [&](auto c) {
    using T = decltype(c);
    const std::size_t n = data.size() / sizeof(T);
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      T v;
      std::memcpy(&v, data.data() + i * sizeof(T), sizeof(T));
      out[i] = toInt64(v);
    }
  });
  return out;
}

std::vector<char> fromDoubles(const std::vector<double> &values, DataType type) {
  std::vector<char> out;
  withHostType(type, [&](auto c) { writeAll<decltype(c)>(values, out); });
  return out;
}

std::vector<double> broadcastTo(const std::vector<double> &values,
                                const Shape &from, const Shape &to) {
  int64_t n = 1;
  for (auto d : to)
    n *= d;
  std::vector<double> out(static_cast<std::size_t>(n));
  const std::size_t offset = to.size() - from.size();
  std::vector<int64_t> index(to.size(), 0);
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t src = 0;
    for (std::size_t d = 0; d < from.size(); ++d)
      src = src * from[d] + (from[d] == 1 ? 0 : index[d + offset]);
    out[static_cast<std::size_t>(flat)] = values[static_cast<std::size_t>(src)];
    for (std::size_t d = to.size(); d-- > 0;) {
      if (++index[d] < to[d])
        break;
      index[d] = 0;
    }
  }
  return out;
}

} // namespace popart
