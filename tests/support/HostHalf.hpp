// IEEE half precision on the host for test references, by plain arithmetic
// on the representable values: apart from poplar's own conversions (which
// the tests check) and from the compiler's _Float16, which clang-14 does
// not have on x86-64 (the sanitizer builds use it).
#ifndef SDK_TESTS_HOSTHALF_HPP
#define SDK_TESTS_HOSTHALF_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace sdktest {

/// `x` rounded to the nearest half (ties to even), as a float: infinity
/// from 65520 up, subnormal halves below 2^-14, NaN stays NaN.
inline float nearestHalf(float x) {
  if (std::isnan(x))
    return x;
  const double sign = std::signbit(x) ? -1 : 1;
  const double a = std::fabs(static_cast<double>(x));
  if (a >= 65520.0)
    return static_cast<float>(sign * std::numeric_limits<double>::infinity());
  int e;
  std::frexp(a, &e); // a = m * 2^e with m in [0.5, 1)
  // The spacing of halves around a: 2^-10 of its power of two, and that of
  // the smallest normal half (2^-24) for the subnormals.
  const double ulp = std::ldexp(1.0, std::max(e - 1, -14) - 10);
  // a / ulp is exact (a power-of-two scaling); nearbyint rounds ties to
  // even in the default rounding mode.
  return static_cast<float>(sign * std::nearbyint(a / ulp) * ulp);
}

/// The value of the half whose bits are `bits`.
inline float halfBitsToFloat(std::uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  double magnitude;
  if (exponent == 0x1f)
    magnitude = mantissa != 0 ? std::numeric_limits<double>::quiet_NaN()
                              : std::numeric_limits<double>::infinity();
  else if (exponent == 0)
    magnitude = std::ldexp(static_cast<double>(mantissa), -24);
  else
    magnitude = std::ldexp(static_cast<double>(1024 + mantissa), exponent - 25);
  return static_cast<float>((bits & 0x8000) != 0 ? -magnitude : magnitude);
}

} // namespace sdktest

#endif // SDK_TESTS_HOSTHALF_HPP
