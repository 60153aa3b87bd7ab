// What the convolution codelets (ConvPartial.cpp, DepthwiseConvPartial.cpp)
// share: the block geometry they are given, the instruction sets their
// float kernels are compiled for, eight- and sixteen-float vectors, and
// when a block is large enough to share out over the host's threads.
#ifndef POPLIN_CODELETS_CONVKERNELCOMMON_HPP
#define POPLIN_CODELETS_CONVKERNELCOMMON_HPP

#include <cstddef>

namespace poplin {
namespace conv_kernel {

// The float kernels are compiled three times on x86-64 (baseline, AVX2 with
// FMA, AVX-512) and the widest the host supports is chosen once.
#if defined(__x86_64__) && defined(__GNUC__)
#define CONV_HAVE_X86_CLONES 1
#define CONV_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define CONV_TARGET_AVX512 __attribute__((target("avx512f,avx512vl,avx2,fma")))
#endif

enum class HostIsa { Baseline, Avx2, Avx512 };

inline HostIsa hostIsa() {
#ifdef CONV_HAVE_X86_CLONES
  static const HostIsa isa = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl"))
      return HostIsa::Avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
      return HostIsa::Avx2;
    return HostIsa::Baseline;
  }();
  return isa;
#else
  return HostIsa::Baseline;
#endif
}

/// Element 21 of a vertex's geometry, when present: ConvPartial's float
/// weights come in blocks of 16 output channels, [outChans / 16][kernel
/// element][inChans][16], the layout the kernel reads (the CPU device's
/// weights are stored so), rather than [kernel element][inChans][outChans].
constexpr unsigned weightsBlockedIndex = 21;

struct Geometry {
  unsigned batch, inChans, outChans;
  unsigned inSize[3], outSize[3], kernel[3], dilation[3], stride[3], base[3];
  bool weightsBlocked = false;

  template <class Vec> explicit Geometry(const Vec &g) {
    batch = g[0];
    inChans = g[1];
    outChans = g[2];
    for (unsigned d = 0; d != 3; ++d) {
      const unsigned *p = &g[3 + 6 * d];
      inSize[d] = p[0];
      outSize[d] = p[1];
      kernel[d] = p[2];
      dilation[d] = p[3];
      stride[d] = p[4];
      base[d] = p[5];
    }
    weightsBlocked = g.size() > weightsBlockedIndex && g[weightsBlockedIndex];
  }
  std::size_t inRowOffset(unsigned b, unsigned z, unsigned y) const {
    return ((std::size_t(b) * inSize[0] + z) * inSize[1] + y) * inSize[2];
  }
  /// Output row r of the batch * outZ * outY rows as (b, z, y).
  void outRowCoordinates(unsigned r, unsigned &b, unsigned &z,
                         unsigned &y) const {
    y = r % outSize[1];
    z = (r / outSize[1]) % outSize[0];
    b = r / (outSize[1] * outSize[0]);
  }
  std::size_t outRowOffset(unsigned b, unsigned z, unsigned y) const {
    return ((std::size_t(b) * outSize[0] + z) * outSize[1] + y) * outSize[2];
  }
  unsigned inIndex(unsigned d, unsigned o, unsigned k) const {
    return base[d] + o * stride[d] + k * dilation[d];
  }
};

// Eight floats as one GCC vector: on AVX2 one register, on the baseline
// two SSE registers.
typedef float f32x8 __attribute__((vector_size(32)));

// By reference: passing AVX vectors by value would depend on the ABI.
inline __attribute__((always_inline)) void load8(f32x8 &v, const float *p) {
  __builtin_memcpy(&v, p, sizeof v);
}
inline __attribute__((always_inline)) void store8(float *p, const f32x8 &v) {
  __builtin_memcpy(p, &v, sizeof v);
}

// Sixteen floats: one AVX-512 register.
typedef float f32x16 __attribute__((vector_size(64)));

template <class Vec>
inline __attribute__((always_inline)) void loadVec(Vec &v, const float *p) {
  __builtin_memcpy(&v, p, sizeof v);
}
template <class Vec>
inline __attribute__((always_inline)) void storeVec(float *p, const Vec &v) {
  __builtin_memcpy(p, &v, sizeof v);
}

// Float blocks of at least this many multiply-accumulates are shared out
// over the host's threads (the IPU Model's blocks, one per tile, mostly stay
// below it; the CPU device's one tile holds whole convolutions).
constexpr double hostThreadsMacs = 1 << 22;
// The parts such a block is cut into, whatever the number of threads: each
// part is forwardFloat's share of one of this many workers.
constexpr unsigned hostParts = 24;

inline double forwardMacs(const Geometry &g) {
  return double(g.batch) * g.outSize[0] * g.outSize[1] * g.outSize[2] *
         g.kernel[0] * g.kernel[1] * g.kernel[2] * g.inChans * g.outChans;
}

} // namespace conv_kernel
} // namespace poplin

#endif // POPLIN_CODELETS_CONVKERNELCOMMON_HPP
