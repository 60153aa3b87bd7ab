// The host kernel of MatMulPartial: C[rows, cols] (=|+=) A[rows, depth] .
// B[depth, cols], each operand given as row pointers, accumulated in float.
//
// Blocked for the host's caches and registers: for each chunk of
// `kDepthChunk` of depth and each panel of `kPanelCols` columns, the panel
// of B is copied (as float, zero-padded) into a contiguous buffer that
// stays in the L1 cache (rows of A are read in place, or converted to
// float rows when they are not float); a register-blocked micro-kernel then
// keeps the group's kGroupRows x kPanelCols sums in vector registers over
// the whole chunk. The copies are what make B's rows, which are a whole
// row of the operand apart in memory (often a multiple of 4 KiB, so they
// would compete for the same cache sets), cheap to stream.
//
// The vector width follows the instruction set the codelets are compiled
// for (GCC/Clang vector extensions): 16 floats with AVX-512, 8 with AVX,
// 4 otherwise. The result does not depend on it beyond the rounding of
// fused multiply-adds when the compiler contracts them.
#ifndef POPLIN_CODELETS_MATMULKERNEL_HPP
#define POPLIN_CODELETS_MATMULKERNEL_HPP

#include <poplar/detail/HalfBits.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace poplin {
namespace kernel {

#if defined(__AVX512F__)
constexpr unsigned kVectorFloats = 16;
constexpr unsigned kGroupRows = 8;
#elif defined(__AVX__)
constexpr unsigned kVectorFloats = 8;
constexpr unsigned kGroupRows = 6;
#else
constexpr unsigned kVectorFloats = 4;
constexpr unsigned kGroupRows = 4;
#endif
// Two vectors of columns per panel: with kGroupRows rows that is 2 x
// kGroupRows accumulators, which fit in the register file with the two
// loads of B and the broadcast of A.
constexpr unsigned kPanelVectors = 2;
constexpr unsigned kPanelCols = kVectorFloats * kPanelVectors;
// With AVX-512's 32 registers a panel may be three vectors wide (3 x 8
// accumulators): a last panel of at most one vector then joins the one
// before it instead of being computed one vector wide, which takes a load
// of B and eight broadcasts of A for every eight multiply-adds.
#if defined(__AVX512F__)
constexpr unsigned kWidePanelVectors = 3;
#else
constexpr unsigned kWidePanelVectors = kPanelVectors;
#endif
constexpr unsigned kWidePanelCols = kVectorFloats * kWidePanelVectors;

/// The end of the panel of columns that starts at `col`, in a row that
/// ends at `colEnd`: kPanelCols on, but a last panel of at most one vector
/// joins the one before where wide panels fit. Each column's sums are
/// the same whichever panel computes them.
inline unsigned panelEnd(unsigned col, unsigned colEnd) {
  constexpr unsigned widest = kWidePanelVectors > kPanelVectors
                                  ? kPanelCols + kVectorFloats
                                  : kPanelCols;
  return colEnd - col <= widest ? colEnd : col + kPanelCols;
}

/// How many panels a row of `cols` columns has.
inline unsigned numPanels(unsigned cols) {
  unsigned n = 0;
  for (unsigned col = 0; col < cols; col = panelEnd(col, cols))
    ++n;
  return n;
}

constexpr unsigned kDepthChunk = 256;

/// Blocks of at least this many multiply-accumulates are shared out over
/// the host's threads (a few milliseconds of work: the IPU Model's blocks,
/// one per tile, stay below it and run on the thread of their vertex).
constexpr double kHostThreadsMacs = 1 << 22;

/// Row blocks per panel of columns for a large block shared out over the
/// host threads: enough parts for a few threads even when there are few
/// panels, each part still of whole groups of rows, so that the copy of a
/// panel of B (made once per part) stays small next to its arithmetic.
inline unsigned rowPartsForThreads(unsigned rows, unsigned panels) {
  constexpr unsigned kMinParts = 16;
  constexpr unsigned kMinRowsPerPart = 16 * kGroupRows;
  unsigned parts = panels >= kMinParts ? 1 : (kMinParts + panels - 1) / panels;
  const unsigned most = rows / kMinRowsPerPart;
  if (parts > most)
    parts = most;
  return parts ? parts : 1;
}

typedef float FloatVector
    __attribute__((vector_size(kVectorFloats * sizeof(float))));

inline FloatVector loadVector(const float *p) {
  FloatVector v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void storeVector(float *p, const FloatVector &v) {
  std::memcpy(p, &v, sizeof v);
}

/// The first n (< kVectorFloats) elements at p, the other lanes zero; and
/// the store of the first n lanes. With AVX-512 these are masked loads and
/// stores (masked-off lanes are not touched, so reading past the end of a
/// row is safe); otherwise element by element.
inline FloatVector loadPartialVector(const float *p, unsigned n) {
#if defined(__AVX512F__)
  const __m512 v = _mm512_maskz_loadu_ps(__mmask16((1u << n) - 1), p);
  FloatVector r;
  std::memcpy(&r, &v, sizeof r);
  return r;
#else
  FloatVector r = {};
  for (unsigned j = 0; j != n; ++j)
    r[j] = p[j];
  return r;
#endif
}

inline void storePartialVector(float *p, const FloatVector &v, unsigned n) {
#if defined(__AVX512F__)
  __m512 x;
  std::memcpy(&x, &v, sizeof x);
  _mm512_mask_storeu_ps(p, __mmask16((1u << n) - 1), x);
#else
  for (unsigned j = 0; j != n; ++j)
    p[j] = v[j];
#endif
}

/// dst[0..n) = half bits src[0..n) as float, bit for bit (NaN payloads
/// and signalling NaNs included) as half's own conversion
/// (poplar::detail::halfBitsToFloat), but without its branches, so that
/// the compiler vectorises the loop: the exponent is rebiased, infinities
/// and NaNs get the rest of the float exponent, and subnormals are
/// normalised by one exact float subtraction.
template <class InType>
inline void halfToFloatByRule(const InType *__restrict src,
                              float *__restrict dst, unsigned n) {
  constexpr std::uint32_t shiftedExponent = 0x7c00u << 13;
  const float subnormalBias = 6.103515625e-05f; // 2^-14, bits 113 << 23
  for (unsigned i = 0; i != n; ++i) {
    std::uint16_t h;
    std::memcpy(&h, src + i, sizeof h);
    std::uint32_t bits = (std::uint32_t(h) & 0x7fffu) << 13;
    const std::uint32_t exponent = bits & shiftedExponent;
    bits += (127u - 15u) << 23;
    bits += exponent == shiftedExponent ? (128u - 16u) << 23 : 0u;
    const std::uint32_t subnormalBits = bits + (1u << 23);
    float subnormal;
    std::memcpy(&subnormal, &subnormalBits, sizeof subnormal);
    subnormal -= subnormalBias;
    std::uint32_t normalised;
    std::memcpy(&normalised, &subnormal, sizeof normalised);
    bits = exponent == 0 ? normalised : bits;
    bits |= (std::uint32_t(h) & 0x8000u) << 16;
    std::memcpy(dst + i, &bits, sizeof bits);
  }
}

/// dst[0..n) = src[0..n) as float. Halves go through the host's F16C
/// conversion, 16 at a time, where the codelets are built for AVX-512: it
/// is exact, as the rule above, for every half but a NaN (it quietens a
/// signalling one), so a group holding a NaN takes the rule. The last
/// group is read through a zero-padded copy and stored under a mask.
template <class InType>
inline void toFloat(const InType *__restrict src, float *__restrict dst,
                    unsigned n) {
  if constexpr (std::is_same<InType, float>::value) {
    std::memcpy(dst, src, n * sizeof(float));
  } else if constexpr (sizeof(InType) == 2 &&
                       std::is_trivially_copyable<InType>::value &&
                       !std::is_integral<InType>::value) {
#if defined(__AVX512F__) && defined(__F16C__)
    for (unsigned i = 0; i < n; i += 16) {
      const unsigned m = n - i < 16 ? n - i : 16;
      __m256i h;
      if (m == 16) {
        h = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i));
      } else {
        alignas(32) std::uint16_t part[16] = {};
        std::memcpy(part, src + i, m * sizeof(std::uint16_t));
        h = _mm256_load_si256(reinterpret_cast<const __m256i *>(part));
      }
      // The masked form: the plain one reads an undefined register (GCC 12
      // warns that it may be uninitialised).
      const __m512 f = _mm512_maskz_cvtph_ps(__mmask16(0xffff), h);
      if (_mm512_cmp_ps_mask(f, f, _CMP_UNORD_Q) != 0)
        halfToFloatByRule(src + i, dst + i, m);
      else
        _mm512_mask_storeu_ps(dst + i, __mmask16((1u << m) - 1), f);
    }
#else
    halfToFloatByRule(src, dst, n);
#endif
  } else {
    for (unsigned i = 0; i != n; ++i)
      dst[i] = static_cast<float>(src[i]);
  }
}

