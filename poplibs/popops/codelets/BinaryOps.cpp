// Binary element-wise operations over a list of regions.
//
// BinaryOp2D: out[r][i] = op(in1[r][i], in2[r][i]).
// BroadcastScalar2D: one operand is a single element (a scalar broadcast
// over the other): out[r][i] = op(in[r][i], scalar), or op(scalar,
// in[r][i]) when scalarFirst (only instantiated for operations that are
// neither commutative nor comparisons, which the host swaps instead).
//
// BroadcastScalarPerRegion2D: a scalar for each region: out[r][i] =
// op(in[r][i], scalars[r]) (or op(scalars[r], in[r][i]) when scalarFirst).
// The CPU device's form of an operand that is one element over runs of the
// output, such as a convolution's bias over each channel's plane: the
// operand is read once per run rather than gathered element by element.
//
// BroadcastVectorRepeated2D: the other operand is a vector repeated along
// the output (a bias at every position of channels-innermost
// activations): out[r][i] = op(in[r][i], pattern[(phase[r] + i) %
// pattern.size()]) (or the pattern first when vectorFirst). The CPU
// device's form too: the pattern is read in place of a gathered copy.
//
// All but BroadcastScalarPerRegion2D are MultiVertices; each worker takes a
// slice of every region. BroadcastScalarPerRegion2D, whose regions are many
// and short, gives each worker whole regions. In-place operations connect
// `out` and the first operand to the same regions.
#include "ElementwiseVectorOps.hpp"
#include "ExprOpDispatch.hpp"

#include <poplar/Vertex.hpp>

#ifdef POPOPS_VECOPS_X86_CLONES
#include <immintrin.h>
#endif

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace popops {
namespace {

// y[i] = op(a[i], b(i)) (op(b(i), a[i]) when bFirst) for i < n. Each block
// of 16 is read into locals before any of it is written, so `y` may be `a`
// (in place) and the block still compiles to vector instructions.
template <expr::BinaryOpType op, bool bFirst, class T, class R, class B>
inline void applyInBlocks(R *y, const T *a, B b, unsigned n) {
  constexpr unsigned block = 16;
  auto one = [](T x, T other) {
    if constexpr (bFirst)
      return ops::binaryOp<op>(other, x);
    else
      return ops::binaryOp<op>(x, other);
  };
  unsigned i = 0;
  for (; i + block <= n; i += block) {
    T x[block], w[block];
    R r[block];
    for (unsigned k = 0; k != block; ++k) {
      x[k] = a[i + k];
      w[k] = b(i + k);
    }
    for (unsigned k = 0; k != block; ++k)
      r[k] = one(x[k], w[k]);
    for (unsigned k = 0; k != block; ++k)
      y[i + k] = r[k];
  }
  for (; i != n; ++i)
    y[i] = one(a[i], b(i));
}

// Float arithmetic that is one IEEE operation per element: on 16 lanes it
// gives each element the bits and exception flags it gives alone.
template <expr::BinaryOpType op, class T>
constexpr bool laneArithmetic = std::is_same_v<T, float> &&
                                (op == expr::BinaryOpType::ADD ||
                                 op == expr::BinaryOpType::SUBTRACT ||
                                 op == expr::BinaryOpType::MULTIPLY ||
                                 op == expr::BinaryOpType::DIVIDE);

#ifdef POPOPS_VECOPS_X86_CLONES
// op(a, b) in every lane.
template <expr::BinaryOpType op>
POPOPS_VECOPS_AVX512 POPOPS_VECOPS_INLINE __m512 arithmetic16(__m512 a,
                                                              __m512 b) {
  if constexpr (op == expr::BinaryOpType::ADD)
    return _mm512_add_ps(a, b);
  else if constexpr (op == expr::BinaryOpType::SUBTRACT)
    return _mm512_sub_ps(a, b);
  else if constexpr (op == expr::BinaryOpType::MULTIPLY)
    return _mm512_mul_ps(a, b);
  else
    return _mm512_div_ps(a, b);
}

// y[i] = op(a[i], b[i * bStep]) (the operands swapped when bFirst) for
// i < n, 16 at a time. The last vector's lanes past n hold 1 in both
// operands, whose +, -, * and / are exact: they raise no flag however the
// compiler computes them (clang may compute masked-off lanes). Each vector
// is loaded before it is stored, so `y` may be `a`.
template <expr::BinaryOpType op, bool bFirst>
POPOPS_VECOPS_AVX512 POPOPS_VECOPS_INLINE void
arithmeticRun16(float *y, const float *a, const float *b, unsigned bStep,
                unsigned n) {
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 scalar = _mm512_set1_ps(b[0]);
  for (unsigned i = 0; i < n; i += 16) {
    const __mmask16 m =
        n - i >= 16 ? __mmask16(0xffff) : __mmask16((1u << (n - i)) - 1);
    const __m512 x = _mm512_mask_loadu_ps(one, m, a + i);
    const __m512 w = bStep ? _mm512_mask_loadu_ps(one, m, b + i)
                           : _mm512_mask_blend_ps(m, one, scalar);
    _mm512_mask_storeu_ps(
        y + i, m, bFirst ? arithmetic16<op>(w, x) : arithmetic16<op>(x, w));
  }
}

// arithmeticRun16 as a function of its own, for applyRun (which is not
// compiled for AVX-512); applyRepeatedFloat16 inlines it once per run.
template <expr::BinaryOpType op, bool bFirst>
POPOPS_VECOPS_AVX512 void applyFloat16(float *y, const float *a, const float *b,
                                       unsigned bStep, unsigned n) {
  arithmeticRun16<op, bFirst>(y, a, b, bStep, n);
}

// y[i] = op(a[i], pattern[(k + i) % period]) for i < n, the pattern's
// runs in one call.
template <expr::BinaryOpType op, bool bFirst>
POPOPS_VECOPS_AVX512 void
applyRepeatedFloat16(float *y, const float *a, const float *pattern,
                     unsigned period, unsigned k, unsigned n) {
  for (unsigned i = 0; i != n;) {
    const unsigned m = std::min(period - k, n - i);
    arithmeticRun16<op, bFirst>(y + i, a + i, pattern + k, 1, m);
    i += m;
    k = 0;
  }
}
#endif

// y[i] = op(a[i], b[i * bStep]) (the operands swapped when bFirst) for
// i < n: bStep 1 for a vector operand, 0 for a scalar. Float arithmetic
// runs on AVX-512 where the host has it.
template <expr::BinaryOpType op, bool bFirst, class T, class R>
inline void applyRun(R *y, const T *a, const T *b, unsigned bStep, unsigned n) {
#ifdef POPOPS_VECOPS_X86_CLONES
  if constexpr (laneArithmetic<op, T>) {
    if (vecops::hostLanes() == 16)
      return applyFloat16<op, bFirst>(y, a, b, bStep, n);
  }
#endif
  if (bStep)
    applyInBlocks<op, bFirst>(
        y, a, [b](unsigned i) { return b[i]; }, n);
  else
    applyInBlocks<op, bFirst>(
        y, a, [s = *b](unsigned) { return s; }, n);
}

} // namespace

template <expr::BinaryOpType op, class T>
class BinaryOp2D : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in1;
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in2;
  poplar::Vector<poplar::Output<poplar::Vector<ops::BinaryResult<op, T>>>> out;

  void compute(unsigned wid) {
    for (unsigned r = 0; r != out.size(); ++r) {
      const auto range = codelet::workerRange(out[r].size(), wid, numWorkers());
      applyRun<op, false>(
          out[r].data() + range.begin, in1[r].data() + range.begin,
          in2[r].data() + range.begin, 1, range.end - range.begin);
    }
  }
};

