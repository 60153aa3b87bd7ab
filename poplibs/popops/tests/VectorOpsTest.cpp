// The vector operations of generated float codelets
// (codelets/ElementwiseVectorOps.hpp), at each vector size this host runs:
// every lane has the bits of the element-by-element definition, NaNs,
// infinities and signed zeros included, and the comparisons of max and min
// raise no exception flag for quiet NaNs.
#include "../codelets/ElementwiseVectorOps.hpp"

#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

using popops::vecops::Ops;

enum Op { Add, Sub, Mul, Div, Max, Min, Clamp, Splat };

// out[i] = op(a[i], b[i]) (Clamp: clamp(a[i], b[i], 6); Splat: b[0]) for
// whole vectors of V; n is a multiple of the lanes.
#define POPOPS_TEST_APPLY(VEC, TARGET)                                         \
  TARGET void apply_##VEC(Op op, const float *a, const float *b, float *out,   \
                          std::size_t n) {                                     \
    typedef Ops<popops::vecops::VEC> O;                                        \
    for (std::size_t i = 0; i != n; i += O::lanes) {                           \
      const O::V x = O::load(a + i), y = O::load(b + i);                       \
      O::V r = x;                                                              \
      switch (op) {                                                            \
      case Add:                                                                \
        r = O::add(x, y);                                                      \
        break;                                                                 \
      case Sub:                                                                \
        r = O::sub(x, y);                                                      \
        break;                                                                 \
      case Mul:                                                                \
        r = O::mul(x, y);                                                      \
        break;                                                                 \
      case Div:                                                                \
        r = O::div(x, y);                                                      \
        break;                                                                 \
      case Max:                                                                \
        r = O::max(x, y);                                                      \
        break;                                                                 \
      case Min:                                                                \
        r = O::min(x, y);                                                      \
        break;                                                                 \
      case Clamp:                                                              \
        r = O::clamp(x, y, O::splat(6.0f));                                    \
        break;                                                                 \
      case Splat:                                                              \
        r = O::splat(b[0]);                                                    \
        break;                                                                 \
      }                                                                        \
      O::store(out + i, r);                                                    \
    }                                                                          \
  }
POPOPS_TEST_APPLY(f32x4, )
POPOPS_TEST_APPLY(f32x8, POPOPS_VECOPS_AVX2)
POPOPS_TEST_APPLY(f32x16, POPOPS_VECOPS_AVX512)
#undef POPOPS_TEST_APPLY

bool isNaN(float x) { return x != x; }

float reference(Op op, float x, float y) {
  auto max = [](float p, float q) {
    return isNaN(p) ? p : isNaN(q) ? q : p < q ? q : p;
  };
  auto min = [](float p, float q) {
    return isNaN(p) ? p : isNaN(q) ? q : q < p ? q : p;
  };
  switch (op) {
  case Add:
    return x + y;
  case Sub:
    return x - y;
  case Mul:
    return x * y;
  case Div:
    return x / y;
  case Max:
    return max(x, y);
  case Min:
    return min(x, y);
  case Clamp:
    return min(max(x, y), 6.0f);
  case Splat:
    return y;
  }
  return 0;
}

std::uint32_t bitsOf(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

} // namespace

TEST_CASE("Vector operations of generated codelets give each lane's bits "
          "at every vector size",
          "[popops][map]") {
  const float nan = std::nanf("");
  const float specials[] = {nan,       -nan, -0.0f, 0.0f,  INFINITY,
                            -INFINITY, 7.0f, -1.5f, 3.25f, 1e-40f};
  std::vector<float> a, b;
  for (float x : specials)
    for (float y : specials) {
      a.push_back(x);
      b.push_back(y);
    }
  while (a.size() % 16 != 0) {
    a.push_back(2.0f);
    b.push_back(-0.5f);
  }
  const unsigned lanes = popops::vecops::hostLanes();
  CHECK((lanes == 4 || lanes == 8 || lanes == 16));
  for (unsigned size : {4u, 8u, 16u}) {
    if (size > lanes)
      continue; // the host cannot run this size
    for (Op op : {Add, Sub, Mul, Div, Max, Min, Clamp, Splat}) {
      INFO(size << " floats, operation " << int(op));
      std::vector<float> out(a.size());
      // Comparisons are quiet: only Div (0/0, inf/inf) and the arithmetic
      // on NaN-free lanes may raise flags; quiet NaNs raise none.
      std::feclearexcept(FE_ALL_EXCEPT);
      if (size == 4)
        apply_f32x4(op, a.data(), b.data(), out.data(), a.size());
      else if (size == 8)
        apply_f32x8(op, a.data(), b.data(), out.data(), a.size());
      else
        apply_f32x16(op, a.data(), b.data(), out.data(), a.size());
      if (op == Max || op == Min || op == Clamp || op == Splat)
        CHECK(!std::fetestexcept(FE_INVALID));
      unsigned mismatches = 0;
      for (std::size_t i = 0; i != a.size(); ++i) {
        const float want = reference(op, a[i], op == Splat ? b[0] : b[i]);
        // Which NaN arithmetic on two NaNs gives is the instruction's
        // choice (IEEE 754 leaves it open), not the operation's.
        const bool arithmetic =
            op == Add || op == Sub || op == Mul || op == Div;
        if (arithmetic && isNaN(a[i]) && isNaN(b[i]) && isNaN(out[i]))
          continue;
        if (bitsOf(out[i]) != bitsOf(want)) {
          ++mismatches;
          UNSCOPED_INFO("element " << i << ": " << a[i] << ", " << b[i]
                                   << " gives " << out[i] << ", want " << want);
        }
      }
      CHECK(mismatches == 0);
    }
  }
}
