// The convolution vertices. Operands are laid out with channels innermost:
//   in       [batch][inZ][inY][inX][inChans]     the block's input slab
//   weights  [kZ][kY][kX][inChans][outChans]     the block's weights
//   out      [batch][outZ][outY][outX][outChans] float partial sums
// and `geometry` holds batch, inChans, outChans, then for each of the three
// spatial dimensions d: inSize, outSize, kernel, kernelDilation, stride and
// base, so that output o reads input base + o * stride + k * kernelDilation
// for kernel element k.
//
// The forward inner loops run over 16 contiguous output channels for 4, 8
// or (AVX-512) 14 output positions at once: float accumulators that stay
// in registers while a whole kernel window and every input channel are
// summed, each weight row loaded once for the positions. The weight gradient is
// a register-tiled matrix product per kernel row (weightGradTile). On x86-64
// the float kernels are also compiled for AVX2/FMA and AVX-512 and chosen
// at run time (ConvKernelCommon.hpp). DepthwiseConvPartial, in its own
// file, takes every group of a depthwise convolution at once.
#include "ConvEpilogue.hpp"
#include "ConvKernelAvx2.hpp"
#include "ConvKernelCommon.hpp"

#include <poplar/Vertex.hpp>
#include <poplar/detail/HostParallel.hpp>

#include <algorithm>
#include <cstddef>
#ifdef __x86_64__
#include <immintrin.h>
#endif
#include <type_traits>
#include <vector>

