// Casts over a list of regions: out[r][i] = cast<Out>(in[r][i]), with the
// conversions of ElementwiseOps.hpp (ops::cast). A MultiVertex.
// A large cast (the CPU device's one tile casting a whole tensor) is done
// by the first worker on the runtime's host threads, in runs of elements,
// unless stochastic rounding is on (its draws follow the element order).
// FLOAT to HALF uses the host's F16C conversion where it gives the same
// bits and flags as the scalar rule (see castRun below).
#include "CodeletUtil.hpp"
#include "ElementwiseOps.hpp"

#include <poplar/Vertex.hpp>
#include <poplar/detail/HostParallel.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace popops {

namespace {

template <class In, class Out> void castScalar(const In *x, Out *y, unsigned n) {
  for (unsigned i = 0; i != n; ++i)
    y[i] = ops::cast<Out>(x[i]);
}

#if defined(__x86_64__)
// Whether the host converts floats to halves (CPUID leaf 1, ECX bit 29),
// with the AVX state the conversion's registers need enabled by the OS.
bool hostHasF16C() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
    return false;
  return (ecx & (1u << 29)) != 0 && __builtin_cpu_supports("avx");
}

// Eight floats at a time by F16C, rounding to nearest, ties to even: the
// same bits as poplar::detail::floatToHalfBits for every value but NaN
// (F16C keeps a NaN's payload and signals on a signalling one), so a group
// holding a NaN takes the scalar rule. An overflow raises the host's
// overflow flag, as the scalar rule does; the inexact and underflow flags
// it also raises are not ones the IPU Model traps.
__attribute__((target("avx,f16c"))) void floatToHalfF16C(const float *x,
                                                        half *y, unsigned n) {
  unsigned i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q)) != 0) {
      castScalar(x + i, y + i, 8);
      continue;
    }
    _mm_storeu_si128(reinterpret_cast<__m128i *>(y + i),
                     _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
  }
  castScalar(x + i, y + i, n - i);
}
#endif

// A run of elements cast. FLOAT to HALF goes through F16C when the host
// has it and the tile's control neither rounds stochastically nor makes
// NaN of an overflow (modes F16C does not have).
template <class In, class Out> void castRun(const In *x, Out *y, unsigned n) {
#if defined(__x86_64__)
  if constexpr (std::is_same_v<In, float> && std::is_same_v<Out, half>) {
    static const bool hasF16C = hostHasF16C();
    const std::uint32_t modes = poplar::detail::fpStochasticRounding |
                                poplar::detail::fpNanOnOverflow;
    if (hasF16C && n >= 8 &&
        (poplar::detail::floatingPointControl().behaviour & modes) == 0) {
      floatToHalfF16C(x, y, n);
      return;
    }
  }
#endif
  castScalar(x, y, n);
}

} // namespace

template <class In, class Out> class Cast2D : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<In>>> in;
  poplar::Vector<poplar::Output<poplar::Vector<Out>>> out;

  void compute(unsigned wid) {
    if (castOnHostThreads(wid))
      return;
    for (unsigned r = 0; r != out.size(); ++r) {
      const auto range = codelet::workerRange(out[r].size(), wid, numWorkers());
      castRun(in[r].data() + range.begin, out[r].data() + range.begin,
              range.end - range.begin);
    }
  }

private:
  // Casts every element on the host threads and returns true when the
  // vertex is large and no rounding draws random bits.
  bool castOnHostThreads(unsigned wid) {
    constexpr std::size_t kMinElements = std::size_t(1) << 18;
    constexpr unsigned kRun = 1u << 14;
    std::size_t total = 0;
    for (unsigned r = 0; r != out.size(); ++r)
      total += out[r].size();
    const bool stochastic = (poplar::detail::floatingPointControl().behaviour &
                             poplar::detail::fpStochasticRounding) != 0;
    if (total < kMinElements || stochastic)
      return false;
    if (wid != 0)
      return true;
    struct Run {
      unsigned row, begin, end;
    };
    std::vector<Run> runs;
    for (unsigned r = 0; r != out.size(); ++r) {
      const unsigned size = static_cast<unsigned>(out[r].size());
      for (unsigned b = 0; b < size; b += kRun)
        runs.push_back({r, b, size - b < kRun ? size : b + kRun});
    }
    poplar::detail::forEachOnHostThreads(runs.size(), [&](std::size_t t) {
      const Run &run = runs[t];
      castRun(in[run.row].data() + run.begin, out[run.row].data() + run.begin,
              run.end - run.begin);
    });
    return true;
  }
};

// Every pair of types of castTypes() in src/ExprOpInfo.cpp (the same type
// twice for cast(graph, src, dst, cs) between tensors of one type).
#define CAST_FROM(In)                                                          \
  template class Cast2D<In, float>;                                            \
  template class Cast2D<In, half>;                                             \
  template class Cast2D<In, int>;                                              \
  template class Cast2D<In, unsigned int>;                                     \
  template class Cast2D<In, short>;                                            \
  template class Cast2D<In, unsigned short>;                                   \
  template class Cast2D<In, bool>;                                             \
  template class Cast2D<In, char>;                                             \
  template class Cast2D<In, signed char>;                                      \
  template class Cast2D<In, unsigned char>;

CAST_FROM(float)
CAST_FROM(half)
CAST_FROM(int)
CAST_FROM(unsigned int)
CAST_FROM(short)
CAST_FROM(unsigned short)
CAST_FROM(bool)
CAST_FROM(char)
CAST_FROM(signed char)
CAST_FROM(unsigned char)

} // namespace popops
