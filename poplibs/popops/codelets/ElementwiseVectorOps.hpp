// Four floats at a time, for the codelets popops::map generates for float
// expressions of the operations below. Each function gives in every lane the
// bits its ops:: counterpart gives for that element and raises the same
// exception flags: arithmetic is the same IEEE operation lane by lane, and
// max and min compare quietly, as ops::max and ops::min do, so the signs of
// activations (ReLU6 and other clips) cost no mispredicted branches.
// Sixteen-byte vectors are the baseline x86-64 registers, so values pass by
// value whatever the host's vector extensions.
#ifndef POPOPS_CODELETS_ELEMENTWISEVECTOROPS_HPP
#define POPOPS_CODELETS_ELEMENTWISEVECTOROPS_HPP

#include <cstdint>

namespace popops {
namespace vecops {

typedef float f32x4 __attribute__((vector_size(16)));
typedef std::int32_t i32x4 __attribute__((vector_size(16)));

inline f32x4 load(const float *p) {
  f32x4 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float *p, f32x4 v) { __builtin_memcpy(p, &v, sizeof v); }
inline f32x4 splat(float x) { return f32x4{x, x, x, x}; }

inline f32x4 add(f32x4 a, f32x4 b) { return a + b; }
inline f32x4 sub(f32x4 a, f32x4 b) { return a - b; }
inline f32x4 mul(f32x4 a, f32x4 b) { return a * b; }
inline f32x4 div(f32x4 a, f32x4 b) { return a / b; }

// Lanes of `yes` where mask is all ones, of `no` where it is zero; bit
// patterns are moved, never computed on.
inline f32x4 select(i32x4 mask, f32x4 yes, f32x4 no) {
  i32x4 y, n;
  __builtin_memcpy(&y, &yes, sizeof y);
  __builtin_memcpy(&n, &no, sizeof n);
  const i32x4 r = (y & mask) | (n & ~mask);
  f32x4 out;
  __builtin_memcpy(&out, &r, sizeof out);
  return out;
}

// a < b where neither is NaN, with no comparison that could signal: the
// bits of a float, its magnitude bits flipped when negative, order as
// signed integers as the floats do, except that -0 < +0 as integers; the
// quiet equality clears that case (and, with denormals read as zero, the
// others it makes equal). Lanes holding a NaN give an unspecified mask.
inline i32x4 orderedLess(f32x4 a, f32x4 b) {
  i32x4 ia, ib;
  __builtin_memcpy(&ia, &a, sizeof ia);
  __builtin_memcpy(&ib, &b, sizeof ib);
  const i32x4 ka = ia ^ ((ia >> 31) & 0x7fffffff);
  const i32x4 kb = ib ^ ((ib >> 31) & 0x7fffffff);
  return (ka < kb) & ~(a == b);
}

// ops::max and ops::min: a NaN operand is the result (a if both are),
// otherwise b when a < b (b < a for min), else a. `x != x` is quiet.
inline f32x4 max(f32x4 a, f32x4 b) {
  f32x4 r = select(orderedLess(a, b), b, a);
  r = select(b != b, b, r);
  return select(a != a, a, r);
}
inline f32x4 min(f32x4 a, f32x4 b) {
  f32x4 r = select(orderedLess(b, a), b, a);
  r = select(b != b, b, r);
  return select(a != a, a, r);
}
inline f32x4 clamp(f32x4 x, f32x4 lower, f32x4 upper) {
  return min(max(x, lower), upper);
}

} // namespace vecops
} // namespace popops

#endif // POPOPS_CODELETS_ELEMENTWISEVECTOROPS_HPP