/// dst[0..n) = src[0..n) rounded to half as half's own conversion rounds
/// them (poplar::detail::floatToHalfBits), reading the tile's control once.
/// Where the codelets are built for AVX-512 and the control neither rounds
/// stochastically nor makes NaN of an overflow, 16 at a time by F16C,
/// rounding to nearest, ties to even: the same bits but for NaN, so a group
/// holding a NaN takes half's rule. Overflow raises the host's overflow
/// flag either way; F16C's inexact and underflow flags are not ones the
/// IPU Model traps.
template <class OutType>
inline void toHalf(const float *__restrict src, OutType *__restrict dst,
                   unsigned n) {
  unsigned i = 0;
#if defined(__AVX512F__) && defined(__F16C__)
  constexpr std::uint32_t scalarModes =
      poplar::detail::fpStochasticRounding | poplar::detail::fpNanOnOverflow;
  if ((poplar::detail::floatingPointControl().behaviour & scalarModes) == 0) {
    for (; i + 16 <= n; i += 16) {
      const __m512 v = _mm512_loadu_ps(src + i);
      if (_mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q) != 0) {
        for (unsigned j = i; j != i + 16; ++j)
          dst[j] = static_cast<OutType>(src[j]);
        continue;
      }
      // The masked form, as in toFloat (GCC 12 and the plain one).
      const __m256i h = _mm512_maskz_cvtps_ph(__mmask16(0xffff), v,
                                              _MM_FROUND_TO_NEAREST_INT);
      std::memcpy(static_cast<void *>(dst + i), &h, sizeof h);
    }
  }