template <expr::BinaryOpType op, class T, bool scalarFirst>
class BroadcastScalar2D : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in;
  poplar::Input<T> scalar;
  poplar::Vector<poplar::Output<poplar::Vector<ops::BinaryResult<op, T>>>> out;

  void compute(unsigned wid) {
    const T s = scalar;
    for (unsigned r = 0; r != out.size(); ++r) {
      const auto range = codelet::workerRange(out[r].size(), wid, numWorkers());
      applyRun<op, scalarFirst>(out[r].data() + range.begin,
                                in[r].data() + range.begin, &s, 0,
                                range.end - range.begin);
    }
  }
};

template <expr::BinaryOpType op, class T, bool scalarFirst>
class BroadcastScalarPerRegion2D : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in;
  poplar::Input<poplar::Vector<T>> scalars;
  poplar::Vector<poplar::Output<poplar::Vector<ops::BinaryResult<op, T>>>> out;

  void compute(unsigned wid) {
    for (unsigned r = wid; r < out.size(); r += numWorkers()) {
      const T s = scalars[r];
      applyRun<op, scalarFirst>(out[r].data(), in[r].data(), &s, 0,
                                out[r].size());
    }
  }
};

template <expr::BinaryOpType op, class T, bool vectorFirst>
class BroadcastVectorRepeated2D : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in;
  poplar::Input<poplar::Vector<T>> pattern;
  poplar::Vector<unsigned> phase;
  poplar::Vector<poplar::Output<poplar::Vector<ops::BinaryResult<op, T>>>> out;

  void compute(unsigned wid) {
    const T *p = pattern.data();
    const unsigned period = pattern.size();
    for (unsigned r = 0; r != out.size(); ++r) {
      const auto range = codelet::workerRange(out[r].size(), wid, numWorkers());
      const T *a = in[r].data();
      auto *y = out[r].data();
      // The pattern's element under this worker's first element.
      unsigned k = static_cast<unsigned>(
          (static_cast<std::uint64_t>(phase[r]) + range.begin) % period);
#ifdef POPOPS_VECOPS_X86_CLONES
      if constexpr (laneArithmetic<op, T>) {
        if (vecops::hostLanes() == 16) {
          applyRepeatedFloat16<op, vectorFirst>(y + range.begin,
                                                a + range.begin, p, period, k,
                                                range.end - range.begin);
          continue;
        }
      }
#endif
      for (unsigned i = range.begin; i != range.end;) {
        const unsigned n = std::min(period - k, range.end - i);
        applyRun<op, vectorFirst>(y + i, a + i, p + k, 1, n);
        i += n;
        k = 0;
      }
    }
  }
};

