// Unary element-wise operations over a list of regions:
// out[r][i] = op(in[r][i]). A MultiVertex: each worker takes a slice of
// every region (codelet::workerRange). In-place operations connect `in`
// and `out` to the same regions.
#include "ExprOpDispatch.hpp"

#include <poplar/Vertex.hpp>

#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace popops {
namespace {

// ReLU of floats four at a time through a mask rather than a branch per
// element, which the signs of activations make unpredictable: x < 0 selects
// zero, so NaN and -0 keep their bits as ops::relu gives them, and the
// comparison (CMPLTPS, like the scalar COMISS) raises the same exception
// flags. In place (x == y) each element is read before it is written.
// Intrinsics, not a GCC vector wider than the baseline's registers, which
// GCC splits into a compare and branch per element.
inline void reluFloat(const float *x, float *y, unsigned begin, unsigned end) {
  unsigned i = begin;
#if defined(__SSE2__)
  const __m128 zero = _mm_setzero_ps();
  for (; i + 8 <= end; i += 8) {
    const __m128 a = _mm_loadu_ps(x + i), b = _mm_loadu_ps(x + i + 4);
    _mm_storeu_ps(y + i, _mm_andnot_ps(_mm_cmplt_ps(a, zero), a));
    _mm_storeu_ps(y + i + 4, _mm_andnot_ps(_mm_cmplt_ps(b, zero), b));
  }
#endif
  for (; i != end; ++i)
    y[i] = ops::relu(x[i]);
}

} // namespace

template <expr::UnaryOpType op, class T>
class UnaryOp2D : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in;
  poplar::Vector<poplar::Output<poplar::Vector<ops::UnaryResult<op, T>>>> out;

  void compute(unsigned wid) {
    for (unsigned r = 0; r != out.size(); ++r) {
      const auto range = codelet::workerRange(out[r].size(), wid, numWorkers());
      const T *x = in[r].data();
      auto *y = out[r].data();
      if constexpr (op == expr::UnaryOpType::RELU &&
                    std::is_same_v<T, float>) {
        reluFloat(x, y, range.begin, range.end);
        continue;
      }
      for (unsigned i = range.begin; i != range.end; ++i)
        y[i] = ops::unaryOp<op>(x[i]);
    }
  }
};

// The combinations src/ExprOpInfo.cpp lists as supported.
#define UNARY(op, T) template class UnaryOp2D<expr::UnaryOpType::op, T>;
#define UNARY_FLOATING(op) UNARY(op, float) UNARY(op, half)
#define UNARY_SIGNED(op) UNARY_FLOATING(op) UNARY(op, int) UNARY(op, short)

UNARY_SIGNED(ABSOLUTE)
UNARY_FLOATING(ASIN)
UNARY(BITWISE_NOT, int)
UNARY(BITWISE_NOT, unsigned int)
UNARY(BITWISE_NOT, short)
UNARY(BITWISE_NOT, unsigned short)
UNARY_FLOATING(CBRT)
UNARY_FLOATING(CEIL)
UNARY_FLOATING(COS)
UNARY(COUNT_LEADING_ZEROS, int)
UNARY(COUNT_LEADING_ZEROS, unsigned int)
UNARY_FLOATING(ERF)
UNARY_FLOATING(EXPONENT)
UNARY_FLOATING(EXPONENT_MINUS_ONE)
UNARY_FLOATING(EXPONENT2)
UNARY_FLOATING(FLOOR)
UNARY_FLOATING(GELU_ERF)
UNARY_FLOATING(INVERSE)
UNARY_FLOATING(IS_FINITE)
UNARY_FLOATING(IS_INF)
UNARY_FLOATING(IS_NAN)
UNARY_FLOATING(LOGARITHM)
UNARY_FLOATING(LOGARITHM_ONE_PLUS)
UNARY(LOGICAL_NOT, bool)
UNARY_SIGNED(NEGATE)
UNARY_FLOATING(NEARBY_INT)
UNARY(POPCOUNT, int)
UNARY(POPCOUNT, unsigned int)
UNARY_SIGNED(RELU)
UNARY_SIGNED(SIGNUM)
UNARY_FLOATING(SIN)
UNARY_FLOATING(TAN)
UNARY_FLOATING(TANH)
UNARY_FLOATING(ROUND)
UNARY_FLOATING(SQRT)
UNARY_SIGNED(SQUARE)
UNARY(SQUARE, unsigned int)
UNARY(SQUARE, unsigned short)
UNARY_FLOATING(SIGMOID)
UNARY_FLOATING(RSQRT)
UNARY_FLOATING(TRUNC)

} // namespace popops
