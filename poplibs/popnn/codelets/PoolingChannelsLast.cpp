// PoolingChannelsLast, the CPU device's FLOAT pooling of activations stored
// channels innermost (as its convolutions leave them): the input read where
// it is, every channel of a window at once, rather than a plane per channel
// gathered element by element. Each output is its window reduced in the
// same order, with the same operations, as Pooling reduces a plane's, so
// the bits are those of Pooling.
#include "PoolingGeometry.hpp"

#include <popnn/PoolingDef.hpp>

#include <poplar/Vertex.hpp>
#include <poplar/detail/HostParallel.hpp>

#include <algorithm>
#include <cstddef>
#include <limits>
#ifdef __x86_64__
#include <immintrin.h>
#endif

namespace popnn {
namespace {

// Channels a position holds at a time in the portable loop.
constexpr unsigned channelBlock = 64;

// The output of position (o0, o1, o2) of one batch element, channels [c0,
// c0 + n), n <= channelBlock: Pooling's loop, each channel in its own lane.
template <PoolingType type>
inline void poolChannels(const Geometry &g, const float *x, float *y,
                         unsigned channels, unsigned o0, unsigned o1,
                         unsigned o2, unsigned c0, unsigned n) {
  float acc[channelBlock];
  std::fill_n(acc, n,
              type == PoolingType::MAX ? -std::numeric_limits<float>::infinity()
                                       : 0.0f);
  unsigned count = 0;
  g.forEachInput(o0, o1, o2, [&](unsigned i) {
    const float *v = x + std::size_t(i) * channels + c0;
    for (unsigned c = 0; c != n; ++c)
      acc[c] = type == PoolingType::MAX ? (v[c] > acc[c] ? v[c] : acc[c])
                                        : acc[c] + v[c];
    ++count;
  });
  for (unsigned c = 0; c != n; ++c) {
    float r = acc[c];
    if (count == 0)
      r = 0.0f; // a window entirely in padding
    else if (type == PoolingType::AVG)
      r /= float(count);
    y[c0 + c] = r;
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#define POOL_HAVE_AVX512 1
// The same on AVX-512, 16 channels a vector under a mask for the last:
// the maximum by a signalling greater-than (as `v > acc` compares),
// masked-off lanes neither loaded nor computed.
template <PoolingType type>
__attribute__((target("avx512f"))) void
poolPositionAvx512(const Geometry &g, const float *x, float *y,
                   unsigned channels, unsigned o0, unsigned o1, unsigned o2) {
  // The window's inputs in Geometry::forEachInput's order (a lambda would
  // not be compiled for AVX-512).
  int lo[3], hi[3];
  g.window(o0, o1, o2, lo, hi);
  const unsigned count = g.count(o0, o1, o2);
  for (unsigned c0 = 0; c0 < channels; c0 += 16) {
    const unsigned n = std::min(16u, channels - c0);
    const __mmask16 m = __mmask16(n == 16 ? 0xffffu : (1u << n) - 1);
    __m512 acc = _mm512_set1_ps(type == PoolingType::MAX
                                    ? -std::numeric_limits<float>::infinity()
                                    : 0.0f);
    for (int i0 = lo[0]; i0 < hi[0]; ++i0)
      for (int i1 = lo[1]; i1 < hi[1]; ++i1)
        for (int i2 = lo[2]; i2 < hi[2]; ++i2) {
          const std::size_t i =
              (std::size_t(i0) * g.in[1] + unsigned(i1)) * g.in[2] +
              unsigned(i2);
          const __m512 v = _mm512_maskz_loadu_ps(m, x + i * channels + c0);
          if constexpr (type == PoolingType::MAX)
            acc = _mm512_mask_blend_ps(
                _mm512_mask_cmp_ps_mask(m, v, acc, _CMP_GT_OS), acc, v);
          else
            acc = _mm512_maskz_add_ps(m, acc, v);
        }
    if (count == 0)
      acc = _mm512_setzero_ps();
    else if (type == PoolingType::AVG)
      acc = _mm512_maskz_div_ps(m, acc, _mm512_set1_ps(float(count)));
    _mm512_mask_storeu_ps(y + c0, m, acc);
  }
}

// The same on AVX2, 8 channels a vector, the channels past the last whole
// vector by poolChannels. Written out so that each sum is `acc + v` with
// acc first, as Pooling adds: where both are NaN the result is acc's NaN
// (the portable loop, vectorised by the compiler, may add them the other
// way round).
template <PoolingType type>
__attribute__((target("avx2"))) void
poolPositionAvx2(const Geometry &g, const float *x, float *y, unsigned channels,
                 unsigned o0, unsigned o1, unsigned o2) {
  int lo[3], hi[3];
  g.window(o0, o1, o2, lo, hi);
  const unsigned count = g.count(o0, o1, o2);
  const unsigned vectorChannels = channels / 8 * 8;
  for (unsigned c0 = 0; c0 != vectorChannels; c0 += 8) {
    __m256 acc = _mm256_set1_ps(type == PoolingType::MAX
                                    ? -std::numeric_limits<float>::infinity()
                                    : 0.0f);
    for (int i0 = lo[0]; i0 < hi[0]; ++i0)
      for (int i1 = lo[1]; i1 < hi[1]; ++i1)
        for (int i2 = lo[2]; i2 < hi[2]; ++i2) {
          const std::size_t i =
              (std::size_t(i0) * g.in[1] + unsigned(i1)) * g.in[2] +
              unsigned(i2);
          const __m256 v = _mm256_loadu_ps(x + i * channels + c0);
          if constexpr (type == PoolingType::MAX)
            acc = _mm256_blendv_ps(acc, v, _mm256_cmp_ps(v, acc, _CMP_GT_OS));
          else
            acc = _mm256_add_ps(acc, v);
        }
    if (count == 0)
      acc = _mm256_setzero_ps();
    else if (type == PoolingType::AVG)
      acc = _mm256_div_ps(acc, _mm256_set1_ps(float(count)));
    _mm256_storeu_ps(y + c0, acc);
  }
  if (vectorChannels != channels)
    poolChannels<type>(g, x, y, channels, o0, o1, o2, vectorChannels,
                       channels - vectorChannels);
}
#endif

// Output positions [begin, end) of the batch * outputs positions.
template <PoolingType type>
void poolPositions(const Geometry &g, const float *in, float *out,
                   unsigned channels, std::size_t begin, std::size_t end) {
  const std::size_t outputs = g.outputs();
  const std::size_t inputs = std::size_t(g.in[0]) * g.in[1] * g.in[2];
#ifdef POOL_HAVE_AVX512
  static const bool avx512 = [] {
    __builtin_cpu_init();
    return bool(__builtin_cpu_supports("avx512f"));
  }();
  static const bool avx2 = __builtin_cpu_supports("avx2");
#endif
  for (std::size_t p = begin; p != end; ++p) {
    const std::size_t b = p / outputs, o = p % outputs;
    const unsigned o2 = unsigned(o % g.out[2]);
    const unsigned o1 = unsigned(o / g.out[2] % g.out[1]);
    const unsigned o0 = unsigned(o / g.out[2] / g.out[1]);
    const float *x = in + b * inputs * channels;
    float *y = out + p * channels;
#ifdef POOL_HAVE_AVX512
    if (avx512) {
      poolPositionAvx512<type>(g, x, y, channels, o0, o1, o2);
      continue;
    }
    if (avx2) {
      poolPositionAvx2<type>(g, x, y, channels, o0, o1, o2);
      continue;
    }
#endif
    for (unsigned c0 = 0; c0 < channels; c0 += channelBlock)
      poolChannels<type>(g, x, y, channels, o0, o1, o2, c0,
                         std::min(channelBlock, channels - c0));
  }
}

// Fixed parts of a large pooling for the host threads: every output is
// computed by the same code whichever part and thread computes it.
constexpr std::size_t hostParts = 16;
// Window elements (times channels) below which the parts are not worth
// the threads.
constexpr std::size_t hostThreadsWork = std::size_t(1) << 18;

} // namespace

// out = the max, mean or sum of each window of in:
//   in   [batch][in0][in1][in2][channels]
//   out  [batch][out0][out1][out2][channels]
template <class T, PoolingType type>
class PoolingChannelsLast : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<T>> in;
  poplar::Output<poplar::Vector<T>> out;
  unsigned batch, channels;
  POOLING_GEOMETRY_FIELDS

  bool compute() {
    const Geometry g = geometry();
    const std::size_t positions = std::size_t(batch) * g.outputs();
    const std::size_t work =
        positions * g.kernel[0] * g.kernel[1] * g.kernel[2] * channels;
    const std::size_t parts = work < hostThreadsWork ? 1 : hostParts;
    poplar::detail::forEachOnHostThreads(parts, [&](std::size_t part) {
      poolPositions<type>(g, in.data(), out.data(), channels,
                          positions * part / parts,
                          positions * (part + 1) / parts);
    });
    return true;
  }
};

template class PoolingChannelsLast<float, PoolingType::MAX>;
template class PoolingChannelsLast<float, PoolingType::AVG>;
template class PoolingChannelsLast<float, PoolingType::SUM>;

} // namespace popnn
