// Host threads for one vertex's work. On the CPU device a whole product can
// be one vertex on the one tile, and the runtime runs a vertex (with all
// its workers) on one host thread; a codelet with a large, divisible job
// hands its independent parts to the runtime's threads through this.
//
// The runtime installs its parallel loop in each codelet object when it
// loads it (codelet_interface::VertexInfo::setHostParallelFor); without
// one (or for fewer than two parts) the parts run in order on the calling
// thread. Each part must write memory no other part touches and must not
// draw stochastic-rounding bits, so that the result does not depend on
// the number of threads or on which thread ran which part. The tile's
// floating-point behaviour is set on every thread that runs a part, and
// the exception flags the parts raise are raised on the calling thread,
// where the runtime checks them after compute().
//
// This header is included by codelets and by the code popc generates, not
// by users.
#ifndef POPLAR_DETAIL_HOSTPARALLEL_HPP
#define POPLAR_DETAIL_HOSTPARALLEL_HPP

#include <poplar/detail/HalfBits.hpp>

#include <atomic>
#include <cfenv>
#include <cstddef>

namespace poplar {
namespace detail {

/// Runs body(context, i) for every i in [0, n), possibly on several
/// threads, and returns when all have run.
using HostParallelFor = void (*)(std::size_t n,
                                 void (*body)(void *context, std::size_t i),
                                 void *context);

/// This codelet object's loop, installed by the runtime.
inline HostParallelFor &hostParallelFor() {
  static HostParallelFor loop = nullptr;
  return loop;
}

/// f(i) for every i in [0, n), on the runtime's host threads.
template <class F> void forEachOnHostThreads(std::size_t n, F &&f) {
  const HostParallelFor loop = hostParallelFor();
  if (!loop || n < 2) {
    for (std::size_t i = 0; i != n; ++i)
      f(i);
    return;
  }
  struct Context {
    F *f;
    std::uint32_t behaviour;
    std::atomic<int> raised{0};
  } context{&f, floatingPointControl().behaviour};
  loop(
      n,
      [](void *c, std::size_t i) {
        Context &ctx = *static_cast<Context *>(c);
        FloatingPointControl &control = floatingPointControl();
        const FloatingPointControl saved = control;
        fexcept_t flags;
        std::fegetexceptflag(&flags, FE_ALL_EXCEPT);
        std::feclearexcept(FE_ALL_EXCEPT);
        control.behaviour = ctx.behaviour;
        (*ctx.f)(i);
        ctx.raised.fetch_or(std::fetestexcept(FE_ALL_EXCEPT),
                            std::memory_order_relaxed);
        std::fesetexceptflag(&flags, FE_ALL_EXCEPT);
        control = saved;
      },
      &context);
  if (const int raised = context.raised.load(std::memory_order_relaxed))
    std::feraiseexcept(raised);
}

} // namespace detail
} // namespace poplar

#endif // POPLAR_DETAIL_HOSTPARALLEL_HPP
