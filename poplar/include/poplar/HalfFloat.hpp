// The IPU's half-precision type for codelets and host code: `half`, with
// its `_h` literal. On the IPU `half` is a built-in type; on the host, where
// popc compiles codelets for this SDK's devices, it is a class stored as
// its 16 bits that computes through float and rounds when a result is
// stored, so codelets see the values the IPU's half arithmetic gives.
#ifndef POPLAR_HALFFLOAT_HPP
#define POPLAR_HALFFLOAT_HPP

#include <poplar/detail/HalfBits.hpp>

#include <cstdint>
#include <type_traits>

/// The IPU's IEEE half-precision type. On the host it is stored as its 16
/// bits and computes through float, rounding when a result is stored.
class half {
public:
  half() = default;
  template <class T, class = typename std::enable_if<std::is_arithmetic<T>::value>::type>
  half(T value)
      : bits(poplar::detail::floatToHalfBits(static_cast<float>(value))) {}
  operator float() const { return poplar::detail::halfBitsToFloat(bits); }

  half &operator+=(float v) { return *this = float(*this) + v; }
  half &operator-=(float v) { return *this = float(*this) - v; }
  half &operator*=(float v) { return *this = float(*this) * v; }
  half &operator/=(float v) { return *this = float(*this) / v; }

private:
  std::uint16_t bits = 0;
};
static_assert(sizeof(half) == 2, "half must have the size of a device HALF");

inline half operator""_h(long double value) { return half(value); }

#endif // POPLAR_HALFFLOAT_HPP