// The per-region and repeated-vector forms, for the arithmetic that scales
// and shifts channels (channelFormInstantiated in src/ElementwiseVertices.cpp
// lists the same).
#define PER_REGION(op, T, operandFirst)                                        \
  template class BroadcastScalarPerRegion2D<expr::BinaryOpType::op, T,         \
                                            operandFirst>;                     \
  template class BroadcastVectorRepeated2D<expr::BinaryOpType::op, T,          \
                                           operandFirst>;
PER_REGION(ADD, float, false)
PER_REGION(ADD, half, false)
PER_REGION(MULTIPLY, float, false)
PER_REGION(MULTIPLY, half, false)
PER_REGION(SUBTRACT, float, false)
PER_REGION(SUBTRACT, half, false)
PER_REGION(SUBTRACT, float, true)
PER_REGION(SUBTRACT, half, true)
PER_REGION(DIVIDE, float, false)
PER_REGION(DIVIDE, half, false)
PER_REGION(DIVIDE, float, true)
PER_REGION(DIVIDE, half, true)

// The combinations src/ExprOpInfo.cpp lists as supported: every one as
// BinaryOp2D and BroadcastScalar2D<..., false>, the non-commutative ones
// that are not comparisons also as BroadcastScalar2D<..., true>.
#define BINARY(op, T)                                                          \
  template class BinaryOp2D<expr::BinaryOpType::op, T>;                        \
  template class BroadcastScalar2D<expr::BinaryOpType::op, T, false>;
#define BINARY_ORDERED(op, T)                                                  \
  BINARY(op, T)                                                                \
  template class BroadcastScalar2D<expr::BinaryOpType::op, T, true>;
#define BINARY_FLOATING(op) BINARY(op, float) BINARY(op, half)
#define BINARY_FLOATING_ORDERED(op)                                            \
  BINARY_ORDERED(op, float) BINARY_ORDERED(op, half)
#define BINARY_INTEGER(op)                                                     \
  BINARY(op, int)                                                              \
  BINARY(op, unsigned int) BINARY(op, short) BINARY(op, unsigned short)
#define BINARY_INTEGER_ORDERED(op)                                             \
  BINARY_ORDERED(op, int)                                                      \
  BINARY_ORDERED(op, unsigned int)                                             \
  BINARY_ORDERED(op, short) BINARY_ORDERED(op, unsigned short)
#define BINARY_NUMERIC(op) BINARY_FLOATING(op) BINARY_INTEGER(op)
#define BINARY_NUMERIC_ORDERED(op)                                             \
  BINARY_FLOATING_ORDERED(op) BINARY_INTEGER_ORDERED(op)
#define BINARY_COMPARISON(op) BINARY_NUMERIC(op) BINARY(op, bool)
#define BINARY_SHIFT(op)                                                       \
  BINARY_ORDERED(op, int) BINARY_ORDERED(op, unsigned int)

BINARY_NUMERIC(ADD)
BINARY_FLOATING_ORDERED(ATAN2)
BINARY_INTEGER(BITWISE_AND)
BINARY_INTEGER(BITWISE_OR)
BINARY_INTEGER(BITWISE_XOR)
BINARY_INTEGER(BITWISE_XNOR)
BINARY_NUMERIC_ORDERED(DIVIDE)
BINARY_COMPARISON(EQUAL)
BINARY_COMPARISON(GREATER_THAN_EQUAL)
BINARY_COMPARISON(GREATER_THAN)
BINARY_FLOATING_ORDERED(INV_STD_DEV_TO_VARIANCE)
BINARY_COMPARISON(LESS_THAN_EQUAL)
BINARY(LOGICAL_AND, bool)
BINARY(LOGICAL_OR, bool)
BINARY_COMPARISON(LESS_THAN)
BINARY_NUMERIC(MAXIMUM)
BINARY_NUMERIC(MINIMUM)
BINARY_NUMERIC(MULTIPLY)
BINARY_COMPARISON(NOT_EQUAL)
BINARY_FLOATING_ORDERED(POWER)
BINARY_NUMERIC_ORDERED(REMAINDER)
BINARY_SHIFT(SHIFT_LEFT)
BINARY_SHIFT(SHIFT_RIGHT)
BINARY_SHIFT(SHIFT_RIGHT_SIGN_EXTEND)
BINARY_NUMERIC_ORDERED(SUBTRACT)
BINARY_FLOATING_ORDERED(VARIANCE_TO_INV_STD_DEV)

} // namespace popops
