// Copying runs of elements that start next to each other in storage and
// step through it with one stride: the transposition the CPU device does
// when a vertex reads channel-innermost data channel by channel, or a
// Copy program writes it so. Shared by the vertex operand transfers and the
// program interpreter's copies.
#ifndef POPLAR_RUNTIME_ADJACENTRUNS_HPP
#define POPLAR_RUNTIME_ADJACENTRUNS_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace poplar {
namespace runtime {

/// The runs copied side by side.
constexpr std::size_t adjacentRunBlock = 16;

// One element of `Bytes` bytes; a fixed-size memcpy compiles to a move.
template <std::size_t Bytes> struct Element {
  static void copy(unsigned char *dst, const unsigned char *src) {
    std::memcpy(dst, src, Bytes);
  }
};

#if defined(__SSE2__)
// Four-byte elements of 16 runs that start next to each other in storage:
// steps i to i + 3 (four rows of 16 elements, `stride` bytes apart) are
// transposed four by four in SSE registers and stored as four elements of
// each run's buffer. Returns the steps done (a multiple of 4).
inline std::size_t transposeAdjacent(const unsigned char *src,
                                     std::int64_t stride,
                                     unsigned char *const *dst,
                                     std::size_t length) {
  std::size_t i = 0;
  for (; i + 4 <= length; i += 4) {
    const unsigned char *row = src + std::int64_t(i) * stride;
    for (unsigned q = 0; q != 4; ++q) {
      __m128 r0 = _mm_loadu_ps(reinterpret_cast<const float *>(row + 16 * q));
      __m128 r1 =
          _mm_loadu_ps(reinterpret_cast<const float *>(row + stride + 16 * q));
      __m128 r2 = _mm_loadu_ps(
          reinterpret_cast<const float *>(row + 2 * stride + 16 * q));
      __m128 r3 = _mm_loadu_ps(
          reinterpret_cast<const float *>(row + 3 * stride + 16 * q));
      // Bit patterns are moved, never computed on: any NaN keeps its bits.
      _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
      _mm_storeu_ps(reinterpret_cast<float *>(dst[4 * q] + 4 * i), r0);
      _mm_storeu_ps(reinterpret_cast<float *>(dst[4 * q + 1] + 4 * i), r1);
      _mm_storeu_ps(reinterpret_cast<float *>(dst[4 * q + 2] + 4 * i), r2);
      _mm_storeu_ps(reinterpret_cast<float *>(dst[4 * q + 3] + 4 * i), r3);
    }
  }
  return i;
}
#endif

/// Elements i of adjacentRunBlock runs of `Bytes`-byte elements whose
/// element 0 are next to each other from `src` and whose elements are
/// `stride` bytes apart, written to dst[j] + i * Bytes: each step's 16
/// elements are one load, rather than 16 loads of as many cache lines.
template <std::size_t Bytes>
inline void copyAdjacentRuns(const unsigned char *src, std::int64_t stride,
                             unsigned char *const *dst, std::size_t length) {
  std::size_t i = 0;
#if defined(__SSE2__)
  if constexpr (Bytes == 4)
    i = transposeAdjacent(src, stride, dst, length);
#endif
  unsigned char step[adjacentRunBlock * Bytes];
  for (; i != length; ++i) {
    std::memcpy(step, src + std::int64_t(i) * stride, sizeof step);
    const std::size_t b = i * Bytes;
    for (std::size_t j = 0; j != adjacentRunBlock; ++j)
      Element<Bytes>::copy(dst[j] + b, step + j * Bytes);
  }
}

} // namespace runtime
} // namespace poplar

#endif // POPLAR_RUNTIME_ADJACENTRUNS_HPP
