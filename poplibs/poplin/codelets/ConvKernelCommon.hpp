// What the convolution codelets (ConvPartial.cpp, DepthwiseConvPartial.cpp)
// share: the block geometry they are given, the instruction sets their
// float kernels are compiled for, eight- and sixteen-float vectors, and
// when a block is large enough to share out over the host's threads.
#ifndef POPLIN_CODELETS_CONVKERNELCOMMON_HPP
#define POPLIN_CODELETS_CONVKERNELCOMMON_HPP

#include <cstddef>
#include <vector>

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

/// Elements 22 to 27, when present (the CPU device's FLOAT ConvPartial and
/// DepthwiseConvPartial): the input's zero padding is not in memory. For
/// each dimension d, element 22 + d is the padding before the stored
/// elements and 25 + d how many are stored; inSize[d] stays the padded
/// extent that inIndex addresses. A padded element reads as zero and is
/// multiplied and added like any other, so the sums are those of the
/// padded input in memory, bit for bit.
constexpr unsigned paddingIndex = 22;

struct Geometry {
  unsigned batch, inChans, outChans;
  unsigned inSize[3], outSize[3], kernel[3], dilation[3], stride[3], base[3];
  bool weightsBlocked = false;
  // The input's padding in memory's stead (paddingIndex): the elements
  // before the stored ones, how many are stored, and zeros to read for the
  // rest (at least stored[2] * inChans floats, set by the vertex).
  bool padded = false;
  unsigned padLower[3] = {0, 0, 0};
  unsigned stored[3];
  const float *zeros = nullptr;

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
      stored[d] = inSize[d];
    }
    weightsBlocked = g.size() > weightsBlockedIndex && g[weightsBlockedIndex];
    if (g.size() >= paddingIndex + 6) {
      padded = true;
      for (unsigned d = 0; d != 3; ++d) {
        padLower[d] = g[paddingIndex + d];
        stored[d] = g[paddingIndex + 3 + d];
      }
    }
  }
  /// The offset of stored row (z, y) of batch b, z and y being padded
  /// coordinates inside the stored ones.
  std::size_t inRowOffset(unsigned b, unsigned z, unsigned y) const {
    return ((std::size_t(b) * stored[0] + (z - padLower[0])) * stored[1] +
            (y - padLower[1])) *
           stored[2];
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
  /// The padded input coordinate of output o and kernel element k.
  unsigned inIndex(unsigned d, unsigned o, unsigned k) const {
    return base[d] + o * stride[d] + k * dilation[d];
  }
  /// Whether padded coordinate i of dimension d is stored (not padding).
  bool inside(unsigned d, unsigned i) const {
    return i - padLower[d] < stored[d];
  }
  /// The stored index along x of padded coordinate i, inside.
  unsigned storedX(unsigned i) const { return i - padLower[2]; }
  /// Stored input row (z, y) of batch b (padded coordinates), or null when
  /// the row is padding.
  template <class T>
  const T *inputRow(const T *in, unsigned b, unsigned z, unsigned y) const {
    if (!inside(0, z) || !inside(1, y))
      return nullptr;
    return in + inRowOffset(b, z, y) * std::size_t(inChans);
  }
  /// The inChans elements at padded x of a row from inputRow, or zeros for
  /// padding (all-zero bits: +0 as float or half).
  template <class T> const T *inputAt(const T *row, unsigned x) const {
    if (!row || !inside(2, x))
      return reinterpret_cast<const T *>(zeros);
    return row + std::size_t(storedX(x)) * inChans;
  }
};

/// The zeros a padded geometry reads for its padding, for the time of one
/// compute: a stored row's worth (stored[2] * inChans floats), which also
/// covers one position's channels.
class PaddingZeros {
public:
  explicit PaddingZeros(Geometry &g) {
    if (!g.padded)
      return;
    zeros.assign(std::size_t(g.stored[2] ? g.stored[2] : 1) * g.inChans, 0.0f);
    g.zeros = zeros.data();
  }

private:
  std::vector<float> zeros;
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