namespace poplin {
namespace {

using namespace conv_kernel;

constexpr unsigned chanBlock = 16; // contiguous channels per accumulator row
static_assert(chanBlock == avx2BlockChans);
constexpr unsigned posBlock = 4;   // positions (or channels) sharing a load
// On AVX-512 the 16 channels are one 512-bit vector, and P positions are P
// accumulators: 14 keep both fused multiply-add pipes of a core busy, and
// rows of 112, 56, 28 and 14 outputs split into whole blocks.
constexpr unsigned packedPosBlockAvx512 = 14;
// Positions of the AVX-512 path over two blocks of channels: 14 x 2
// accumulators, each input element broadcast once for two fused
// multiply-adds.
constexpr unsigned pairPosBlockAvx512 = 14;

// out[x0 .. x0+P)[c0 .. c0+W) of one output row, summed over the kernel
// window and every input channel. P and W are the block sizes (compile-time
// for the fast path); p and w the sizes actually used.
template <class T, unsigned P, unsigned W, bool Full>
inline __attribute__((always_inline)) void
forwardBlock(const Geometry &g, const T *in, const T *weights, float *out,
             unsigned b, unsigned z, unsigned y, unsigned x0, unsigned c0,
             unsigned p, unsigned w) {
  float acc[P][W] = {};
  const unsigned ci = g.inChans, co = g.outChans;
  for (unsigned kz = 0; kz != g.kernel[0]; ++kz)
    for (unsigned ky = 0; ky != g.kernel[1]; ++ky) {
      const T *inRow =
          g.inputRow(in, b, g.inIndex(0, z, kz), g.inIndex(1, y, ky));
      for (unsigned kx = 0; kx != g.kernel[2]; ++kx) {
        const T *wk =
            weights +
            (std::size_t((kz * g.kernel[1] + ky) * g.kernel[2] + kx) * ci) *
                co +
            c0;
        const T *a[P];
        for (unsigned q = 0; q != P; ++q)
          a[q] = g.inputAt(inRow, g.inIndex(2, x0 + std::min(q, p - 1), kx));
        for (unsigned i = 0; i != ci; ++i) {
          const T *wr = wk + std::size_t(i) * co;
          float wv[W];
          for (unsigned c = 0; c != W; ++c)
            wv[c] = Full || c < w ? float(wr[c]) : 0.0f;
          for (unsigned q = 0; q != P; ++q) {
            const float av = float(a[q][i]);
            for (unsigned c = 0; c != W; ++c)
              acc[q][c] += av * wv[c];
          }
        }
      }
    }
  float *o = out + (g.outRowOffset(b, z, y) + x0) * co + c0;
  for (unsigned q = 0; q != p; ++q)
    for (unsigned c = 0; c != w; ++c)
      o[std::size_t(q) * co + c] = acc[q][c];
}

// The float fast path of forwardBlock for V vectors of channels: P x V
// vector accumulators, each weight row loaded once for the P positions.
// `wBlock` is the block's weights for kernel element 0 and input channel 0;
// rows (input channels) are `rowStride` floats apart, kernel elements
// inChans * rowStride, and a row's vectors `vecStride` apart: the vertex's
// weights (rowStride outChans, vecStride a vector) or blocks of 16
// channels (rowStride 16; vecStride a vector within a block, or a whole
// block from one to the next). Each output element sums the same products
// in the same order whatever Vec, P, V and the layout.
template <class Vec, unsigned P, unsigned V>
inline __attribute__((always_inline)) void
forwardBlockVec(const Geometry &g, const float *in, const float *wBlock,
                std::size_t rowStride, std::size_t vecStride, float *out,
                unsigned b, unsigned z, unsigned y, unsigned x0, unsigned c0,
                unsigned p) {
  constexpr unsigned lanes = sizeof(Vec) / sizeof(float);
  Vec acc[P][V] = {};
  const unsigned ci = g.inChans, co = g.outChans;
  for (unsigned kz = 0; kz != g.kernel[0]; ++kz)
    for (unsigned ky = 0; ky != g.kernel[1]; ++ky) {
      const float *inRow =
          g.inputRow(in, b, g.inIndex(0, z, kz), g.inIndex(1, y, ky));
      for (unsigned kx = 0; kx != g.kernel[2]; ++kx) {
        const float *wk =
            wBlock + std::size_t((kz * g.kernel[1] + ky) * g.kernel[2] + kx) *
                         ci * rowStride;
        const float *a[P];
        for (unsigned q = 0; q != P; ++q)
          a[q] = g.inputAt(inRow, g.inIndex(2, x0 + std::min(q, p - 1), kx));
        for (unsigned i = 0; i != ci; ++i) {
          const float *wr = wk + std::size_t(i) * rowStride;
          Vec wv[V];
          for (unsigned v = 0; v != V; ++v)
            loadVec(wv[v], wr + vecStride * v);
          for (unsigned q = 0; q != P; ++q) {
            const float av = a[q][i];
            for (unsigned v = 0; v != V; ++v)
              acc[q][v] += av * wv[v];
          }
        }
      }
    }
  float *o = out + (g.outRowOffset(b, z, y) + x0) * co + c0;
  for (unsigned q = 0; q != p; ++q)
    for (unsigned v = 0; v != V; ++v)
      storeVec(o + std::size_t(q) * co + lanes * v, acc[q][v]);
}

// The vectors of type Vec that hold a block of chanBlock channels.
template <class Vec>
constexpr unsigned vectorsPerBlock = chanBlock * sizeof(float) / sizeof(Vec);

// The last n < N positions of a row, at their exact size: a block of N
// would compute N - n positions again only to drop them.
template <class Vec, unsigned N, unsigned V>
inline __attribute__((always_inline)) void
forwardTailPacked(const Geometry &g, const float *in, const float *packed,
                  std::size_t vecStride, float *out, unsigned b, unsigned z,
                  unsigned y, unsigned x0, unsigned c0, unsigned n) {
  if constexpr (N != 0) {
    if (n != N)
      return forwardTailPacked<Vec, N - 1, V>(g, in, packed, vecStride, out, b,
                                              z, y, x0, c0, n);
    forwardBlockVec<Vec, N, V>(g, in, packed, chanBlock, vecStride, out, b, z,
                               y, x0, c0, N);
  }
}

// Output channels [c0, c0 + 16 * blocks) of output row (b, z, y) from
// `packed`, each block of 16 channels' weights laid out [kernel
// element][inChans][16] (by packWeightBlock, or stored so), the blocks
// `blockStride` floats apart, P positions at a time. V vectors of type Vec
// hold the blocks' channels.
template <class Vec, unsigned P, unsigned V>
inline __attribute__((always_inline)) void
forwardRowPacked(const Geometry &g, const float *in, const float *packed,
                 std::size_t blockStride, float *out, unsigned b, unsigned z,
                 unsigned y, unsigned c0) {
  constexpr unsigned lanes = sizeof(Vec) / sizeof(float);
  // Vectors within a block are consecutive; the next block's are a block on.
  const std::size_t vecStride = V <= vectorsPerBlock<Vec> ? lanes : blockStride;
  const unsigned ox = g.outSize[2];
  unsigned x0 = 0;
  for (; x0 + P <= ox; x0 += P)
    forwardBlockVec<Vec, P, V>(g, in, packed, chanBlock, vecStride, out, b, z,
                               y, x0, c0, P);
  if (x0 != ox)
    forwardTailPacked<Vec, P - 1, V>(g, in, packed, vecStride, out, b, z, y, x0,
                                     c0, ox - x0);
}

// One output row (b, z, y), channels from cBegin on: full blocks on the fast path, the edges with
// the same code at run-time sizes.
template <class T>
inline __attribute__((always_inline)) void
forwardRow(const Geometry &g, const T *in, const T *weights, float *out,
           unsigned b, unsigned z, unsigned y, unsigned cBegin) {
  const unsigned ox = g.outSize[2], co = g.outChans;
  for (unsigned c0 = cBegin; c0 < co;) {
    const unsigned rest = co - c0;
    // Float: 16 or 8 channels at a time in vectors; the rest generic.
    const unsigned vectors =
        std::is_same_v<T, float> ? std::min(rest / 8, 2u) : 0u;
    const unsigned w = vectors ? 8 * vectors : std::min(chanBlock, rest);
    // One vector of channels takes twice the positions: eight sums in
    // flight either way, as a multiply-add's latency needs.
    const unsigned step = vectors == 1 ? 2 * posBlock : posBlock;
    for (unsigned x0 = 0; x0 < ox; x0 += step) {
      const unsigned p = std::min(step, ox - x0);
      if constexpr (std::is_same_v<T, float>) {
        if (vectors == 2) {
          forwardBlockVec<f32x8, posBlock, 2>(g, in, weights + c0, co, 8, out,
                                              b, z, y, x0, c0, p);
          continue;
        }
        if (vectors == 1) {
          forwardBlockVec<f32x8, 2 * posBlock, 1>(g, in, weights + c0, co, 8,
                                                  out, b, z, y, x0, c0, p);
          continue;
        }
      }
      if (w == chanBlock)
        forwardBlock<T, posBlock, chanBlock, true>(g, in, weights, out, b, z, y,
                                                   x0, c0, p, w);
      else if (w <= 4)
        forwardBlock<T, posBlock, 4, false>(g, in, weights, out, b, z, y, x0,
                                            c0, p, w);
      else
        forwardBlock<T, posBlock, chanBlock, false>(g, in, weights, out, b, z,
                                                    y, x0, c0, p, w);
    }
    c0 += w;
  }
}

// One output row (b, z, y) of a convolution with one input and one output
// channel (each group of a depthwise convolution): the positions of the
// row side by side in a vectorisable loop. Each output sums the same
// products in the same order as forwardBlock (kernel element by kernel
// element, from zero), so the results are the same bit for bit.
inline __attribute__((always_inline)) void
forwardRowSingleChannel(const Geometry &g, const float *in,
                        const float *weights, float *out, unsigned b,
                        unsigned z, unsigned y) {
  constexpr unsigned chunk = 64;
  const unsigned ox = g.outSize[2];
  const std::size_t xStride = g.stride[2];
  float *o = out + g.outRowOffset(b, z, y);
  for (unsigned x0 = 0; x0 < ox; x0 += chunk) {
    const unsigned n = std::min(chunk, ox - x0);
    float acc[chunk] = {};
    for (unsigned kz = 0; kz != g.kernel[0]; ++kz)
      for (unsigned ky = 0; ky != g.kernel[1]; ++ky) {
        const float *inRow =
            in + g.inRowOffset(b, g.inIndex(0, z, kz), g.inIndex(1, y, ky));
        for (unsigned kx = 0; kx != g.kernel[2]; ++kx) {
          const float w =
              weights[(kz * g.kernel[1] + ky) * g.kernel[2] + kx];
          const float *a = inRow + g.inIndex(2, x0, kx);
          if (xStride == 1) {
            for (unsigned x = 0; x != n; ++x)
              acc[x] += a[x] * w;
          } else {
            for (unsigned x = 0; x != n; ++x)
              acc[x] += a[x * xStride] * w;
          }
        }
      }
    std::copy_n(acc, n, o + x0);
  }
}

#ifdef CONV_HAVE_X86_CLONES
CONV_TARGET_AVX2 void forwardRowAvx2(const Geometry &g, const float *in,
                                     const float *weights, float *out,
                                     unsigned b, unsigned z, unsigned y,
                                     unsigned cBegin) {
  forwardRow<float>(g, in, weights, out, b, z, y, cBegin);
}
CONV_TARGET_AVX512 void forwardRowAvx512(const Geometry &g, const float *in,
                                         const float *weights, float *out,
                                         unsigned b, unsigned z, unsigned y,
                                         unsigned cBegin) {
  forwardRow<float>(g, in, weights, out, b, z, y, cBegin);
}
CONV_TARGET_AVX2 void forwardRowSingleChannelAvx2(const Geometry &g,
                                                  const float *in,
                                                  const float *weights,
                                                  float *out, unsigned b,
                                                  unsigned z, unsigned y) {
  forwardRowSingleChannel(g, in, weights, out, b, z, y);
}
// Positions [x0, x0 + 16 U) of a single-channel row (the last vector's
// lanes past the row's end masked off) from `a`, the input of position x0
// for kernel element (0, 0, 0): U vectors summed side by side, independent
// chains of multiply-adds held in registers.
template <unsigned U>
CONV_TARGET_AVX512 inline __attribute__((always_inline)) void
singleChannelVectors(const Geometry &g, const float *a, std::size_t rowStep,
                     std::size_t zStep, const float *weights, float *o,
                     unsigned n) {
  auto lanes = [](unsigned k) {
    return __mmask16(k >= 16 ? 0xffffu : (1u << k) - 1);
  };
  const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18,
                                          20, 22, 24, 26, 28, 30);
  const bool strided = g.stride[2] == 2;
  const std::size_t xDilation = g.dilation[2];
  // The last vector's positions, and for stride 2 the input elements it
  // reads (0, 2, .., 2 last - 2).
  const unsigned last = n - 16 * (U - 1);
  const __mmask16 mLast = lanes(last);
  const __mmask16 mLow = lanes(2 * last - 1);
  const __mmask16 mHigh = lanes(2 * last - 1 > 16 ? 2 * last - 1 - 16 : 0);
  __m512 acc[U];
  for (unsigned v = 0; v != U; ++v)
    acc[v] = _mm512_setzero_ps();
  const float *w = weights;
  for (unsigned kz = 0; kz != g.kernel[0]; ++kz)
    for (unsigned ky = 0; ky != g.kernel[1]; ++ky) {
      const float *row = a + kz * zStep + ky * rowStep;
      for (unsigned k = 0; k != g.kernel[2]; ++k, ++w) {
        const __m512 wv = _mm512_set1_ps(*w);
        const float *p = row + k * xDilation;
        for (unsigned v = 0; v != U; ++v) {
          const bool full = v + 1 != U;
          __m512 iv;
          if (!strided) {
            iv = full ? _mm512_loadu_ps(p + 16 * v)
                      : _mm512_maskz_loadu_ps(mLast, p + 16 * v);
          } else {
            const __m512 low =
                full ? _mm512_loadu_ps(p + 32 * v)
                     : _mm512_maskz_loadu_ps(mLow, p + 32 * v);
            const __m512 high =
                full ? _mm512_maskz_loadu_ps(0x7fff, p + 32 * v + 16)
                     : _mm512_maskz_loadu_ps(mHigh, p + 32 * v + 16);
            iv = _mm512_permutex2var_ps(low, evens, high);
          }
          acc[v] = full ? _mm512_fmadd_ps(iv, wv, acc[v])
                        : _mm512_mask3_fmadd_ps(iv, wv, acc[v], mLast);
        }
      }
    }
  for (unsigned v = 0; v + 1 != U; ++v)
    _mm512_storeu_ps(o + 16 * v, acc[v]);
  _mm512_mask_storeu_ps(o + 16 * (U - 1), mLast, acc[U - 1]);
}

// forwardRowSingleChannel on AVX-512, 16 positions a vector with the row's
// end in a mask: masked-off lanes are neither loaded nor computed (nor
// raise exceptions), so a short row (the 7 or 14 positions of late layers)
// costs one vector rather than a scalar loop. Up to four vectors of the row
// are summed side by side; stride 2 along x takes the even elements of two
// loads. Each output sums the same fused multiply-adds in the same order as
// forwardRowSingleChannel compiled for this host (which contracts its
// products and sums), so the bits are the same.
CONV_TARGET_AVX512 void forwardRowSingleChannelAvx512(const Geometry &g,
                                                      const float *in,
                                                      const float *weights,
                                                      float *out, unsigned b,
                                                      unsigned z, unsigned y) {
  if (g.stride[2] > 2)
    return forwardRowSingleChannel(g, in, weights, out, b, z, y);
  const unsigned ox = g.outSize[2];
  // Input rows (y, z) are one kernel step apart at these distances.
  const std::size_t rowStep = std::size_t(g.dilation[1]) * g.inSize[2];
  const std::size_t zStep =
      std::size_t(g.dilation[0]) * g.inSize[1] * g.inSize[2];
  const float *row =
      in + g.inRowOffset(b, g.inIndex(0, z, 0), g.inIndex(1, y, 0));
  float *o = out + g.outRowOffset(b, z, y);
  for (unsigned x0 = 0; x0 < ox; x0 += 64) {
    const unsigned n = std::min(64u, ox - x0);
    const float *a = row + g.inIndex(2, x0, 0);
    switch ((n + 15) / 16) {
    case 1:
      singleChannelVectors<1>(g, a, rowStep, zStep, weights, o + x0, n);
      break;
    case 2:
      singleChannelVectors<2>(g, a, rowStep, zStep, weights, o + x0, n);
      break;
    case 3:
      singleChannelVectors<3>(g, a, rowStep, zStep, weights, o + x0, n);
      break;
    default:
      singleChannelVectors<4>(g, a, rowStep, zStep, weights, o + x0, n);
      break;
    }
  }
}
CONV_TARGET_AVX512 void
forwardRowPackedAvx512(const Geometry &g, const float *in, const float *packed,
                       float *out, unsigned b, unsigned z, unsigned y,
                       unsigned c0) {
  forwardRowPacked<f32x16, packedPosBlockAvx512, 1>(g, in, packed, 0, out, b, z,
                                                    y, c0);
}
// Two blocks of 16 channels at once, `blockStride` floats apart: each input
// element loaded once for 32 channels' multiply-adds.
CONV_TARGET_AVX512 void forwardRowPairAvx512(const Geometry &g, const float *in,
                                             const float *packed,
                                             std::size_t blockStride,
                                             float *out, unsigned b, unsigned z,
                                             unsigned y, unsigned c0) {
  forwardRowPacked<f32x16, pairPosBlockAvx512, 2>(g, in, packed, blockStride,
                                                  out, b, z, y, c0);
}
#endif

void forwardRowFloat(const Geometry &g, const float *in, const float *weights,
                     float *out, unsigned b, unsigned z, unsigned y,
                     unsigned cBegin = 0) {
  // The single-channel kernels load whole rows as vectors: a geometry whose
  // padding is not in memory takes the blocked path.
  if (g.inChans == 1 && g.outChans == 1 && cBegin == 0 && !g.padded) {
#ifdef CONV_HAVE_X86_CLONES
    switch (hostIsa()) {
    case HostIsa::Avx512:
      return forwardRowSingleChannelAvx512(g, in, weights, out, b, z, y);
    case HostIsa::Avx2:
      return forwardRowSingleChannelAvx2(g, in, weights, out, b, z, y);
    case HostIsa::Baseline:
      break;
    }
#endif
    return forwardRowSingleChannel(g, in, weights, out, b, z, y);
  }
#ifdef CONV_HAVE_X86_CLONES
  switch (hostIsa()) {
  case HostIsa::Avx512:
    return forwardRowAvx512(g, in, weights, out, b, z, y, cBegin);
  case HostIsa::Avx2:
    return forwardRowAvx2(g, in, weights, out, b, z, y, cBegin);
  case HostIsa::Baseline:
    break;
  }
#endif
  forwardRow<float>(g, in, weights, out, b, z, y, cBegin);
}

// Output channels [c0, c0 + 16 * blocks) of output row (b, z, y), for one
// or (on AVX-512) two blocks of weights `blockStride` floats apart.
void forwardRowPackedFloat(const Geometry &g, const float *in,
                           const float *packed, std::size_t blockStride,
                           unsigned blocks, float *out, unsigned b, unsigned z,
                           unsigned y, unsigned c0) {
#ifdef CONV_HAVE_X86_CLONES
  if (blocks == 2)
    return forwardRowPairAvx512(g, in, packed, blockStride, out, b, z, y, c0);
  if (hostIsa() == HostIsa::Avx512)
    return forwardRowPackedAvx512(g, in, packed, out, b, z, y, c0);
#endif
  forwardRowPacked<f32x8, posBlock, 2>(g, in, packed, 0, out, b, z, y, c0);
}

// The output rows of a unit of forwardFloat: on AVX2 enough rows that
// their positions make whole blocks of 6 (rows of 7 or 14 alone would leave
// blocks of 4 and 3); else one.
unsigned rowsPerUnit(const Geometry &g) {
  if (hostIsa() != HostIsa::Avx2)
    return 1;
  const unsigned ox = g.outSize[2];
  return ox % 6 == 0 ? 1 : ox % 3 == 0 ? 2 : ox % 2 == 0 ? 3 : 6;
}

// Output rows [r0, r1), channels [c0, c0 + 16 * blocks), with the
// epilogue.
void forwardRowsPackedFloat(const Geometry &g, const float *in,
                            const float *packed, std::size_t blockStride,
                            unsigned blocks, float *out, unsigned r0,
                            unsigned r1, unsigned c0, const Epilogue &e) {
#ifdef CONV_HAVE_X86_CLONES
  if (blocks == 1 && hostIsa() == HostIsa::Avx2)
    return forwardRowsPackedAvx2(g, in, packed, out, r0, r1, c0, e);
#endif
  for (unsigned r = r0; r != r1; ++r) {
    unsigned b, z, y;
    g.outRowCoordinates(r, b, z, y);
    forwardRowPackedFloat(g, in, packed, blockStride, blocks, out, b, z, y, c0);
    applyEpilogue(e, out + g.outRowOffset(b, z, y) * g.outChans, g.outSize[2],
                  g.outChans, c0,
                  std::min(g.outChans, c0 + blocks * chanBlock));
  }
}

// The weights of output channels [16 * block, 16 * block + 16), copied so
// that they are contiguous: [kernel element][inChans][16]. The kernel then
// walks consecutive cache lines rather than one line every outChans floats,
// which for wide layers also kept mapping to the same few cache sets.
void packWeightBlock(const Geometry &g, const float *weights, unsigned block,
                     std::vector<float> &packed) {
  const std::size_t rows =
      std::size_t(g.kernel[0]) * g.kernel[1] * g.kernel[2] * g.inChans;
  packed.resize(rows * chanBlock);
  const float *src = weights + std::size_t(block) * chanBlock;
  // The rows are a stride apart that the hardware's prefetchers follow
  // poorly: ask for a few rows ahead.
  constexpr std::size_t ahead = 16;
  for (std::size_t r = 0; r != rows; ++r) {
    if (r + ahead < rows)
      __builtin_prefetch(src + (r + ahead) * g.outChans);
    std::copy_n(src + r * g.outChans, chanBlock, packed.data() + r * chanBlock);
  }
}

// Worker `wid` of `workers`' share of a float ConvPartial. The whole blocks
// of 16 output channels are taken in tiles (two blocks of weights stored in
// blocks on AVX-512, else one), split into (tile, output row) units, tile
// by tile, each worker taking a contiguous range, so that each block's
// weights are packed once or twice per vertex rather than once per worker;
// the channels past the last whole block are shared out by rows. The
// epilogue, if any, is applied to each unit's outputs as soon as they are
// summed.
void forwardFloat(const Geometry &g, const float *in, const float *weights,
                  float *out, const Epilogue &e, unsigned wid,
                  unsigned workers) {
  const unsigned rows = g.batch * g.outSize[0] * g.outSize[1];
  const unsigned unitRows = rowsPerUnit(g);
  const unsigned rowUnits = (rows + unitRows - 1) / unitRows;
  const unsigned blocks = g.outChans / chanBlock;
  const unsigned tileBlocks =
      g.weightsBlocked && hostIsa() == HostIsa::Avx512 ? 2 : 1;
  const unsigned tiles = (blocks + tileBlocks - 1) / tileBlocks;
  // With a tile or more each, workers take whole tiles: each block's
  // weights are then read from memory and packed once in all.
  const bool wholeTiles = tiles >= workers;
  const std::size_t units = wholeTiles ? tiles : std::size_t(tiles) * rowUnits;
  const std::size_t tileUnits = wholeTiles ? rowUnits : 1;
  const std::size_t begin = units * wid / workers * tileUnits;
  const std::size_t end = units * (wid + 1) / workers * tileUnits;
  thread_local std::vector<float> packed;
  unsigned packedBlock = blocks;
  const std::size_t blockFloats = std::size_t(g.kernel[0]) * g.kernel[1] *
                                  g.kernel[2] * g.inChans * chanBlock;
  unsigned b, z, y;
  for (std::size_t u = begin; u < end; ++u) {
    const unsigned block = unsigned(u / rowUnits) * tileBlocks;
    const unsigned n = std::min(tileBlocks, blocks - block);
    // Blocked weights are read where they are; others are packed.
    const float *blockWeights = weights + block * blockFloats;
    if (!g.weightsBlocked) {
      if (block != packedBlock) {
        packWeightBlock(g, weights, block, packed);
        packedBlock = block;
      }
      blockWeights = packed.data();
    }
    const unsigned r0 = unsigned(u % rowUnits) * unitRows;
    forwardRowsPackedFloat(g, in, blockWeights, blockFloats, n, out, r0,
                           std::min(rows, r0 + unitRows), block * chanBlock, e);
  }
  if (blocks * chanBlock == g.outChans)
    return;
  for (unsigned r = wid; r < rows; r += workers) {
    g.outRowCoordinates(r, b, z, y);
    forwardRowFloat(g, in, weights, out, b, z, y, blocks * chanBlock);
    applyEpilogue(e, out + g.outRowOffset(b, z, y) * g.outChans, g.outSize[2],
                  g.outChans, blocks * chanBlock, g.outChans);
  }
}

// The weight gradient is, for each kernel row (kz, ky), a matrix product
// summed over the block's positions (b, z, y, x):
//   dW[kz][ky][m][c] += A[position][m] * deltas[position][c]
// where m runs over (kx, input channel). When the kernel is not dilated
// along x, the input channels of consecutive kx are consecutive in the
// input row, so m covers all of them at once (kxGroups 1, rows
// kernel[2] * inChans); otherwise each kx is a group of inChans rows.
struct WeightGradShape {
  unsigned kxGroups; // groups of rows per kernel row
  unsigned rows;     // m per group
  unsigned groups;   // kernel rows * kxGroups

