// DepthwiseConvPartial, the CPU device's depthwise convolutions: every
// group of a block at once, the groups innermost, in the geometry of
// ConvPartial (ConvKernelCommon.hpp), its inChans and outChans being the
// number of groups.
#include "ConvEpilogue.hpp"
#include "ConvKernelCommon.hpp"

#include <poplar/Vertex.hpp>
#include <poplar/detail/HostParallel.hpp>

#include <algorithm>
#include <cstddef>
#ifdef __x86_64__
#include <immintrin.h>
#endif
#include <vector>

namespace poplin {
namespace {

using namespace conv_kernel;

// A depthwise block laid out with the groups innermost
// (DepthwiseConvPartial): each output is the sum of its kernel window
// element by element from zero, as forwardRowSingleChannel sums a group's.
// That kernel's products and sums are fused on hosts with FMA (the compiler
// contracts them in the AVX2 and AVX-512 builds), so these are fused
// explicitly there and kept apart in the baseline build.

// The input of output position (b, z, y, x) for kernel element (kz, ky, kx),
// group 0 (zeros for padding).
inline __attribute__((always_inline)) const float *
depthwiseInput(const Geometry &g, const float *in, unsigned b, unsigned z,
               unsigned y, unsigned x, unsigned kz, unsigned ky,
               unsigned kx) {
  return g.inputAt(g.inputRow(in, b, g.inIndex(0, z, kz), g.inIndex(1, y, ky)),
                   g.inIndex(2, x, kx));
}

// The input rows a 3 x 3 kernel reads for output row (b, z, y), one per
// ky (a row of zeros for a padding row).
inline void inputRows3x3(const Geometry &g, const float *in, unsigned b,
                         unsigned z, unsigned y, const float *rows[3]) {
  for (unsigned ky = 0; ky != 3; ++ky) {
    const float *row =
        g.inputRow(in, b, g.inIndex(0, z, 0), g.inIndex(1, y, ky));
    rows[ky] = row ? row : g.zeros;
  }
}

// Output rows [rowBegin, rowEnd) on hosts without FMA: 8 groups side by
// side in GCC vectors, then single groups.
void depthwiseRowsBaseline(const Geometry &g, const float *in,
                           const float *weights, float *out,
                           unsigned rowBegin, unsigned rowEnd) {
  const unsigned groups = g.inChans;
  for (unsigned r = rowBegin; r != rowEnd; ++r) {
    unsigned b, z, y;
    g.outRowCoordinates(r, b, z, y);
    for (unsigned x = 0; x != g.outSize[2]; ++x) {
      float *o = out + (g.outRowOffset(b, z, y) + x) * groups;
      unsigned c0 = 0;
      for (; c0 + 8 <= groups; c0 += 8) {
        f32x8 acc = {};
        const float *w = weights + c0;
        for (unsigned kz = 0; kz != g.kernel[0]; ++kz)
          for (unsigned ky = 0; ky != g.kernel[1]; ++ky)
            for (unsigned kx = 0; kx != g.kernel[2]; ++kx, w += groups) {
              f32x8 a, k;
              load8(a, depthwiseInput(g, in, b, z, y, x, kz, ky, kx) + c0);
              load8(k, w);
              const f32x8 product = a * k;
              acc += product;
            }
        store8(o + c0, acc);
      }
      for (; c0 != groups; ++c0) {
        float acc = 0.0f;
        const float *w = weights + c0;
        for (unsigned kz = 0; kz != g.kernel[0]; ++kz)
          for (unsigned ky = 0; ky != g.kernel[1]; ++ky)
            for (unsigned kx = 0; kx != g.kernel[2]; ++kx, w += groups) {
              const float product =
                  depthwiseInput(g, in, b, z, y, x, kz, ky, kx)[c0] * *w;
              acc += product;
            }
        o[c0] = acc;
      }
    }
  }
}

#ifdef CONV_HAVE_X86_CLONES
// Output rows [rowBegin, rowEnd) with fused multiply-adds: VW groups a
// vector (16 with AVX-512, 8 with AVX2) under a mask for the last, so
// masked-off lanes neither load nor raise exceptions.
template <unsigned VW>
inline __attribute__((always_inline)) void
depthwiseRowsFused(const Geometry &g, const float *in, const float *weights,
                   float *out, unsigned rowBegin, unsigned rowEnd);

// X neighbouring outputs along x for one vector of groups under mask m,
// every input they read stored (not padding): X independent sums, so that
// their multiply-adds overlap rather than each waiting for the one before.
// `rows` holds the input rows of the output row, one per (kz, ky) (a row of
// zeros for a padding row), and `offset` the first output's input for kx 0
// in each; each output sums its kernel window in (kz, ky, kx) order from
// zero.
template <unsigned X>
CONV_TARGET_AVX512 inline __attribute__((always_inline)) void
depthwiseOutputsAvx512(const Geometry &g, const float *const *rows,
                       std::size_t offset, const float *weights, __mmask16 m,
                       float *o) {
  const std::size_t groups = g.inChans;
  const std::size_t xStep = std::size_t(g.stride[2]) * groups;
  const std::size_t kxStep = std::size_t(g.dilation[2]) * groups;
  const unsigned kernelRows = g.kernel[0] * g.kernel[1];
  __m512 acc[X];
  for (unsigned j = 0; j != X; ++j)
    acc[j] = _mm512_setzero_ps();
  const float *w = weights;
  for (unsigned kr = 0; kr != kernelRows; ++kr) {
    const float *a = rows[kr] + offset;
    for (unsigned kx = 0; kx != g.kernel[2]; ++kx, w += groups, a += kxStep) {
      const __m512 k = _mm512_maskz_loadu_ps(m, w);
      for (unsigned j = 0; j != X; ++j)
        acc[j] = _mm512_mask3_fmadd_ps(_mm512_maskz_loadu_ps(m, a + j * xStep),
                                       k, acc[j], m);
    }
  }
  for (unsigned j = 0; j != X; ++j)
    _mm512_mask_storeu_ps(o + j * groups, m, acc[j]);
}

// Output x of the row, some of whose inputs along x are padding: those are
// read from the zeros, in the same order.
CONV_TARGET_AVX512 inline __attribute__((always_inline)) void
depthwiseEdgeOutputAvx512(const Geometry &g, const float *const *rows,
                          unsigned x, unsigned c0, const float *weights,
                          __mmask16 m, float *o) {
  const std::size_t groups = g.inChans;
  const unsigned kernelRows = g.kernel[0] * g.kernel[1];
  __m512 acc = _mm512_setzero_ps();
  const float *w = weights;
  for (unsigned kr = 0; kr != kernelRows; ++kr)
    for (unsigned kx = 0; kx != g.kernel[2]; ++kx, w += groups) {
      const unsigned ix = g.inIndex(2, x, kx);
      const float *a = g.inside(2, ix)
                           ? rows[kr] + std::size_t(g.storedX(ix)) * groups
                           : g.zeros;
      acc = _mm512_mask3_fmadd_ps(_mm512_maskz_loadu_ps(m, a + c0),
                                  _mm512_maskz_loadu_ps(m, w), acc, m);
    }
  _mm512_mask_storeu_ps(o, m, acc);
}

template <>
CONV_TARGET_AVX512 inline __attribute__((always_inline)) void
depthwiseRowsFused<16>(const Geometry &g, const float *in,
                       const float *weights, float *out, unsigned rowBegin,
                       unsigned rowEnd) {
  constexpr unsigned outputsAtOnce = 8;
  const unsigned groups = g.inChans;
  const unsigned kernelRows = g.kernel[0] * g.kernel[1];
  // The input rows of an output row, one per (kz, ky).
  const float *fewRows[64];
  std::vector<const float *> manyRows;
  const float **rows = fewRows;
  if (kernelRows > 64) {
    manyRows.resize(kernelRows);
    rows = manyRows.data();
  }
  // Outputs [xBegin, xEnd) read no padding along x.
  const unsigned lastKx = g.kernel[2] - 1;
  unsigned xBegin = 0, xEnd = g.outSize[2];
  while (xBegin != xEnd && !g.inside(2, g.inIndex(2, xBegin, 0)))
    ++xBegin;
  while (xEnd != xBegin && !g.inside(2, g.inIndex(2, xEnd - 1, lastKx)))
    --xEnd;
  for (unsigned r = rowBegin; r != rowEnd; ++r) {
    unsigned b, z, y;
    g.outRowCoordinates(r, b, z, y);
    for (unsigned kz = 0; kz != g.kernel[0]; ++kz)
      for (unsigned ky = 0; ky != g.kernel[1]; ++ky) {
        const float *row =
            g.inputRow(in, b, g.inIndex(0, z, kz), g.inIndex(1, y, ky));
        rows[kz * g.kernel[1] + ky] = row ? row : g.zeros;
      }
    float *outRow = out + g.outRowOffset(b, z, y) * groups;
    for (unsigned c0 = 0; c0 < groups; c0 += 16) {
      const unsigned n = std::min(16u, groups - c0);
      const __mmask16 m = __mmask16(n == 16 ? 0xffffu : (1u << n) - 1);
      const float *w = weights + c0;
      auto offset = [&](unsigned x) {
        return std::size_t(g.storedX(g.inIndex(2, x, 0))) * groups + c0;
      };
      auto o = [&](unsigned x) {
        return outRow + std::size_t(x) * groups + c0;
      };
      for (unsigned x = 0; x != xBegin; ++x)
        depthwiseEdgeOutputAvx512(g, rows, x, c0, w, m, o(x));
      unsigned x = xBegin;
      for (; x + outputsAtOnce <= xEnd; x += outputsAtOnce)
        depthwiseOutputsAvx512<outputsAtOnce>(g, rows, offset(x), w, m, o(x));
      for (; x != xEnd; ++x)
        depthwiseOutputsAvx512<1>(g, rows, offset(x), w, m, o(x));
      for (x = xEnd; x != g.outSize[2]; ++x)
        depthwiseEdgeOutputAvx512(g, rows, x, c0, w, m, o(x));
    }
  }
}

template <>
CONV_TARGET_AVX2 inline __attribute__((always_inline)) void
depthwiseRowsFused<8>(const Geometry &g, const float *in,
                      const float *weights, float *out, unsigned rowBegin,
                      unsigned rowEnd) {
  const unsigned groups = g.inChans;
  for (unsigned r = rowBegin; r != rowEnd; ++r) {
    unsigned b, z, y;
    g.outRowCoordinates(r, b, z, y);
    for (unsigned x = 0; x != g.outSize[2]; ++x) {
      float *o = out + (g.outRowOffset(b, z, y) + x) * groups;
      unsigned c0 = 0;
      for (; c0 + 8 <= groups; c0 += 8) {
        __m256 acc = _mm256_setzero_ps();
        const float *w = weights + c0;
        for (unsigned kz = 0; kz != g.kernel[0]; ++kz)
          for (unsigned ky = 0; ky != g.kernel[1]; ++ky)
            for (unsigned kx = 0; kx != g.kernel[2]; ++kx, w += groups)
              acc = _mm256_fmadd_ps(
                  _mm256_loadu_ps(
                      depthwiseInput(g, in, b, z, y, x, kz, ky, kx) + c0),
                  _mm256_loadu_ps(w), acc);
        _mm256_storeu_ps(o + c0, acc);
      }
      for (; c0 != groups; ++c0) {
        float acc = 0.0f;
        const float *w = weights + c0;
        for (unsigned kz = 0; kz != g.kernel[0]; ++kz)
          for (unsigned ky = 0; ky != g.kernel[1]; ++ky)
            for (unsigned kx = 0; kx != g.kernel[2]; ++kx, w += groups)
              acc = __builtin_fmaf(
                  depthwiseInput(g, in, b, z, y, x, kz, ky, kx)[c0], *w, acc);
        o[c0] = acc;
      }
    }
  }
}

// The common depthwise kernel, 3 x 3 over (y, x) with stride S along x
// and no dilation along x, on AVX-512: X outputs of a row for one vector
// of groups under mask m, each input vector loaded once for every output
// whose window holds it (3 (X - 1) S + 9 loads rather than 9 X), padding
// along x as zero vectors. `rows` holds the input row of each ky (a row of
// zeros for a padding row), `ix0` the stored x of the first output's kx 0
// (negative in the padding), `k` the nine weight vectors. Each output sums
// its window in (ky, kx) order from zero, as depthwiseOutputsAvx512 and
// depthwiseEdgeOutputAvx512 do, so the bits are theirs.
template <unsigned S, unsigned X, bool Edge>
CONV_TARGET_AVX512 inline __attribute__((always_inline)) void
depthwise3x3OutputsAvx512(const Geometry &g, const float *const *rows, int ix0,
                          unsigned c0, const __m512 *k, __mmask16 m, float *o) {
  constexpr unsigned span = (X - 1) * S + 3;
  const std::size_t groups = g.inChans;
  const int stored = int(g.stored[2]);
  __m512 acc[X];
  for (unsigned j = 0; j != X; ++j)
    acc[j] = _mm512_setzero_ps();
  for (unsigned ky = 0; ky != 3; ++ky) {
    const float *row = rows[ky] + c0;
    __m512 a[span];
    for (unsigned i = 0; i != span; ++i) {
      const int ix = ix0 + int(i);
      a[i] = !Edge || (ix >= 0 && ix < stored)
                 ? _mm512_maskz_loadu_ps(m, row + std::size_t(ix) * groups)
                 : _mm512_setzero_ps();
    }
    for (unsigned kx = 0; kx != 3; ++kx)
      for (unsigned j = 0; j != X; ++j)
        acc[j] =
            _mm512_mask3_fmadd_ps(a[j * S + kx], k[ky * 3 + kx], acc[j], m);
  }
  for (unsigned j = 0; j != X; ++j)
    _mm512_mask_storeu_ps(o + j * groups, m, acc[j]);
}

// The last n < X outputs of a row, at their exact size.
template <unsigned S, unsigned X>
CONV_TARGET_AVX512 inline __attribute__((always_inline)) void
depthwise3x3TailAvx512(const Geometry &g, const float *const *rows, int ix0,
                       unsigned c0, const __m512 *k, __mmask16 m, float *o,
                       unsigned n) {
  if constexpr (X != 0) {
    if (n != X)
      return depthwise3x3TailAvx512<S, X - 1>(g, rows, ix0, c0, k, m, o, n);
    depthwise3x3OutputsAvx512<S, X, true>(g, rows, ix0, c0, k, m, o);
  }
}

// Output rows [rowBegin, rowEnd) of a 3 x 3 depthwise block, stride S.
template <unsigned S>
CONV_TARGET_AVX512 void
depthwise3x3RowsAvx512(const Geometry &g, const float *in, const float *weights,
                       float *out, unsigned rowBegin, unsigned rowEnd) {
  constexpr unsigned outputsAtOnce = 8;
  const unsigned groups = g.inChans, ox = g.outSize[2];
  const int xBase = int(g.inIndex(2, 0, 0)) - int(g.padLower[2]);
  for (unsigned r = rowBegin; r != rowEnd; ++r) {
    unsigned b, z, y;
    g.outRowCoordinates(r, b, z, y);
    const float *rows[3];
    inputRows3x3(g, in, b, z, y, rows);
    float *outRow = out + g.outRowOffset(b, z, y) * groups;
    for (unsigned c0 = 0; c0 < groups; c0 += 16) {
      const unsigned n = std::min(16u, groups - c0);
      const __mmask16 m = __mmask16(n == 16 ? 0xffffu : (1u << n) - 1);
      __m512 k[9];
      for (unsigned e = 0; e != 9; ++e)
        k[e] = _mm512_maskz_loadu_ps(m, weights + std::size_t(e) * groups + c0);
      auto o = [&](unsigned x) {
        return outRow + std::size_t(x) * groups + c0;
      };
      // Blocks whose inputs are all stored skip the padding's tests.
      constexpr int span = (outputsAtOnce - 1) * S + 3;
      unsigned x = 0;
      for (; x + outputsAtOnce <= ox; x += outputsAtOnce) {
        const int ix0 = xBase + int(x * S);
        if (ix0 >= 0 && ix0 + span <= int(g.stored[2]))
          depthwise3x3OutputsAvx512<S, outputsAtOnce, false>(g, rows, ix0, c0,
                                                             k, m, o(x));
        else
          depthwise3x3OutputsAvx512<S, outputsAtOnce, true>(g, rows, ix0, c0, k,
                                                            m, o(x));
      }
      if (x != ox)
        depthwise3x3TailAvx512<S, outputsAtOnce - 1>(
            g, rows, xBase + int(x * S), c0, k, m, o(x), ox - x);
    }
  }
}

// The 3 x 3 kernel of depthwise3x3OutputsAvx512 on AVX2: X outputs of a
// row for 8 groups, each input vector loaded once for the outputs whose
// windows hold it, the weights read by the multiply-adds (X = 6 for
// stride 1 and 4 for stride 2 keep the sums and a row's inputs in the 16
// registers). The same fused multiply-adds in the same order.
template <unsigned S, unsigned X, bool Edge>
CONV_TARGET_AVX2 inline __attribute__((always_inline)) void
depthwise3x3OutputsAvx2(const Geometry &g, const float *const *rows, int ix0,
                        const float *k, float *o) {
  constexpr unsigned span = (X - 1) * S + 3;
  const std::size_t groups = g.inChans;
  const int stored = int(g.stored[2]);
  __m256 acc[X];
  for (unsigned j = 0; j != X; ++j)
    acc[j] = _mm256_setzero_ps();
  for (unsigned ky = 0; ky != 3; ++ky) {
    __m256 a[span];
    for (unsigned i = 0; i != span; ++i) {
      const int ix = ix0 + int(i);
      a[i] = !Edge || (ix >= 0 && ix < stored)
                 ? _mm256_loadu_ps(rows[ky] + std::size_t(ix) * groups)
                 : _mm256_setzero_ps();
    }
    for (unsigned kx = 0; kx != 3; ++kx) {
      const __m256 w = _mm256_loadu_ps(k + std::size_t(ky * 3 + kx) * groups);
      for (unsigned j = 0; j != X; ++j)
        acc[j] = _mm256_fmadd_ps(a[j * S + kx], w, acc[j]);
    }
  }
  for (unsigned j = 0; j != X; ++j)
    _mm256_storeu_ps(o + j * groups, acc[j]);
}

// The last n < X outputs of a row, at their exact size.
template <unsigned S, unsigned X>
CONV_TARGET_AVX2 inline __attribute__((always_inline)) void
depthwise3x3TailAvx2(const Geometry &g, const float *const *rows, int ix0,
                     const float *k, float *o, unsigned n) {
  if constexpr (X != 0) {
    if (n != X)
      return depthwise3x3TailAvx2<S, X - 1>(g, rows, ix0, k, o, n);
    depthwise3x3OutputsAvx2<S, X, true>(g, rows, ix0, k, o);
  }
}

// Output rows [rowBegin, rowEnd) of a 3 x 3 depthwise block, stride S, on
// AVX2: whole vectors of 8 groups by depthwise3x3OutputsAvx2, the groups
// past the last whole vector one by one as depthwiseRowsFused<8> sums them.
template <unsigned S>
CONV_TARGET_AVX2 void depthwise3x3RowsAvx2(const Geometry &g, const float *in,
                                           const float *weights, float *out,
                                           unsigned rowBegin, unsigned rowEnd) {
  constexpr unsigned outputsAtOnce = S == 1 ? 6 : 4;
  constexpr int span = (outputsAtOnce - 1) * S + 3;
  const unsigned groups = g.inChans, ox = g.outSize[2];
  const unsigned vectorGroups = groups / 8 * 8;
  const int xBase = int(g.inIndex(2, 0, 0)) - int(g.padLower[2]);
  for (unsigned r = rowBegin; r != rowEnd; ++r) {
    unsigned b, z, y;
    g.outRowCoordinates(r, b, z, y);
    const float *rows[3];
    inputRows3x3(g, in, b, z, y, rows);
    float *outRow = out + g.outRowOffset(b, z, y) * groups;
    for (unsigned c0 = 0; c0 != vectorGroups; c0 += 8) {
      const float *const shifted[3] = {rows[0] + c0, rows[1] + c0,
                                       rows[2] + c0};
      auto o = [&](unsigned x) {
        return outRow + std::size_t(x) * groups + c0;
      };
      unsigned x = 0;
      for (; x + outputsAtOnce <= ox; x += outputsAtOnce) {
        const int ix0 = xBase + int(x * S);
        if (ix0 >= 0 && ix0 + span <= int(g.stored[2]))
          depthwise3x3OutputsAvx2<S, outputsAtOnce, false>(g, shifted, ix0,
                                                           weights + c0, o(x));
        else
          depthwise3x3OutputsAvx2<S, outputsAtOnce, true>(g, shifted, ix0,
                                                          weights + c0, o(x));
      }
      if (x != ox)
        depthwise3x3TailAvx2<S, outputsAtOnce - 1>(
            g, shifted, xBase + int(x * S), weights + c0, o(x), ox - x);
    }
    for (unsigned x = 0; x != ox; ++x)
      for (unsigned c = vectorGroups; c != groups; ++c) {
        float acc = 0.0f;
        const float *w = weights + c;
        for (unsigned ky = 0; ky != 3; ++ky)
          for (unsigned kx = 0; kx != 3; ++kx, w += groups)
            acc = __builtin_fmaf(
                depthwiseInput(g, in, b, z, y, x, 0, ky, kx)[c], *w, acc);
        outRow[std::size_t(x) * groups + c] = acc;
      }
  }
}

CONV_TARGET_AVX2 void depthwiseRowsAvx2(const Geometry &g, const float *in,
                                        const float *weights, float *out,
                                        unsigned rowBegin, unsigned rowEnd) {
  if (g.kernel[0] == 1 && g.kernel[1] == 3 && g.kernel[2] == 3 &&
      g.dilation[2] == 1) {
    if (g.stride[2] == 1)
      return depthwise3x3RowsAvx2<1>(g, in, weights, out, rowBegin, rowEnd);
    if (g.stride[2] == 2)
      return depthwise3x3RowsAvx2<2>(g, in, weights, out, rowBegin, rowEnd);
  }
  depthwiseRowsFused<8>(g, in, weights, out, rowBegin, rowEnd);
}
CONV_TARGET_AVX512 void depthwiseRowsAvx512(const Geometry &g,
                                            const float *in,
                                            const float *weights, float *out,
                                            unsigned rowBegin,
                                            unsigned rowEnd) {
  if (g.kernel[0] == 1 && g.kernel[1] == 3 && g.kernel[2] == 3 &&
      g.dilation[2] == 1) {
    if (g.stride[2] == 1)
      return depthwise3x3RowsAvx512<1>(g, in, weights, out, rowBegin, rowEnd);
    if (g.stride[2] == 2)
      return depthwise3x3RowsAvx512<2>(g, in, weights, out, rowBegin, rowEnd);
  }
  depthwiseRowsFused<16>(g, in, weights, out, rowBegin, rowEnd);
}
#endif

// Depthwise blocks of at least this many multiply-accumulates are shared
// out over the host's threads: a depthwise MAC reads its own input and
// weight, so a block costs about as much time as a dense one with several
// times its MACs.
constexpr double depthwiseHostThreadsMacs = 1 << 18;

// Output rows [begin, end) of a depthwise block.
void depthwiseRows(const Geometry &g, const float *in, const float *weights,
                   float *out, unsigned begin, unsigned end) {
#ifdef CONV_HAVE_X86_CLONES
  switch (hostIsa()) {
  case HostIsa::Avx512:
    return depthwiseRowsAvx512(g, in, weights, out, begin, end);
  case HostIsa::Avx2:
    return depthwiseRowsAvx2(g, in, weights, out, begin, end);
  case HostIsa::Baseline:
    break;
  }
#endif
  depthwiseRowsBaseline(g, in, weights, out, begin, end);
}

// The outputs an epilogue is applied to at once, while they are in cache.
constexpr std::size_t epilogueFloats = 8192;

// Part `part` of `parts` of a depthwise block: a contiguous range of rows,
// with the epilogue, if any, applied a few rows at a time.
void depthwiseFloat(const Geometry &g, const float *in, const float *weights,
                    float *out, const Epilogue &e, unsigned part,
                    unsigned parts) {
  const unsigned rows = g.batch * g.outSize[0] * g.outSize[1];
  const unsigned begin = unsigned(std::size_t(rows) * part / parts);
  const unsigned end = unsigned(std::size_t(rows) * (part + 1) / parts);
  if (!e.any()) {
    if (begin != end)
      depthwiseRows(g, in, weights, out, begin, end);
    return;
  }
  const std::size_t rowFloats = std::size_t(g.outSize[2]) * g.outChans;
  const unsigned step = unsigned(std::max<std::size_t>(
      1, epilogueFloats / std::max<std::size_t>(1, rowFloats)));
  for (unsigned r0 = begin; r0 < end; r0 += step) {
    const unsigned r1 = std::min(end, r0 + step);
    depthwiseRows(g, in, weights, out, r0, r1);
    applyEpilogue(e, out + std::size_t(r0) * rowFloats,
                  std::size_t(r1 - r0) * g.outSize[2], g.outChans, 0,
                  g.outChans);
  }
}

// A large depthwise block in hostParts fixed parts on the runtime's host
// threads.
void depthwiseFloatOnHostThreads(const Geometry &g, const float *in,
                                 const float *weights, float *out,
                                 const Epilogue &e) {
  poplar::detail::forEachOnHostThreads(hostParts, [&](std::size_t part) {
    depthwiseFloat(g, in, weights, out, e, unsigned(part), hostParts);
  });
}

} // namespace

// DepthwiseConvPartial: a FLOAT convolution of one input and one output
// channel per group, every group at once with the groups innermost:
//   in       [batch][inZ][inY][inX][groups]
//   weights  [kZ][kY][kX][groups]
//   out      [batch][outZ][outY][outX][groups]
// (geometry as ConvPartial's, its inChans and outChans being the number of
// groups). The CPU device lowers depthwise convolutions to it: activations
// keep the channels-innermost layout of the layers around them, so no
// operand is gathered one element per group. Each output is summed as
// ConvPartial sums a group's (kernel element by kernel element from zero),
// so the bits are those of one ConvPartial per group. A MultiVertex: the
// workers share the output rows; a large block is computed by the first
// worker in hostParts fixed parts on the runtime's host threads. As rows
// are summed, the groups' biases are added (`biases`: none, or one vector
// of the groups) and the outputs clamped (`clamp`: none, or the lower and
// upper bound), while they are in cache (ConvEpilogue.hpp).
class DepthwiseConvPartial : public poplar::MultiVertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Input<poplar::Vector<float>> weights;
  poplar::Output<poplar::Vector<float>> out;
  poplar::Vector<unsigned> geometry;
  poplar::Vector<poplar::Input<poplar::Vector<float>>> biases;
  poplar::Vector<float> clamp;

  void compute(unsigned wid) {
    Geometry g(geometry);
    const PaddingZeros zeros(g);
    const Epilogue e = epilogueOf(biases, clamp);
    // The multiply-accumulates of the block: one input channel per output.
    const double macs = forwardMacs(g) / std::max(1u, g.inChans);
    if (macs < depthwiseHostThreadsMacs) {
      depthwiseFloat(g, in.data(), weights.data(), out.data(), e, wid,
                     numWorkers());
      return;
    }
    if (wid == 0)
      depthwiseFloatOnHostThreads(g, in.data(), weights.data(), out.data(), e);
  }
};

} // namespace poplin