#endif
  for (; i != n; ++i)
    dst[i] = static_cast<OutType>(src[i]);
}

/// Sums over `depth` of a[r][kk] * bp[kk * Vectors * kVectorFloats + j]
/// into columns [col, col + width) of rows c[0..Rows): added to them when
/// `accumulate`, else stored.
template <unsigned Rows, unsigned Vectors>
void microKernel(unsigned depth, const float *const *a,
                 const float *__restrict bp, float *const *c, unsigned col,
                 unsigned width, bool accumulate) {
  const float *aRow[Rows];
  for (unsigned r = 0; r != Rows; ++r)
    aRow[r] = a[r];
  FloatVector sums[Rows][Vectors];
  for (unsigned r = 0; r != Rows; ++r)
    for (unsigned v = 0; v != Vectors; ++v)
      sums[r][v] = FloatVector{};
  for (unsigned kk = 0; kk != depth; ++kk) {
    FloatVector b[Vectors];
    for (unsigned v = 0; v != Vectors; ++v)
      b[v] = loadVector(bp + kk * Vectors * kVectorFloats + v * kVectorFloats);
    for (unsigned r = 0; r != Rows; ++r) {
      const float x = aRow[r][kk];
      for (unsigned v = 0; v != Vectors; ++v)
        sums[r][v] += x * b[v];
    }
  }
  for (unsigned r = 0; r != Rows; ++r) {
    float *out = c[r] + col;
    if (width == Vectors * kVectorFloats) {
      for (unsigned v = 0; v != Vectors; ++v) {
        float *o = out + v * kVectorFloats;
        storeVector(o, accumulate ? loadVector(o) + sums[r][v] : sums[r][v]);
      }
      continue;
    }
    // A panel narrower than its vectors: whole vectors, then the rest.
    for (unsigned v = 0; v != Vectors; ++v) {
      const unsigned first = v * kVectorFloats;
      if (first >= width)
        break;
      float *o = out + first;
      const unsigned n = width - first;
      if (n >= kVectorFloats) {
        storeVector(o, accumulate ? loadVector(o) + sums[r][v] : sums[r][v]);
        continue;
      }
      storePartialVector(
          o, accumulate ? loadPartialVector(o, n) + sums[r][v] : sums[r][v],
          n);
    }
  }
}

template <unsigned Vectors>
void dispatchGroup(unsigned rows, unsigned depth, const float *const *a,
                   const float *bp, float *const *c, unsigned col,
                   unsigned width, bool accumulate) {
  static_assert(kGroupRows <= 8, "dispatchGroup covers up to 8 rows");
  switch (rows) {
  case 1: return microKernel<1, Vectors>(depth, a, bp, c, col, width, accumulate);
  case 2: return microKernel<2, Vectors>(depth, a, bp, c, col, width, accumulate);
  case 3: return microKernel<3, Vectors>(depth, a, bp, c, col, width, accumulate);
  case 4: return microKernel<4, Vectors>(depth, a, bp, c, col, width, accumulate);
#if defined(__AVX__)
  case 5: return microKernel<5, Vectors>(depth, a, bp, c, col, width, accumulate);
  case 6: return microKernel<6, Vectors>(depth, a, bp, c, col, width, accumulate);
#endif
#if defined(__AVX512F__)
  case 7: return microKernel<7, Vectors>(depth, a, bp, c, col, width, accumulate);
  case 8: return microKernel<8, Vectors>(depth, a, bp, c, col, width, accumulate);
#endif
  default: return;
  }
}

