// Memory for the large arrays of a graph and its compiled plan, in huge
// pages where the kernel gives them on request.
//
// A graph of a million vertices fills a few hundred megabytes in one go.
// Where transparent huge pages are "madvise" only, as on many virtual
// machines, each 4-KiB page of it costs a fault, and the faults took a
// fifth to a third of such a graph's build and compile. Arrays of 2 MiB
// or more are placed on 2-MiB boundaries and advised for huge pages, which
// take those faults 512 pages at a time. Elsewhere it changes nothing.
#ifndef POPLAR_SRC_CORE_HUGEPAGES_HPP
#define POPLAR_SRC_CORE_HUGEPAGES_HPP

#include <cstddef>
#include <memory_resource>
#include <vector>

namespace poplar {

/// Allocates `bytes` (huge-page aligned and advised from 2 MiB on) or
/// throws std::bad_alloc; free with deallocateLarge and the same size.
void *allocateLarge(std::size_t bytes);
void deallocateLarge(void *p, std::size_t bytes) noexcept;

/// std::allocator for arrays that may be large.
template <class T> struct LargeArrayAllocator {
  using value_type = T;
  LargeArrayAllocator() = default;
  template <class U> LargeArrayAllocator(const LargeArrayAllocator<U> &) {}
  T *allocate(std::size_t n) {
    return static_cast<T *>(allocateLarge(n * sizeof(T)));
  }
  void deallocate(T *p, std::size_t n) noexcept {
    deallocateLarge(p, n * sizeof(T));
  }
  friend bool operator==(LargeArrayAllocator, LargeArrayAllocator) {
    return true;
  }
  friend bool operator!=(LargeArrayAllocator, LargeArrayAllocator) {
    return false;
  }
};

template <class T> using LargeVector = std::vector<T, LargeArrayAllocator<T>>;

/// The memory resource of the same (for monotonic buffers, whose later
/// buffers grow past 2 MiB).
std::pmr::memory_resource *largeArrayResource();

} // namespace poplar

#endif // POPLAR_SRC_CORE_HUGEPAGES_HPP
