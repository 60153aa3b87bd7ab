#include "core/HugePages.hpp"

#include <cstdint>
#include <cstdlib>
#include <new>

#include <sys/mman.h>

namespace poplar {
namespace {

constexpr std::size_t hugePage = std::size_t(2) << 20;

std::size_t mappedBytes(std::size_t bytes) {
  return (bytes + hugePage - 1) / hugePage * hugePage;
}

class LargeArrayResource final : public std::pmr::memory_resource {
  // Alignments up to a huge page's (what a monotonic buffer asks for).
  void *do_allocate(std::size_t bytes, std::size_t alignment) override {
    if (alignment > hugePage)
      throw std::bad_alloc();
    if (alignment > alignof(std::max_align_t) && bytes < hugePage)
      return ::operator new(bytes, std::align_val_t(alignment));
    return allocateLarge(bytes);
  }
  void do_deallocate(void *p, std::size_t bytes,
                     std::size_t alignment) override {
    if (alignment > alignof(std::max_align_t) && bytes < hugePage)
      ::operator delete(p, std::align_val_t(alignment));
    else
      deallocateLarge(p, bytes);
  }
  bool do_is_equal(const memory_resource &other) const noexcept override {
    return this == &other;
  }
};

} // namespace

// Whole huge pages, mapped apart from the heap: aligned blocks carved out
// of glibc's heap fragmented it for every small allocation after them.
void *allocateLarge(std::size_t bytes) {
  if (bytes < hugePage)
    return ::operator new(bytes);
  const std::size_t size = mappedBytes(bytes);
  // Map a huge page more than needed and trim it to a 2-MiB boundary.
  void *mapped = ::mmap(nullptr, size + hugePage, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED)
    throw std::bad_alloc();
  auto *begin = static_cast<char *>(mapped);
  auto *aligned = reinterpret_cast<char *>(
      (reinterpret_cast<std::uintptr_t>(begin) + hugePage - 1) &
      ~(std::uintptr_t(hugePage) - 1));
  if (aligned != begin)
    ::munmap(begin, aligned - begin);
  if (char *end = aligned + size; end != begin + size + hugePage)
    ::munmap(end, begin + size + hugePage - end);
  // Advice only: where the kernel has no huge pages, 4-KiB pages serve.
  ::madvise(aligned, size, MADV_HUGEPAGE);
  return aligned;
}

void deallocateLarge(void *p, std::size_t bytes) noexcept {
  if (bytes < hugePage)
    ::operator delete(p);
  else
    ::munmap(p, mappedBytes(bytes));
}

std::pmr::memory_resource *largeArrayResource() {
  static LargeArrayResource resource;
  return &resource;
}

} // namespace poplar