/// C[rowBegin, rowEnd) x [colBegin, colEnd) = A . B over the whole depth.
/// `a(i)` returns row pointers of AType, `b(kk)` of InType, `c(i)` a float
/// row pointer; both types convert to float.
template <class InType, class AType = InType, class RowA, class RowB,
          class RowC>
void blockProduct(unsigned rowBegin, unsigned rowEnd, unsigned colBegin,
                  unsigned colEnd, unsigned depth, RowA a, RowB b, RowC c) {
  if (rowBegin >= rowEnd || colBegin >= colEnd)
    return;
  if (depth == 0) {
    for (unsigned i = rowBegin; i != rowEnd; ++i)
      std::memset(c(i) + colBegin, 0, (colEnd - colBegin) * sizeof(float));
    return;
  }
  alignas(64) float bPanel[kDepthChunk * kWidePanelCols];
  // Float copies of the rows of A when AType is not float.
  alignas(64) float aCopy[std::is_same<AType, float>::value
                              ? 1
                              : kGroupRows * kDepthChunk];
  const float *aRows[kGroupRows];
  float *cRows[kGroupRows];
  for (unsigned k0 = 0; k0 < depth; k0 += kDepthChunk) {
    const unsigned kc = depth - k0 < kDepthChunk ? depth - k0 : kDepthChunk;
    for (unsigned col = colBegin, next; col < colEnd; col = next) {
      next = panelEnd(col, colEnd);
      const unsigned width = next - col;
      // Whole vectors, the last zero-padded: 1, kPanelVectors, or
      // kWidePanelVectors where a last narrow panel joined this one.
      const unsigned vectors = (width + kVectorFloats - 1) / kVectorFloats;
      const unsigned stride = vectors * kVectorFloats;
      for (unsigned kk = 0; kk != kc; ++kk) {
        const InType *src = b(k0 + kk) + col;
        float *dst = bPanel + kk * stride;
        if (width == kPanelCols) {
          if constexpr (std::is_same<InType, float>::value) {
            for (unsigned v = 0; v != kPanelVectors; ++v)
              storeVector(dst + v * kVectorFloats,
                          loadVector(src + v * kVectorFloats));
          } else {
            toFloat(src, dst, kPanelCols);
          }
          continue;
        }
        if constexpr (std::is_same<InType, float>::value) {
          // Whole vectors, then the rest of the row, zero-padded.
          for (unsigned j = 0; j < stride; j += kVectorFloats) {
            const unsigned n = j < width ? width - j : 0;
            storeVector(dst + j, n >= kVectorFloats
                                     ? loadVector(src + j)
                                     : loadPartialVector(src + j, n));
          }
        } else {
          toFloat(src, dst, width);
          for (unsigned j = width; j != stride; ++j)
            dst[j] = 0.0f;
        }
      }
      for (unsigned i = rowBegin; i < rowEnd; i += kGroupRows) {
        const unsigned rows =
            rowEnd - i < kGroupRows ? rowEnd - i : kGroupRows;
        for (unsigned r = 0; r != rows; ++r) {
          const AType *src = a(i + r) + k0;
          if constexpr (std::is_same<AType, float>::value) {
            aRows[r] = src;
          } else {
            float *dst = aCopy + r * kDepthChunk;
            toFloat(src, dst, kc);
            aRows[r] = dst;
          }
          cRows[r] = c(i + r);
        }
        if (vectors == 1)
          dispatchGroup<1>(rows, kc, aRows, bPanel, cRows, col, width,
                           k0 != 0);
        else if (vectors == kPanelVectors)
          dispatchGroup<kPanelVectors>(rows, kc, aRows, bPanel, cRows, col,
                                       width, k0 != 0);
        else
          dispatchGroup<kWidePanelVectors>(rows, kc, aRows, bPanel, cRows,
                                           col, width, k0 != 0);
      }
    }
  }
}

} // namespace kernel
} // namespace poplin

#endif // POPLIN_CODELETS_MATMULKERNEL_HPP
