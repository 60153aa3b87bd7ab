// The IPU compiler's scalar built-in functions that codelets call, defined
// for the host, where popc compiles codelets for this SDK's devices. Those
// that read or write the IPU's registers (__builtin_ipu_get, put, the
// exchange and address-packing built-ins) have no meaning on the host and
// are not defined: a codelet using them fails to compile, naming them.
#ifndef IPU_BUILTINS_H
#define IPU_BUILTINS_H

#include <poplar/HalfFloat.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>

inline bool __builtin_ipu_isnan(float x) { return std::isnan(x); }
inline bool __builtin_ipu_isinf(float x) { return std::isinf(x); }
inline bool __builtin_ipu_isfinite(float x) { return std::isfinite(x); }
inline float __builtin_ipu_exp2(float x) { return std::exp2(x); }
inline float __builtin_ipu_ln(float x) { return std::log(x); }
inline float __builtin_ipu_rsqrt(float x) { return 1.0f / std::sqrt(x); }
inline float __builtin_ipu_max(float x, float y) { return std::fmax(x, y); }
inline float __builtin_ipu_min(float x, float y) { return std::fmin(x, y); }
inline float __builtin_ipu_absf(float x) { return std::fabs(x); }

/// The IPU's float comparisons give all ones (true) or all zeros (false)
/// in the bits of a float.
inline float __builtin_ipu_cmplt(float x, float y) {
  const std::uint32_t bits = x < y ? 0xffffffffu : 0u;
  float result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

/// x AND NOT y, on the bits of two floats.
inline float __builtin_ipu_andc_f32(float x, float y) {
  std::uint32_t a, b;
  std::memcpy(&a, &x, sizeof a);
  std::memcpy(&b, &y, sizeof b);
  const std::uint32_t bits = a & ~b;
  float result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

#endif // IPU_BUILTINS_H
