// IEEE 754 binary16 conversion, used for HALF data on the host side.
#ifndef POPLAR_SRC_CORE_HALF_HPP
#define POPLAR_SRC_CORE_HALF_HPP

#include <poplar/detail/HalfBits.hpp>

#include <cstdint>

namespace poplar {

/// Rounds to nearest, ties to even; overflow gives infinity; NaN stays NaN.
inline std::uint16_t floatToHalf(float value) {
  return detail::floatToHalfBits(value);
}
inline float halfToFloat(std::uint16_t bits) {
  return detail::halfBitsToFloat(bits);
}

} // namespace poplar

#endif // POPLAR_SRC_CORE_HALF_HPP
