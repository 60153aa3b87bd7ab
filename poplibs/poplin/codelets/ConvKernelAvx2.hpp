// The dense float convolution kernel on AVX2 (ConvPartial's forward
// pass on hosts with AVX2 and FMA but not AVX-512): blocks of up to 6
// output positions x 16 output channels, the weights of a block of 16
// channels packed [kernel element][inChans][16].
#ifndef POPLIN_CODELETS_CONVKERNELAVX2_HPP
#define POPLIN_CODELETS_CONVKERNELAVX2_HPP

#include "ConvEpilogue.hpp"
#include "ConvKernelCommon.hpp"

#include <cstddef>
#ifdef __x86_64__
#include <immintrin.h>
#endif

namespace poplin {
namespace conv_kernel {

/// The output channels of a packed block of weights.
constexpr unsigned avx2BlockChans = 16;

#ifdef CONV_HAVE_X86_CLONES
// acc[q] += a[q][i] * w[i] over the input channels i, w[i] the i-th row
// of 16 weights from wk, its two vectors loaded once for the P positions.
template <unsigned P>
CONV_TARGET_AVX2 inline __attribute__((always_inline)) void
accumulateAvx2(__m256 (&acc)[P][2], const float *const (&a)[P], const float *wk,
               unsigned ci) {
  for (unsigned i = 0; i != ci; ++i) {
    const __m256 w0 = _mm256_loadu_ps(wk + std::size_t(i) * avx2BlockChans);
    const __m256 w1 = _mm256_loadu_ps(wk + std::size_t(i) * avx2BlockChans + 8);
    for (unsigned q = 0; q != P; ++q) {
      const __m256 av = _mm256_broadcast_ss(a[q] + i);
      acc[q][0] = _mm256_fmadd_ps(av, w0, acc[q][0]);
      acc[q][1] = _mm256_fmadd_ps(av, w1, acc[q][1]);
    }
  }
}

// P positions x 16 channels of a packed block on AVX2: 2 P accumulators,
// the weights of an input channel loaded once into registers for the P
// positions (with P = 6, 12 accumulators, two weights and a broadcast fill
// the 16 registers, and 8 loads serve 12 multiply-adds, so the
// multiply-adds set the pace). The positions are p0 .. p0 + P of the
// output rows from r0 taken one after the other, so a block may span rows.
// The epilogue is applied to the sums in registers before they are stored.
// The same fused multiply-adds in the same order as forwardBlockVec. A
// Pointwise block (pointwiseInput) finds its positions' inputs at the
// same positions of the input.
template <unsigned P, bool Pointwise>
CONV_TARGET_AVX2 inline __attribute__((always_inline)) void
forwardBlockAvx2(const Geometry &g, const float *in, const float *packed,
                 float *out, unsigned r0, unsigned p0, unsigned c0,
                 const Epilogue &e) {
  __m256 acc[P][2];
  for (unsigned q = 0; q != P; ++q)
    acc[q][0] = acc[q][1] = _mm256_setzero_ps();
  const unsigned ci = g.inChans, co = g.outChans, ox = g.outSize[2];
  const float *a[P];
  if constexpr (Pointwise) {
    for (unsigned q = 0; q != P; ++q)
      a[q] = in + (std::size_t(r0) * ox + p0 + q) * ci;
    accumulateAvx2<P>(acc, a, packed, ci);
  } else {
    // Each position's coordinates, stepping from the first's (no division
    // per position).
    unsigned pb[P], pz[P], py[P], px[P];
    g.outRowCoordinates(r0 + p0 / ox, pb[0], pz[0], py[0]);
    px[0] = p0 % ox;
    for (unsigned q = 1; q != P; ++q) {
      pb[q] = pb[q - 1], pz[q] = pz[q - 1], py[q] = py[q - 1];
      px[q] = px[q - 1] + 1;
      if (px[q] == ox) {
        px[q] = 0;
        if (++py[q] == g.outSize[1]) {
          py[q] = 0;
          if (++pz[q] == g.outSize[0]) {
            pz[q] = 0;
            ++pb[q];
          }
        }
      }
    }
    for (unsigned kz = 0; kz != g.kernel[0]; ++kz)
      for (unsigned ky = 0; ky != g.kernel[1]; ++ky) {
        const float *inRows[P];
        for (unsigned q = 0; q != P; ++q)
          inRows[q] = g.inputRow(in, pb[q], g.inIndex(0, pz[q], kz),
                                 g.inIndex(1, py[q], ky));
        for (unsigned kx = 0; kx != g.kernel[2]; ++kx) {
          for (unsigned q = 0; q != P; ++q)
            a[q] = g.inputAt(inRows[q], g.inIndex(2, px[q], kx));
          accumulateAvx2<P>(
              acc, a,
              packed + std::size_t((kz * g.kernel[1] + ky) * g.kernel[2] + kx) *
                           ci * avx2BlockChans,
              ci);
        }
      }
  }
  float *o = out + (std::size_t(r0) * ox + p0) * co + c0;
  for (unsigned q = 0; q != P; ++q)
    for (unsigned v = 0; v != 2; ++v)
      _mm256_storeu_ps(o + std::size_t(q) * co + 8 * v,
                       epilogueAvx2(e, acc[q][v], c0 + 8 * v));
}

// Whether output position p reads input position p alone: a 1 x 1 kernel,
// stride 1, nothing padded or cut (a pointwise convolution).
inline bool pointwiseInput(const Geometry &g) {
  for (unsigned d = 0; d != 3; ++d)
    if (g.kernel[d] != 1 || g.stride[d] != 1 || g.base[d] != 0 ||
        g.inSize[d] != g.outSize[d])
      return false;
  return !g.padded;
}

// Output rows [r0, r1), channels [c0, c0 + 16), their positions taken
// one after the other in blocks of 4 to 6 (fewer positions in one): as
// many blocks as blocks of 6 would take, the positions shared evenly, so
// that no block has too few accumulators to hide the multiply-adds'
// latency (7 positions are 4 + 3, not 6 + 1).
template <bool Pointwise>
CONV_TARGET_AVX2 inline __attribute__((always_inline)) void
forwardPositionsAvx2(const Geometry &g, const float *in, const float *packed,
                     float *out, unsigned r0, unsigned r1, unsigned c0,
                     const Epilogue &e) {
  constexpr unsigned maxBlock = 6;
  const unsigned positions = (r1 - r0) * g.outSize[2];
  const unsigned blocks = (positions + maxBlock - 1) / maxBlock;
  for (unsigned k = 0, p0 = 0; k != blocks; ++k) {
    const unsigned n = positions / blocks + (k < positions % blocks);
    switch (n) {
    case 6:
      forwardBlockAvx2<6, Pointwise>(g, in, packed, out, r0, p0, c0, e);
      break;
    case 5:
      forwardBlockAvx2<5, Pointwise>(g, in, packed, out, r0, p0, c0, e);
      break;
    case 4:
      forwardBlockAvx2<4, Pointwise>(g, in, packed, out, r0, p0, c0, e);
      break;
    case 3:
      forwardBlockAvx2<3, Pointwise>(g, in, packed, out, r0, p0, c0, e);
      break;
    case 2:
      forwardBlockAvx2<2, Pointwise>(g, in, packed, out, r0, p0, c0, e);
      break;
    default:
      forwardBlockAvx2<1, Pointwise>(g, in, packed, out, r0, p0, c0, e);
      break;
    }
    p0 += n;
  }
}

CONV_TARGET_AVX2 inline void
forwardRowsPackedAvx2(const Geometry &g, const float *in, const float *packed,
                      float *out, unsigned r0, unsigned r1, unsigned c0,
                      const Epilogue &e) {
  if (pointwiseInput(g))
    forwardPositionsAvx2<true>(g, in, packed, out, r0, r1, c0, e);
  else
    forwardPositionsAvx2<false>(g, in, packed, out, r0, r1, c0, e);
}
#endif

} // namespace conv_kernel
} // namespace poplin

#endif // POPLIN_CODELETS_CONVKERNELAVX2_HPP
