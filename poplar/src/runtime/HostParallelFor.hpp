// The runtime's host parallel loop that codelets reach through
// detail::forEachOnHostThreads (poplar/detail/HostParallel.hpp).
#ifndef POPLAR_SRC_RUNTIME_HOSTPARALLELFOR_HPP
#define POPLAR_SRC_RUNTIME_HOSTPARALLELFOR_HPP

#include <cstddef>

namespace poplar::runtime {

/// body(context, i) for every i in [0, n) on oneTBB's threads (within the
/// caller's limit on parallelism). The wait is isolated: a thread waiting
/// here runs only parts of this loop, never another vertex, whose
/// floating-point state would overwrite the one the waiting vertex uses.
void hostParallelFor(std::size_t n, void (*body)(void *context, std::size_t i),
                     void *context);

} // namespace poplar::runtime

#endif