  explicit WeightGradShape(const Geometry &g) {
    const bool fused = g.dilation[2] == 1;
    kxGroups = fused ? 1 : g.kernel[2];
    rows = fused ? g.kernel[2] * g.inChans : g.inChans;
    groups = g.kernel[0] * g.kernel[1] * kxGroups;
  }
};

// Rows of m sharing a load of deltas and columns (output channels) of
// accumulators: 12 x 32 (24 AVX-512 registers) or 6 x 16 (12 AVX2 ones).
constexpr unsigned wgRowsAvx512 = 12;
constexpr unsigned wgRowsAvx2 = 6;
// Positions summed into the accumulators before they go back to memory:
// the chunk's deltas and input rows stay in the cache while every tile of
// the gradient passes over them.
constexpr unsigned wgChunkPositions = 256;

// Rows [m0, m0 + mr) by NV vectors of output channels from c0 of group
// `group`, over the output rows [rowBegin, rowEnd) (row = (b, z, y)),
// added to what `out` holds unless `first`. Each gradient element sums its
// products position by position in (b, z, y, x) order from zero, whatever
// the tile sizes, chunks and the part of the block computing it.
template <class Vec, unsigned MR, unsigned NV, bool Full>
inline __attribute__((always_inline)) void
weightGradTile(const Geometry &g, const WeightGradShape &s, const float *in,
               const float *deltas, float *out, unsigned group, unsigned m0,
               unsigned mr, unsigned c0, unsigned rowBegin, unsigned rowEnd,
               bool first) {
  constexpr unsigned W = sizeof(Vec) / sizeof(float);
  const unsigned ci = g.inChans, co = g.outChans;
  const unsigned kxg = group % s.kxGroups;
  const unsigned kzy = group / s.kxGroups;
  const unsigned ky = kzy % g.kernel[1], kz = kzy / g.kernel[1];
  float *o = out + (std::size_t(kzy * g.kernel[2] + kxg) * ci + m0) * co + c0;
  Vec acc[MR][NV];
  for (unsigned q = 0; q != MR; ++q)
    for (unsigned v = 0; v != NV; ++v) {
      if (first || (!Full && q >= mr))
        acc[q][v] = Vec{};
      else
        loadVec(acc[q][v], o + std::size_t(q) * co + W * v);
    }
  unsigned idx[MR];
  for (unsigned q = 0; q != MR; ++q)
    idx[q] = Full ? q : std::min(q, mr - 1);
  const std::size_t aStep = std::size_t(g.stride[2]) * ci;
  const std::size_t xOffset =
      (std::size_t(g.base[2]) + std::size_t(kxg) * g.dilation[2]) * ci + m0;
  const unsigned ox = g.outSize[2];
  for (unsigned r = rowBegin; r != rowEnd; ++r) {
    unsigned b, z, y;
    g.outRowCoordinates(r, b, z, y);
    const float *a =
        in + g.inRowOffset(b, g.inIndex(0, z, kz), g.inIndex(1, y, ky)) * ci +
        xOffset;
    const float *d = deltas + g.outRowOffset(b, z, y) * co + c0;
    for (unsigned x = 0; x != ox; ++x, a += aStep, d += co) {
      Vec dv[NV];
      for (unsigned v = 0; v != NV; ++v)
        loadVec(dv[v], d + W * v);
      for (unsigned q = 0; q != MR; ++q) {
        const float av = a[idx[q]];
        for (unsigned v = 0; v != NV; ++v)
          acc[q][v] += av * dv[v];
      }
    }
  }
  const unsigned rowsStored = Full ? MR : mr;
  for (unsigned q = 0; q != rowsStored; ++q)
    for (unsigned v = 0; v != NV; ++v)
      storeVec(o + std::size_t(q) * co + W * v, acc[q][v]);
}

// Every output channel of rows [m0, m0 + mr) of `group`: tiles of two
// vectors, then one, then 8 channels, then single channels.
template <class Vec, unsigned MR, bool Full>
inline __attribute__((always_inline)) void
weightGradRows(const Geometry &g, const WeightGradShape &s, const float *in,
               const float *deltas, float *out, unsigned group, unsigned m0,
               unsigned mr, unsigned rowBegin, unsigned rowEnd, bool first) {
  constexpr unsigned W = sizeof(Vec) / sizeof(float);
  const unsigned co = g.outChans;
  unsigned c0 = 0;
  for (; c0 + 2 * W <= co; c0 += 2 * W)
    weightGradTile<Vec, MR, 2, Full>(g, s, in, deltas, out, group, m0, mr, c0,
                                     rowBegin, rowEnd, first);
  for (; c0 + W <= co; c0 += W)
    weightGradTile<Vec, MR, 1, Full>(g, s, in, deltas, out, group, m0, mr, c0,
                                     rowBegin, rowEnd, first);
  if constexpr (W > 8)
    for (; c0 + 8 <= co; c0 += 8)
      weightGradTile<f32x8, MR, 1, Full>(g, s, in, deltas, out, group, m0, mr,
                                         c0, rowBegin, rowEnd, first);
  for (; c0 != co; ++c0)
    weightGradTile<float, MR, 1, Full>(g, s, in, deltas, out, group, m0, mr,
                                       c0, rowBegin, rowEnd, first);
}

// Units [begin, end) of a float weight gradient, a unit being MR rows of
// one group (the groups' units one after the other), chunk of positions by
// chunk of positions.
template <class Vec, unsigned MR>
inline __attribute__((always_inline)) void
weightGradUnits(const Geometry &g, const float *in, const float *deltas,
                float *out, std::size_t begin, std::size_t end) {
  const WeightGradShape s(g);
  const unsigned unitsPerGroup = (s.rows + MR - 1) / MR;
  const unsigned outRows = g.batch * g.outSize[0] * g.outSize[1];
  const unsigned chunkRows =
      std::max(1u, wgChunkPositions / std::max(1u, g.outSize[2]));
  // (With no positions one empty chunk writes the zeros.)
  for (unsigned r0 = 0; r0 == 0 || r0 < outRows; r0 += chunkRows) {
    const unsigned r1 = std::min(outRows, r0 + chunkRows);
    for (std::size_t u = begin; u < end; ++u) {
      const unsigned group = unsigned(u / unitsPerGroup);
      const unsigned m0 = unsigned(u % unitsPerGroup) * MR;
      const unsigned mr = std::min(MR, s.rows - m0);
      if (mr == MR)
        weightGradRows<Vec, MR, true>(g, s, in, deltas, out, group, m0, mr, r0,
                                      r1, r0 == 0);
      else
        weightGradRows<Vec, MR, false>(g, s, in, deltas, out, group, m0, mr,
                                       r0, r1, r0 == 0);
    }
  }
}

#ifdef CONV_HAVE_X86_CLONES
CONV_TARGET_AVX2 void weightGradUnitsAvx2(const Geometry &g, const float *in,
                                          const float *deltas, float *out,
                                          std::size_t begin, std::size_t end) {
  weightGradUnits<f32x8, wgRowsAvx2>(g, in, deltas, out, begin, end);
}
CONV_TARGET_AVX512 void weightGradUnitsAvx512(const Geometry &g,
                                              const float *in,
                                              const float *deltas, float *out,
                                              std::size_t begin,
                                              std::size_t end) {
  weightGradUnits<f32x16, wgRowsAvx512>(g, in, deltas, out, begin, end);
}
#endif

// The units of the widest kernel the host runs, each MR rows of a group.
std::size_t weightGradUnitCount(const Geometry &g) {
  unsigned rowsPerUnit = posBlock;
#ifdef CONV_HAVE_X86_CLONES
  if (hostIsa() == HostIsa::Avx512)
    rowsPerUnit = wgRowsAvx512;
  else if (hostIsa() == HostIsa::Avx2)
    rowsPerUnit = wgRowsAvx2;
#endif
  const WeightGradShape s(g);
  return std::size_t(s.groups) * ((s.rows + rowsPerUnit - 1) / rowsPerUnit);
}

// Share `part` of `parts` of a float weight gradient: a contiguous range of
// units, so that every gradient element is computed by one part.
void weightGradFloat(const Geometry &g, const float *in, const float *deltas,
                     float *out, unsigned part, unsigned parts) {
  const std::size_t units = weightGradUnitCount(g);
  const std::size_t begin = units * part / parts;
  const std::size_t end = units * (part + 1) / parts;
  if (begin == end)
    return;
#ifdef CONV_HAVE_X86_CLONES
  switch (hostIsa()) {
  case HostIsa::Avx512:
    return weightGradUnitsAvx512(g, in, deltas, out, begin, end);
  case HostIsa::Avx2:
    return weightGradUnitsAvx2(g, in, deltas, out, begin, end);
  case HostIsa::Baseline:
    break;
  }
#endif
  weightGradUnits<f32x8, posBlock>(g, in, deltas, out, begin, end);
}

// Worker `wid`'s share of a float block: a large block is computed by the
// first worker in hostParts fixed parts on the runtime's host threads.
void forwardFloatVertex(Geometry &g, const float *in, const float *weights,
                        float *out, const Epilogue &e, unsigned wid,
                        unsigned workers) {
  const PaddingZeros zeros(g);
  if (forwardMacs(g) < hostThreadsMacs) {
    forwardFloat(g, in, weights, out, e, wid, workers);
    return;
  }
  if (wid == 0)
    poplar::detail::forEachOnHostThreads(hostParts, [&](std::size_t part) {
      forwardFloat(g, in, weights, out, e, unsigned(part), hostParts);
    });
}

} // namespace

