#include "runtime/HostParallelFor.hpp"
#include "runtime/ParallelFor.hpp"

#include <tbb/task_arena.h>

namespace poplar::runtime {

void hostParallelFor(std::size_t n, void (*body)(void *context, std::size_t i),
                     void *context) {
  tbb::this_task_arena::isolate([&] {
    parallelFor(std::size_t(0), n, [&](std::size_t i) { body(context, i); });
  });
}

} // namespace poplar::runtime
