// Several floats at a time, for the codelets popops::map generates for
// float expressions of the operations below. Each function gives in every
// lane the bits its ops:: counterpart gives for that element and raises the
// same exception flags: arithmetic is the same IEEE operation lane by lane,
// and max and min compare quietly, as ops::max and ops::min do, so the
// signs of activations (ReLU6 and other clips) cost no mispredicted
// branches.
//
// The functions are those of Ops<V> for a vector type V of 4 floats (the
// baseline x86-64 registers), 8 (AVX2) or 16 (AVX-512), each compiled for
// its instruction set (POPOPS_VECOPS_AVX2, POPOPS_VECOPS_AVX512). A
// generated codelet has its loop once for each, compiled alike, and calls
// the widest the host has (hostLanes). Every function of a size carries
// that size's target: the compiler lowers vector operations function by
// function, before inlining, so a helper compiled for the baseline would
// split a 16-float comparison into scalar ones.
#ifndef POPOPS_CODELETS_ELEMENTWISEVECTOROPS_HPP
#define POPOPS_CODELETS_ELEMENTWISEVECTOROPS_HPP

#include <cstdint>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define POPOPS_VECOPS_X86_CLONES 1
#define POPOPS_VECOPS_AVX2 __attribute__((target("avx2")))
#define POPOPS_VECOPS_AVX512                                                   \
  __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw,avx2")))
#else
#define POPOPS_VECOPS_AVX2
#define POPOPS_VECOPS_AVX512
#endif
#define POPOPS_VECOPS_INLINE inline __attribute__((always_inline))

