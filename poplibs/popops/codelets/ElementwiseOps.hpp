// What every element-wise operation computes for one element.
//
// The prebuilt vertices of popops.gp and the codelets popops::map
// generates for fused expressions both use these functions (libpopops
// embeds this file's text in the generated source), so an expression gives
// the same values fused or op by op.
//
// Conventions, for element types float, half, int, unsigned int, short,
// unsigned short and bool:
// - half computes in float and rounds the result to half once (round to
//   nearest, ties to even), as the IPU's half arithmetic does;
// - integer arithmetic wraps (two's complement); dividing by zero gives 0,
//   and so does the remainder by zero; INT_MIN / -1 wraps to INT_MIN;
// - shifts by a negative amount or by at least the width of the type give
//   0 (logical) or the sign (arithmetic, SHIFT_RIGHT_SIGN_EXTEND);
//   SHIFT_RIGHT is a logical shift of the bits, also for signed types;
// - the floating-point remainder is C's fmod (the sign of the dividend);
// - MAXIMUM, MINIMUM (and so CLAMP) propagate NaN;
// - casts from floating point to integers truncate towards zero, saturate
//   at the limits of the type and give 0 for NaN; casts between integer
//   types wrap; a cast to bool is `x != 0`.
#ifndef POPOPS_CODELETS_ELEMENTWISEOPS_HPP
#define POPOPS_CODELETS_ELEMENTWISEOPS_HPP