// ConvPartial: the float partial sums of one block of a convolution's
// output over the block's input channels. A MultiVertex: the workers share
// the output rows. A large float block is computed by the first worker on
// the runtime's host threads, in hostParts fixed parts; every output
// element is computed by the same code whichever part and thread computes
// it, so the result does not depend on the thread count.
template <class InType> class ConvPartial : public poplar::MultiVertex {
public:
  poplar::Input<poplar::Vector<InType>> in;
  poplar::Input<poplar::Vector<InType>> weights;
  poplar::Output<poplar::Vector<float>> out;
  poplar::Vector<unsigned> geometry;

  void compute(unsigned wid) {
    Geometry g(geometry);
    if constexpr (std::is_same_v<InType, float>) {
      forwardFloatVertex(g, in.data(), weights.data(), out.data(), Epilogue(),
                         wid, numWorkers());
      return;
    }
    const unsigned rows = g.batch * g.outSize[0] * g.outSize[1];
    // Other input types: the worker converts the weights to float once.
    thread_local std::vector<float> weightsF;
    if (wid < rows)
      weightsF.assign(weights.begin(), weights.end());
    for (unsigned r = wid; r < rows; r += numWorkers()) {
      unsigned b, z, y;
      g.outRowCoordinates(r, b, z, y);
      forwardRowConverted(g, weightsF.data(), b, z, y);
    }
  }

private:
  // Other input types: the input rows output row (b, z, y) reads are
  // converted to float and the float kernel runs on them.
  void forwardRowConverted(const Geometry &g, const float *weightsF,
                           unsigned b, unsigned z, unsigned y) {
    thread_local std::vector<float> rowsF;
    Geometry local = g;
    local.batch = 1;
    for (unsigned d = 0; d != 2; ++d) {
      local.inSize[d] = g.kernel[d];
      local.outSize[d] = 1;
      local.base[d] = 0;
      local.stride[d] = 1;
      local.dilation[d] = 1;
      local.stored[d] = local.inSize[d];
    }
    const std::size_t rowLength = std::size_t(g.inSize[2]) * g.inChans;
    rowsF.resize(std::size_t(g.kernel[0]) * g.kernel[1] * rowLength);
    float *dst = rowsF.data();
    for (unsigned kz = 0; kz != g.kernel[0]; ++kz)
      for (unsigned ky = 0; ky != g.kernel[1]; ++ky) {
        const InType *src =
            in.data() +
            g.inRowOffset(b, g.inIndex(0, z, kz), g.inIndex(1, y, ky)) *
                g.inChans;
        dst = std::copy(src, src + rowLength, dst);
      }
    forwardRowFloat(local, rowsF.data(), weightsF,
                    out.data() + g.outRowOffset(b, z, y) * g.outChans, 0, 0,
                    0);
  }
};

