// tbb::parallel_for for the runtime's loops (vertices, copies, reductions).
//
// oneTBB orders everything before a parallel_for before each of its
// iterations, and each iteration before the call returns. Debian's libtbb
// is not built with ThreadSanitizer, so in a TSan build (scripts/tsan.sh)
// that order is invisible and every iteration would be reported as a race
// with the code around the loop; there the order is told to TSan here, and
// iterations still race with each other if they touch the same data. In
// other builds this is tbb::parallel_for itself. (What is left, oneTBB's
// own atomic counters on memory its library recycles, is a race between an
// atomic and a plain access, which scripts/tsan.sh does not report.)
#ifndef POPLAR_SRC_RUNTIME_PARALLELFOR_HPP
#define POPLAR_SRC_RUNTIME_PARALLELFOR_HPP

#include <tbb/parallel_for.h>

#include <utility>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define POPLAR_TSAN 1
#endif
#endif

#ifdef POPLAR_TSAN
#include <sanitizer/tsan_interface.h>
// ThreadSanitizer's dynamic annotations (its runtime defines them).
extern "C" void AnnotateIgnoreReadsBegin(const char *file, int line);
extern "C" void AnnotateIgnoreReadsEnd(const char *file, int line);
#endif

namespace poplar::runtime {

#ifdef POPLAR_TSAN
namespace detail {
// The two edges of one parallel_for: the caller releases `start` once the
// loop's body exists and acquires `end` after the loop (also when an
// iteration throws); each chunk of iterations acquires `start` first and
// releases `end` last. A chunk reads where `start` is (from the body
// oneTBB hands it) before it can acquire it: those reads are not tracked.
struct LoopOrder {
  char start = 0;
  char end = 0;
  void begin() { __tsan_release(&start); }
  ~LoopOrder() { __tsan_acquire(&end); }
};
struct ChunkOrder {
  LoopOrder &loop;
  explicit ChunkOrder(LoopOrder &loop) : loop(loop) { __tsan_acquire(&loop.start); }
  ~ChunkOrder() { __tsan_release(&loop.end); }
};
} // namespace detail

template <class Index, class F>
void parallelFor(Index first, Index last, const F &f) {
  detail::LoopOrder order;
  const auto body = [&order, &f](Index i) {
    AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
    detail::LoopOrder &loop = order;
    const F &function = f;
    AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
    detail::ChunkOrder chunk(loop);
    function(i);
  };
  order.begin();
  tbb::parallel_for(first, last, body);
}

template <class Range, class Body, class... Partitioner>
void parallelForRange(const Range &range, const Body &body,
                      Partitioner &&...partitioner) {
  detail::LoopOrder order;
  const auto chunkBody = [&order, &body](const Range &r) {
    // The range too: oneTBB made it, in memory it recycles.
    AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
    detail::LoopOrder &loop = order;
    const Body &function = body;
    const Range part = r;
    AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
    detail::ChunkOrder chunk(loop);
    function(part);
  };
  order.begin();
  tbb::parallel_for(range, chunkBody,
                    std::forward<Partitioner>(partitioner)...);
}
#else
template <class Index, class F>
void parallelFor(Index first, Index last, const F &f) {
  tbb::parallel_for(first, last, f);
}

template <class Range, class Body, class... Partitioner>
void parallelForRange(const Range &range, const Body &body,
                      Partitioner &&...partitioner) {
  tbb::parallel_for(range, body, std::forward<Partitioner>(partitioner)...);
}
#endif

} // namespace poplar::runtime

#endif
