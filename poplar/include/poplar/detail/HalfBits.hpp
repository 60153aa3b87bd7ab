// IEEE 754 binary16 conversion shared by the host library and codelets.
// Header-only so that codelets compiled by popc need no Poplar library.
#ifndef POPLAR_DETAIL_HALFBITS_HPP
#define POPLAR_DETAIL_HALFBITS_HPP

#include <cstdint>
#include <cstring>

namespace poplar {
namespace detail {

/// Rounds to nearest, ties to even; overflow gives infinity; NaN stays NaN.
inline std::uint16_t floatToHalfBits(float value) {
  std::uint32_t f;
  std::memcpy(&f, &value, sizeof f);
  const std::uint32_t sign = (f >> 16) & 0x8000u;
  const std::uint32_t absBits = f & 0x7fffffffu;
  if (absBits >= 0x7f800000u) { // infinity or NaN
    const bool isNan = absBits > 0x7f800000u;
    return static_cast<std::uint16_t>(sign | 0x7c00u | (isNan ? 0x200u : 0u));
  }
  if (absBits >= 0x477ff000u) // rounds to a value beyond the largest half
    return static_cast<std::uint16_t>(sign | 0x7c00u);
  const int exponent = static_cast<int>(absBits >> 23) - 127;
  std::uint32_t mantissa = absBits & 0x7fffffu;
  if (exponent >= -14) { // normal half
    std::uint32_t half =
        (static_cast<std::uint32_t>(exponent + 15) << 10) | (mantissa >> 13);
    const std::uint32_t rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
      ++half; // may carry into the exponent, which is still correct
    return static_cast<std::uint16_t>(sign | half);
  }
  if (exponent < -25) // below half the smallest subnormal
    return static_cast<std::uint16_t>(sign);
  // Subnormal half: shift the implicit-one mantissa into place and round.
  mantissa |= 0x800000u;
  const unsigned shift = static_cast<unsigned>(-exponent - 14 + 13);
  std::uint32_t half = mantissa >> shift;
  const std::uint32_t rest = mantissa & ((1u << shift) - 1u);
  const std::uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (half & 1u)))
    ++half;
  return static_cast<std::uint16_t>(sign | half);
}

inline float halfBitsToFloat(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu;
  std::uint32_t mantissa = bits & 0x3ffu;
  std::uint32_t f;
  if (exponent == 0x1f) {
    f = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    f = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    f = sign;
  } else { // subnormal: normalise
    int e = -1;
    do {
      ++e;
      mantissa <<= 1;
    } while ((mantissa & 0x400u) == 0);
    f = sign | (static_cast<std::uint32_t>(112 - e) << 23) |
        ((mantissa & 0x3ffu) << 13);
  }
  float value;
  std::memcpy(&value, &f, sizeof value);
  return value;
}

} // namespace detail
} // namespace poplar

#endif // POPLAR_DETAIL_HALFBITS_HPP