#include <poplar/Vertex.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace popops {
namespace ops {

template <class T> inline constexpr bool isHalf = std::is_same_v<T, half>;
template <class T>
inline constexpr bool isFloat = std::is_floating_point_v<T> || isHalf<T>;
template <class T>
inline constexpr bool isInteger =
    std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// The type an operation on T computes in: float for half.
template <class T> using Calc = std::conditional_t<isHalf<T>, float, T>;

/// The unsigned type integer arithmetic on T wraps in.
template <class T>
using Wrap = std::conditional_t<(sizeof(T) <= 4), std::uint32_t, std::uint64_t>;

template <class T> inline constexpr unsigned bitsOf = sizeof(T) * 8;

// Arithmetic.

template <class T> inline T add(T a, T b) {
  if constexpr (isFloat<T>)
    return T(Calc<T>(a) + Calc<T>(b));
  else
    return T(Wrap<T>(a) + Wrap<T>(b));
}

template <class T> inline T sub(T a, T b) {
  if constexpr (isFloat<T>)
    return T(Calc<T>(a) - Calc<T>(b));
  else
    return T(Wrap<T>(a) - Wrap<T>(b));
}

template <class T> inline T mul(T a, T b) {
  if constexpr (isFloat<T>)
    return T(Calc<T>(a) * Calc<T>(b));
  else
    return T(Wrap<T>(a) * Wrap<T>(b));
}

template <class T> inline T neg(T a) {
  if constexpr (isFloat<T>)
    return T(-Calc<T>(a));
  else
    return T(Wrap<T>(0) - Wrap<T>(a));
}

template <class T> inline T div(T a, T b) {
  if constexpr (isFloat<T>) {
    return T(Calc<T>(a) / Calc<T>(b));
  } else {
    if (b == T(0))
      return T(0);
    if constexpr (std::is_signed_v<T>)
      if (b == T(-1))
        return neg(a);
    return T(a / b);
  }
}

template <class T> inline T rem(T a, T b) {
  if constexpr (isFloat<T>) {
    return T(std::fmod(Calc<T>(a), Calc<T>(b)));
  } else {
    if (b == T(0))
      return T(0);
    if constexpr (std::is_signed_v<T>)
      if (b == T(-1))
        return T(0);
    return T(a % b);
  }
}

// For float, max and min select rather than branch (the signs of the data
// make branches unpredictable, and selects vectorise); the comparisons are
// quiet, as `x != x` is, so that the same NaNs raise the same flags.
template <class T> inline T max(T a, T b) {
  if constexpr (std::is_same_v<T, float>) {
    T r = __builtin_isless(a, b) ? b : a;
    r = __builtin_isunordered(b, b) ? b : r;
    return __builtin_isunordered(a, a) ? a : r;
  } else if constexpr (isFloat<T>) {
    const Calc<T> x = a, y = b;
    if (x != x)
      return a;
    if (y != y)
      return b;
    return x < y ? b : a;
  } else {
    return a < b ? b : a;
  }
}

template <class T> inline T min(T a, T b) {
  if constexpr (std::is_same_v<T, float>) {
    T r = __builtin_isless(b, a) ? b : a;
    r = __builtin_isunordered(b, b) ? b : r;
    return __builtin_isunordered(a, a) ? a : r;
  } else if constexpr (isFloat<T>) {
    const Calc<T> x = a, y = b;
    if (x != x)
      return a;
    if (y != y)
      return b;
    return y < x ? b : a;
  } else {
    return b < a ? b : a;
  }
}

template <class T> inline T abs(T a) {
  if constexpr (isFloat<T>)
    return T(std::fabs(Calc<T>(a)));
  else if constexpr (std::is_signed_v<T>)
    return a < T(0) ? neg(a) : a;
  else
    return a;
}

template <class T> inline T square(T a) { return mul(a, a); }

template <class T> inline T signum(T a) {
  if constexpr (isFloat<T>) {
    const Calc<T> x = a;
    if (x != x)
      return a;
    return T(Calc<T>(x > 0) - Calc<T>(x < 0));
  } else {
    return T(int(a > T(0)) - int(a < T(0)));
  }
}

template <class T> inline T relu(T a) {
  if constexpr (isFloat<T>)
    return Calc<T>(a) < 0 ? T(0) : a;
  else
    return a < T(0) ? T(0) : a;
}

// Floating-point functions.

template <class T> inline T inv(T a) { return T(1.0f / Calc<T>(a)); }
template <class T> inline T sqrt(T a) { return T(std::sqrt(Calc<T>(a))); }
template <class T> inline T rsqrt(T a) {
  return T(1.0f / std::sqrt(Calc<T>(a)));
}
template <class T> inline T cbrt(T a) { return T(std::cbrt(Calc<T>(a))); }
template <class T> inline T exp(T a) { return T(std::exp(Calc<T>(a))); }
template <class T> inline T exp2(T a) { return T(std::exp2(Calc<T>(a))); }
template <class T> inline T expm1(T a) { return T(std::expm1(Calc<T>(a))); }
template <class T> inline T log(T a) { return T(std::log(Calc<T>(a))); }
template <class T> inline T log1p(T a) { return T(std::log1p(Calc<T>(a))); }
template <class T> inline T sin(T a) { return T(std::sin(Calc<T>(a))); }
template <class T> inline T cos(T a) { return T(std::cos(Calc<T>(a))); }
template <class T> inline T tan(T a) { return T(std::tan(Calc<T>(a))); }
template <class T> inline T tanh(T a) { return T(std::tanh(Calc<T>(a))); }
template <class T> inline T asin(T a) { return T(std::asin(Calc<T>(a))); }
template <class T> inline T erf(T a) { return T(std::erf(Calc<T>(a))); }
template <class T> inline T ceil(T a) { return T(std::ceil(Calc<T>(a))); }
template <class T> inline T floor(T a) { return T(std::floor(Calc<T>(a))); }
template <class T> inline T round(T a) { return T(std::round(Calc<T>(a))); }
template <class T> inline T trunc(T a) { return T(std::trunc(Calc<T>(a))); }
template <class T> inline T nearbyint(T a) {
  return T(std::nearbyint(Calc<T>(a)));
}
template <class T> inline T sigmoid(T a) {
  return T(1.0f / (1.0f + std::exp(-Calc<T>(a))));
}
template <class T> inline T geluErf(T a) {
  const Calc<T> x = a;
  return T(0.5f * x * (1.0f + std::erf(x * 0.70710678118654752f)));
}
template <class T> inline T pow(T a, T b) {
  return T(std::pow(Calc<T>(a), Calc<T>(b)));
}
template <class T> inline T atan2(T a, T b) {
  return T(std::atan2(Calc<T>(a), Calc<T>(b)));
}
/// 1 / a^2 - epsilon.
template <class T> inline T invStdDevToVariance(T a, T epsilon) {
  const Calc<T> x = a;
  return T(1.0f / (x * x) - Calc<T>(epsilon));
}
/// 1 / sqrt(a + epsilon).
template <class T> inline T varianceToInvStdDev(T a, T epsilon) {
  return T(1.0f / std::sqrt(Calc<T>(a) + Calc<T>(epsilon)));
}

template <class T> inline bool isFinite(T a) {
  return std::isfinite(Calc<T>(a));
}
template <class T> inline bool isInf(T a) { return std::isinf(Calc<T>(a)); }
template <class T> inline bool isNaN(T a) { return std::isnan(Calc<T>(a)); }

// Comparisons and logic.

template <class T> inline bool eq(T a, T b) { return Calc<T>(a) == Calc<T>(b); }
template <class T> inline bool neq(T a, T b) {
  return Calc<T>(a) != Calc<T>(b);
}
template <class T> inline bool gt(T a, T b) { return Calc<T>(a) > Calc<T>(b); }
template <class T> inline bool gteq(T a, T b) {
  return Calc<T>(a) >= Calc<T>(b);
}
template <class T> inline bool lt(T a, T b) { return Calc<T>(a) < Calc<T>(b); }
template <class T> inline bool lteq(T a, T b) {
  return Calc<T>(a) <= Calc<T>(b);
}
inline bool logicalAnd(bool a, bool b) { return a && b; }
inline bool logicalOr(bool a, bool b) { return a || b; }
inline bool logicalNot(bool a) { return !a; }

// Bits.

template <class T> inline T bitwiseAnd(T a, T b) { return T(a & b); }
template <class T> inline T bitwiseOr(T a, T b) { return T(a | b); }
template <class T> inline T bitwiseXor(T a, T b) { return T(a ^ b); }
template <class T> inline T bitwiseXnor(T a, T b) { return T(~(a ^ b)); }
template <class T> inline T bitwiseNot(T a) { return T(~a); }

template <class T> inline T shl(T a, T b) {
  if (Wrap<T>(b) >= bitsOf<T>)
    return T(0);
  return T(Wrap<T>(a) << unsigned(b));
}
template <class T> inline T shr(T a, T b) {
  using U = std::make_unsigned_t<T>;
  if (Wrap<T>(b) >= bitsOf<T>)
    return T(0);
  return T(U(a) >> unsigned(b));
}
template <class T> inline T shrSE(T a, T b) {
  using S = std::make_signed_t<T>;
  const S s = S(a);
  if (Wrap<T>(b) >= bitsOf<T>)
    return T(s < 0 ? S(-1) : S(0));
  return T(S(s >> unsigned(b)));
}

/// The leading zero bits of a 32-bit value (32 for zero).
template <class T> inline T countLeadingZeros(T a) {
  const auto x = static_cast<std::uint32_t>(a);
  return T(x == 0 ? 32 : __builtin_clz(x));
}
template <class T> inline T popcount(T a) {
  return T(__builtin_popcount(static_cast<std::uint32_t>(a)));
}

// Ternary.

/// a where cond is true, else b.
template <class T> inline T select(T a, T b, bool cond) { return cond ? a : b; }
/// x limited to [lower, upper]: min(max(x, lower), upper).
template <class T> inline T clamp(T x, T lower, T upper) {
  return min(max(x, lower), upper);
}

// Casts.

template <class To, class From> inline To cast(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (std::is_same_v<To, bool>) {
    return Calc<From>(x) != 0;
  } else if constexpr (std::is_same_v<From, bool>) {
    return To(x ? 1 : 0);
  } else if constexpr (isFloat<To>) {
    return To(Calc<From>(x));
  } else if constexpr (isFloat<From>) {
    const double d = double(Calc<From>(x));
    if (d != d)
      return To(0);
    if (d <= double(std::numeric_limits<To>::min()))
      return std::numeric_limits<To>::min();
    if (d >= double(std::numeric_limits<To>::max()))
      return std::numeric_limits<To>::max();
    return To(d);
  } else {
    return To(x);
  }
}

} // namespace ops
} // namespace popops

#endif // POPOPS_CODELETS_ELEMENTWISEOPS_HPP