namespace popops {
namespace vecops {

typedef float f32x4 __attribute__((vector_size(16)));
typedef float f32x8 __attribute__((vector_size(32)));
typedef float f32x16 __attribute__((vector_size(64)));

typedef std::int32_t i32x4 __attribute__((vector_size(16)));
typedef std::int32_t i32x8 __attribute__((vector_size(32)));
typedef std::int32_t i32x16 __attribute__((vector_size(64)));

/// The widest vector this host runs: 16, 8 or 4 floats.
inline unsigned hostLanes() {
#ifdef POPOPS_VECOPS_X86_CLONES
  static const unsigned widest = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512bw"))
      return 16u;
    if (__builtin_cpu_supports("avx2"))
      return 8u;
    return 4u;
  }();
  return widest;
#else
  return 4;
#endif
}

template <class V> struct Ops;

// select: lanes of `yes` where mask is all ones, of `no` where it is zero;
// bit patterns are moved, never computed on.
//
// orderedLess: a < b where neither is NaN, with no comparison that could
// signal: the bits of a float, its magnitude bits flipped when negative,
// order as signed integers as the floats do, except that -0 < +0 as
// integers; the quiet equality clears that case (and, with denormals read
// as zero, the others it makes equal). Lanes holding a NaN give an
// unspecified mask.
//
// max and min are ops::max and ops::min: a NaN operand is the result (a if
// both are), otherwise b when a < b (b < a for min), else a. `x != x` is
// quiet.
#define POPOPS_VECOPS_OPS(VEC, INT, TARGET, MAXMIN)                            \
  template <> struct Ops<VEC> {                                                \
    typedef VEC V;                                                             \
    typedef INT I;                                                             \
    static constexpr unsigned lanes = sizeof(V) / sizeof(float);               \
    TARGET static POPOPS_VECOPS_INLINE V load(const float *p) {                \
      V v;                                                                     \
      __builtin_memcpy(&v, p, sizeof v);                                       \
      return v;                                                                \
    }                                                                          \
    TARGET static POPOPS_VECOPS_INLINE void store(float *p, V v) {             \
      __builtin_memcpy(p, &v, sizeof v);                                       \
    }                                                                          \
    TARGET static POPOPS_VECOPS_INLINE V splat(float x) {                      \
      V v = {};                                                                \
      return v + x;                                                            \
    }                                                                          \
    TARGET static POPOPS_VECOPS_INLINE V add(V a, V b) { return a + b; }       \
    TARGET static POPOPS_VECOPS_INLINE V sub(V a, V b) { return a - b; }       \
    TARGET static POPOPS_VECOPS_INLINE V mul(V a, V b) { return a * b; }       \
    TARGET static POPOPS_VECOPS_INLINE V div(V a, V b) { return a / b; }       \
    TARGET static POPOPS_VECOPS_INLINE V select(I mask, V yes, V no) {         \
      I y, n;                                                                  \
      __builtin_memcpy(&y, &yes, sizeof y);                                    \
      __builtin_memcpy(&n, &no, sizeof n);                                     \
      const I r = (y & mask) | (n & ~mask);                                    \
      V out;                                                                   \
      __builtin_memcpy(&out, &r, sizeof out);                                  \
      return out;                                                              \
    }                                                                          \
    TARGET static POPOPS_VECOPS_INLINE I orderedLess(V a, V b) {               \
      I ia, ib;                                                                \
      __builtin_memcpy(&ia, &a, sizeof ia);                                    \
      __builtin_memcpy(&ib, &b, sizeof ib);                                    \
      const I ka = ia ^ ((ia >> 31) & 0x7fffffff);                             \
      const I kb = ib ^ ((ib >> 31) & 0x7fffffff);                             \
      return (ka < kb) & ~(a == b);                                            \
    }                                                                          \
    MAXMIN                                                                     \
    TARGET static POPOPS_VECOPS_INLINE V clamp(V x, V lower, V upper) {        \
      return min(max(x, lower), upper);                                        \
    }                                                                          \
  };

// max and min by orderedLess and quiet self-comparisons: for the vector
// sizes without mask registers, and for 16 floats in clang builds (below).
#define POPOPS_VECOPS_MAXMIN_BY_KEYS(TARGET)                                   \
  TARGET static POPOPS_VECOPS_INLINE V max(V a, V b) {                         \
    V r = select(orderedLess(a, b), b, a);                                     \
    r = select(b != b, b, r);                                                  \
    return select(a != a, a, r);                                               \
  }                                                                            \
  TARGET static POPOPS_VECOPS_INLINE V min(V a, V b) {                         \
    V r = select(orderedLess(b, a), b, a);                                     \
    r = select(b != b, b, r);                                                  \
    return select(a != a, a, r);                                               \
  }

// max and min on AVX-512 by quiet comparisons into mask registers
// (_CMP_LT_OQ and _CMP_UNORD_Q raise invalid only for a signalling NaN, as
// __builtin_isless and __builtin_isunordered do in ops::max and ops::min),
// lane by lane the scalar functions' own tests.
#define POPOPS_VECOPS_MAXMIN_BY_MASKS(TARGET)                                  \
  /* b where bWins, but a NaN operand (a if both are). */                      \
  TARGET static POPOPS_VECOPS_INLINE V pick(V a, V b, __mmask16 bWins) {       \
    const __m512 x = __m512(a), y = __m512(b);                                 \
    __m512 r = _mm512_mask_blend_ps(bWins, x, y);                              \
    r = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(y, y, _CMP_UNORD_Q), r, y);    \
    return V(                                                                  \
        _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), r, x));   \
  }                                                                            \
  TARGET static POPOPS_VECOPS_INLINE V max(V a, V b) {                         \
    return pick(a, b, _mm512_cmp_ps_mask(__m512(a), __m512(b), _CMP_LT_OQ));   \
  }                                                                            \
  TARGET static POPOPS_VECOPS_INLINE V min(V a, V b) {                         \
    return pick(a, b, _mm512_cmp_ps_mask(__m512(b), __m512(a), _CMP_LT_OQ));   \
  }

POPOPS_VECOPS_OPS(f32x4, i32x4, , POPOPS_VECOPS_MAXMIN_BY_KEYS())
POPOPS_VECOPS_OPS(f32x8, i32x8, POPOPS_VECOPS_AVX2,
                  POPOPS_VECOPS_MAXMIN_BY_KEYS(POPOPS_VECOPS_AVX2))
// Clang may select a signalling comparison for an ordered predicate such
// as _CMP_LT_OQ (it does not model the flags without strict floating
// point), so its builds keep the keys.
#if defined(POPOPS_VECOPS_X86_CLONES) && !defined(__clang__)
POPOPS_VECOPS_OPS(f32x16, i32x16, POPOPS_VECOPS_AVX512,
                  POPOPS_VECOPS_MAXMIN_BY_MASKS(POPOPS_VECOPS_AVX512))
#else
POPOPS_VECOPS_OPS(f32x16, i32x16, POPOPS_VECOPS_AVX512,
                  POPOPS_VECOPS_MAXMIN_BY_KEYS(POPOPS_VECOPS_AVX512))
#endif
#undef POPOPS_VECOPS_OPS
#undef POPOPS_VECOPS_MAXMIN_BY_KEYS
#undef POPOPS_VECOPS_MAXMIN_BY_MASKS

} // namespace vecops
} // namespace popops

#endif // POPOPS_CODELETS_ELEMENTWISEVECTOROPS_HPP
