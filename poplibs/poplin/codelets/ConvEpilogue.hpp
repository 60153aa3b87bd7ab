// What the CPU device's FLOAT convolution vertices (ConvPartialEpilogue,
// DepthwiseConvPartial) do to their outputs when poplin::convolution is
// given a ConvEpilogue: each output, once summed, gets its channel's bias
// added and is clamped, while its row is still in cache. The operations
// are addBias's and popops' Clamp's (MINIMUM, then MAXIMUM): the same
// additions, quiet comparisons and selections, so the same bits and the
// same floating-point exceptions.
#ifndef POPLIN_CODELETS_CONVEPILOGUE_HPP
#define POPLIN_CODELETS_CONVEPILOGUE_HPP

#include "ConvKernelCommon.hpp"

#include <algorithm>
#include <cstddef>
#ifdef __x86_64__
#include <immintrin.h>
#endif

namespace poplin {
namespace conv_kernel {

/// A bias per output channel of the block (or none), then bounds to clamp
/// to (or none; never NaN: poplin then runs the clamp as its own map).
struct Epilogue {
  const float *biases = nullptr;
  bool clamp = false;
  float lower = 0.0f, upper = 0.0f;
  bool any() const { return biases || clamp; }
};

/// The epilogue of a vertex's fields: `biases` none or one vector of the
/// block's output channels, `clamp` none or the two bounds.
template <class Biases, class Clamp>
Epilogue epilogueOf(const Biases &biases, const Clamp &clamp) {
  Epilogue e;
  if (biases.size() == 1)
    e.biases = biases[0].data();
  if (clamp.size() == 2) {
    e.clamp = true;
    e.lower = clamp[0];
    e.upper = clamp[1];
  }
  return e;
}

// min(v, upper) then max(v, lower) as popops computes them for bounds that
// are not NaN: a NaN output stays NaN.
inline float clampScalar(float v, float lower, float upper) {
  v = __builtin_isless(upper, v) ? upper : v;
  return __builtin_isless(v, lower) ? lower : v;
}

// The epilogue of channel c's output v.
inline float epilogueScalar(const Epilogue &e, float v, unsigned c) {
  if (e.biases)
    v = v + e.biases[c];
  return e.clamp ? clampScalar(v, e.lower, e.upper) : v;
}

inline void epilogueBaseline(const Epilogue &e, float *out,
                             std::size_t positions, std::size_t stride,
                             unsigned c0, unsigned c1) {
  for (std::size_t p = 0; p != positions; ++p) {
    float *o = out + p * stride;
    for (unsigned c = c0; c != c1; ++c)
      o[c] = epilogueScalar(e, o[c], c);
  }
}

#ifdef CONV_HAVE_X86_CLONES
// The epilogue of the channels from c of a vector of sums under mask m
// (its other lanes read as zeros, which raise nothing).
CONV_TARGET_AVX512 inline __attribute__((always_inline)) __m512
epilogueAvx512(const Epilogue &e, __m512 v, unsigned c, __mmask16 m) {
  if (e.biases)
    v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(m, e.biases + c));
  if (e.clamp) {
    const __m512 lower = _mm512_set1_ps(e.lower),
                 upper = _mm512_set1_ps(e.upper);
    v = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(upper, v, _CMP_LT_OQ), v,
                             upper);
    v = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, lower, _CMP_LT_OQ), v,
                             lower);
  }
  return v;
}

// Sixteen channels a vector, the last under a mask.
CONV_TARGET_AVX512 inline void epilogueAvx512(const Epilogue &e, float *out,
                                              std::size_t positions,
                                              std::size_t stride, unsigned c0,
                                              unsigned c1) {
  for (std::size_t p = 0; p != positions; ++p) {
    float *o = out + p * stride;
    for (unsigned c = c0; c < c1; c += 16) {
      const unsigned n = std::min(16u, c1 - c);
      const __mmask16 m = __mmask16((1u << n) - 1);
      _mm512_mask_storeu_ps(
          o + c, m, epilogueAvx512(e, _mm512_maskz_loadu_ps(m, o + c), c, m));
    }
  }
}

// The epilogue of the 8 channels from c of a vector of sums.
CONV_TARGET_AVX2 inline __attribute__((always_inline)) __m256
epilogueAvx2(const Epilogue &e, __m256 v, unsigned c) {
  if (e.biases)
    v = _mm256_add_ps(v, _mm256_loadu_ps(e.biases + c));
  if (e.clamp) {
    const __m256 lower = _mm256_set1_ps(e.lower),
                 upper = _mm256_set1_ps(e.upper);
    v = _mm256_blendv_ps(v, upper, _mm256_cmp_ps(upper, v, _CMP_LT_OQ));
    v = _mm256_blendv_ps(v, lower, _mm256_cmp_ps(v, lower, _CMP_LT_OQ));
  }
  return v;
}

// Eight channels a vector; the channels past the last whole vector one by
// one.
CONV_TARGET_AVX2 inline void epilogueAvx2(const Epilogue &e, float *out,
                                          std::size_t positions,
                                          std::size_t stride, unsigned c0,
                                          unsigned c1) {
  for (std::size_t p = 0; p != positions; ++p) {
    float *o = out + p * stride;
    unsigned c = c0;
    for (; c + 8 <= c1; c += 8)
      _mm256_storeu_ps(o + c, epilogueAvx2(e, _mm256_loadu_ps(o + c), c));
    for (; c != c1; ++c)
      o[c] = epilogueScalar(e, o[c], c);
  }
}
#endif

/// The epilogue of channels [c0, c1) at `positions` positions `stride`
/// floats apart from `out` (channel c of position p at out[p * stride + c]).
inline void applyEpilogue(const Epilogue &e, float *out, std::size_t positions,
                          std::size_t stride, unsigned c0, unsigned c1) {
  if (!e.any() || c0 == c1 || positions == 0)
    return;
#ifdef CONV_HAVE_X86_CLONES
  switch (hostIsa()) {
  case HostIsa::Avx512:
    return epilogueAvx512(e, out, positions, stride, c0, c1);
  case HostIsa::Avx2:
    return epilogueAvx2(e, out, positions, stride, c0, c1);
  case HostIsa::Baseline:
    break;
  }
#endif
  epilogueBaseline(e, out, positions, stride, c0, c1);
}

} // namespace conv_kernel
} // namespace poplin

#endif // POPLIN_CODELETS_CONVEPILOGUE_HPP
