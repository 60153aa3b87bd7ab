// IEEE 754 binary16 conversion shared by the host library and codelets.
// Header-only so that codelets compiled by popc need no Poplar library.
#ifndef POPLAR_DETAIL_HALFBITS_HPP
#define POPLAR_DETAIL_HALFBITS_HPP

#include <cfenv>
#include <cstdint>
#include <cstring>

namespace poplar {
namespace detail {

/// The floating-point control state of the tile a vertex runs on, as the
/// IPU Model sets it for the thread running the vertex (poplar's
/// CSRFunctions.hpp). Each codelet object has its own copy per thread; the
/// runtime reaches it through the codelet interface. Zero (the state of
/// the host library and of threads outside vertices) is round to nearest
/// with IEEE overflow.
struct FloatingPointControl {
  std::uint32_t behaviour;   // the CSR bits (CSRFunctions.hpp's layout)
  std::uint64_t randomState; // stochastic rounding's generator
};

/// Bits of FloatingPointControl::behaviour.
enum : std::uint32_t {
  fpInvalidException = 1u,
  fpDivideByZeroException = 2u,
  fpOverflowException = 4u,
  fpStochasticRounding = 8u,
  fpNanOnOverflow = 16u,
  fpAllBehaviourBits = 31u
};

inline FloatingPointControl &floatingPointControl() {
  static thread_local FloatingPointControl control;
  return control;
}

/// Uniform bits for stochastic rounding (xorshift64*).
inline std::uint32_t stochasticRoundingBits(FloatingPointControl &c) {
  std::uint64_t x = c.randomState ? c.randomState : 0x9e3779b97f4a7c15ull;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  c.randomState = x;
  return static_cast<std::uint32_t>((x * 0x2545f4914f6cdd1dull) >> 32);
}

/// Rounds `kept` (the bits that stay) given the `rest` below them, of
/// which `halfway` is the middle: to nearest, ties to even, or with
/// stochastic rounding up with probability rest / (2 * halfway).
inline std::uint32_t roundHalfBits(std::uint32_t kept, std::uint32_t rest,
                                   std::uint32_t halfway, bool stochastic) {
  if (stochastic) {
    const std::uint64_t scale = 2ull * halfway;
    const std::uint64_t draw =
        (static_cast<std::uint64_t>(
             stochasticRoundingBits(floatingPointControl())) *
         scale) >> 32;
    return rest > draw ? kept + 1u : kept;
  }
  if (rest > halfway || (rest == halfway && (kept & 1u)))
    return kept + 1u;
  return kept;
}

/// Rounds to nearest, ties to even (or stochastically, when the thread's
/// control says so); overflow gives infinity (NaN with NaN-on-overflow) and
/// raises the host's overflow flag, which the IPU Model's floating-point
/// exceptions see; NaN stays NaN.
inline std::uint16_t floatToHalfBits(float value) {
  std::uint32_t f;
  std::memcpy(&f, &value, sizeof f);
  const std::uint32_t sign = (f >> 16) & 0x8000u;
  const std::uint32_t absBits = f & 0x7fffffffu;
  if (absBits >= 0x7f800000u) { // infinity or NaN
    const bool isNan = absBits > 0x7f800000u;
    return static_cast<std::uint16_t>(sign | 0x7c00u | (isNan ? 0x200u : 0u));
  }
  const std::uint32_t behaviour = floatingPointControl().behaviour;
  const bool stochastic = (behaviour & fpStochasticRounding) != 0;
  const int exponent = static_cast<int>(absBits >> 23) - 127;
  std::uint32_t mantissa = absBits & 0x7fffffu;
  std::uint32_t half;
  if (exponent >= -14) { // normal half
    half = (static_cast<std::uint32_t>(exponent + 15) << 10) | (mantissa >> 13);
    // A carry into the exponent is still correct.
    half = exponent > 15 ? 0x7c00u
                         : roundHalfBits(half, mantissa & 0x1fffu, 0x1000u,
                                         stochastic);
  } else if (exponent < -25) { // below half the smallest subnormal
    half = stochastic && exponent >= -40
               ? roundHalfBits(0, (mantissa | 0x800000u) >> (-exponent - 25),
                               0x800000u, true)
               : 0u;
  } else {
    // Subnormal half: shift the implicit-one mantissa into place and round.
    mantissa |= 0x800000u;
    const unsigned shift = static_cast<unsigned>(-exponent - 14 + 13);
    half = roundHalfBits(mantissa >> shift, mantissa & ((1u << shift) - 1u),
                         1u << (shift - 1), stochastic);
  }
  if (half >= 0x7c00u) { // beyond the largest half
    std::feraiseexcept(FE_OVERFLOW);
    half = (behaviour & fpNanOnOverflow) ? 0x7e00u : 0x7c00u;
  }
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