template class ConvPartial<float>;
template class ConvPartial<half>;

// ConvPartialEpilogue: ConvPartial<float> of a block of a convolution's
// final output (the CPU device, given a poplin::ConvEpilogue). As each
// unit of output rows and channels is summed, the channels' biases are
// added (`biases`: none, or one vector of the block's output channels) and
// the outputs clamped (`clamp`: none, or the lower and upper bound), while
// they are in cache (ConvEpilogue.hpp).
class ConvPartialEpilogue : public poplar::MultiVertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Input<poplar::Vector<float>> weights;
  poplar::Output<poplar::Vector<float>> out;
  poplar::Vector<unsigned> geometry;
  poplar::Vector<poplar::Input<poplar::Vector<float>>> biases;
  poplar::Vector<float> clamp;

  void compute(unsigned wid) {
    Geometry g(geometry);
    forwardFloatVertex(g, in.data(), weights.data(), out.data(),
                       epilogueOf(biases, clamp), wid, numWorkers());
  }
};

// ConvWeightGradPartial: the float partial weight gradient of one block of
// weights over the block's batch and output positions. A MultiVertex: the
// workers share the gradient's units (rows of a kernel row's product). A
// large float block is computed by the first worker on the runtime's host
// threads, in hostParts fixed parts; each gradient element is computed by
// one part with the same code, so the result does not depend on the thread
// count.
template <class InType>
class ConvWeightGradPartial : public poplar::MultiVertex {
public:
  poplar::Input<poplar::Vector<InType>> in;
  poplar::Input<poplar::Vector<InType>> deltas;
  poplar::Output<poplar::Vector<float>> out;
  poplar::Vector<unsigned> geometry;

