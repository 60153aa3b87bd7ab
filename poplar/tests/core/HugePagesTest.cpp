// The allocator of a graph's large arrays: what it returns holds what is
// written, on 2-MiB boundaries from 2 MiB on, through growth and reuse.
#include <catch2/catch.hpp>

#include "core/HugePages.hpp"

#include <cstdint>
#include <memory_resource>
#include <numeric>
#include <vector>

using namespace poplar;

namespace {
constexpr std::size_t twoMiB = std::size_t(2) << 20;

bool onHugePageBoundary(const void *p) {
  return reinterpret_cast<std::uintptr_t>(p) % twoMiB == 0;
}
} // namespace

TEST_CASE("A large vector keeps its values as it grows past 2 MiB",
          "[poplar][hugepages]") {
  LargeVector<std::uint32_t> v(1000);
  std::iota(v.begin(), v.end(), 0u);
  CHECK_FALSE(v.data() == nullptr);
  // 3 million elements, 12 MB: mapped apart, on a huge-page boundary.
  v.resize(3'000'000);
  CHECK(onHugePageBoundary(v.data()));
  for (std::size_t i = 1000; i != v.size(); ++i)
    v[i] = static_cast<std::uint32_t>(i);
  std::uint64_t sum = 0;
  for (auto x : v)
    sum += x;
  CHECK(sum == std::uint64_t(2'999'999) * 3'000'000 / 2);
  // Copied into a smaller array and back out.
  LargeVector<std::uint32_t> head(v.begin(), v.begin() + 10);
  CHECK(head == LargeVector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  v.clear();
  v.shrink_to_fit();
  CHECK(v.capacity() == 0);
}

TEST_CASE("Sizes either side of 2 MiB are allocated and freed",
          "[poplar][hugepages]") {
  for (std::size_t bytes :
       {std::size_t(2), twoMiB - 1, twoMiB, twoMiB + 1, 3 * twoMiB + 12345}) {
    INFO("bytes " << bytes);
    auto *p = static_cast<unsigned char *>(allocateLarge(bytes));
    REQUIRE(p != nullptr);
    if (bytes >= twoMiB)
      CHECK(onHugePageBoundary(p));
    p[0] = 1;
    p[bytes - 1] = 2;
    CHECK(p[0] + p[bytes - 1] == 3);
    deallocateLarge(p, bytes);
  }
}

TEST_CASE("A monotonic buffer over the large-array resource",
          "[poplar][hugepages]") {
  std::pmr::monotonic_buffer_resource arena(largeArrayResource());
  // A million small arrays, as a graph's vertex fields are kept: the
  // buffers grow past 2 MiB and each array keeps its values.
  std::vector<std::pmr::vector<std::uint64_t>> arrays;
  arrays.reserve(1'000'000);
  for (std::uint64_t i = 0; i != 1'000'000; ++i)
    arrays.emplace_back(std::initializer_list<std::uint64_t>{i, 2 * i, 3 * i},
                        &arena);
  std::uint64_t bad = 0;
  for (std::uint64_t i = 0; i != arrays.size(); ++i)
    bad += arrays[i] != std::pmr::vector<std::uint64_t>{i, 2 * i, 3 * i};
  CHECK(bad == 0);
  // Over-aligned requests are honoured below 2 MiB too.
  void *p = largeArrayResource()->allocate(4096, 4096);
  CHECK(reinterpret_cast<std::uintptr_t>(p) % 4096 == 0);
  largeArrayResource()->deallocate(p, 4096, 4096);
}