  void compute(unsigned wid) {
    const Geometry g(geometry);
    const bool onHostThreads = forwardMacs(g) >= hostThreadsMacs;
    if (onHostThreads && wid != 0)
      return;
    if constexpr (std::is_same_v<InType, float>) {
      run(g, in.data(), deltas.data(), wid, onHostThreads);
    } else {
      // Other input types: the worker converts the operands to float and
      // runs the float kernel on its share.
      thread_local std::vector<float> inF, deltasF;
      inF.assign(in.begin(), in.end());
      deltasF.assign(deltas.begin(), deltas.end());
      run(g, inF.data(), deltasF.data(), wid, onHostThreads);
    }
  }

private:
  void run(const Geometry &g, const float *inF, const float *deltasF,
           unsigned wid, bool onHostThreads) {
    if (!onHostThreads) {
      weightGradFloat(g, inF, deltasF, out.data(), wid, numWorkers());
      return;
    }
    poplar::detail::forEachOnHostThreads(hostParts, [&](std::size_t part) {
      weightGradFloat(g, inF, deltasF, out.data(), unsigned(part), hostParts);
    });
  }
};

template class ConvWeightGradPartial<float>;
template class ConvWeightGradPartial<half>;

// ConvReduce: out[i] = the sum over p of partials[p][i], in float, rounded
// once to OutType. A MultiVertex: the workers share contiguous ranges.
template <class OutType> class ConvReduce : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<float>>> partials;
  poplar::Output<poplar::Vector<OutType>> out;

  void compute(unsigned wid) {
    const std::size_t n = out.size();
    const std::size_t begin = n * wid / numWorkers();
    const std::size_t end = n * (wid + 1) / numWorkers();
    const unsigned depth = partials.size();
#if defined(__AVX512F__)
    // 16 elements a vector, the last under a mask (masked-off lanes neither
    // load nor raise exceptions): the same additions in the same order as
    // below, from +0 in partial order.
    if constexpr (std::is_same_v<OutType, float>) {
      float *o = out.data();
      for (std::size_t i = begin; i < end; i += 16) {
        const std::size_t n = std::min<std::size_t>(16, end - i);
        const __mmask16 m = __mmask16(n == 16 ? 0xffffu : (1u << n) - 1);
        __m512 acc = _mm512_setzero_ps();
        for (unsigned p = 0; p != depth; ++p)
          acc = _mm512_maskz_add_ps(
              m, acc, _mm512_maskz_loadu_ps(m, partials[p].data() + i));
        _mm512_mask_storeu_ps(o + i, m, acc);
      }
      return;
    }
#endif
    for (std::size_t i0 = begin; i0 < end; i0 += 64) {
      const std::size_t i1 = std::min(end, i0 + 64);
      float acc[64] = {};
      for (unsigned p = 0; p != depth; ++p) {
        const float *src = partials[p].data();
        for (std::size_t i = i0; i != i1; ++i)
          acc[i - i0] += src[i];
      }
      for (std::size_t i = i0; i != i1; ++i)
        out[i] = static_cast<OutType>(acc[i - i0]);
    }
  }
};

template class ConvReduce<float>;
template class ConvReduce<half>;

} // namespace poplin
