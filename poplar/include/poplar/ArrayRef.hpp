#ifndef POPLAR_ARRAYREF_HPP
#define POPLAR_ARRAYREF_HPP

#include <array>
#include <cassert>
#include <cstddef>
#include <initializer_list>
#include <vector>

namespace poplar {

/// A non-owning view of a contiguous sequence of T. It is only valid while
/// the storage it was made from lives, so take it by value as a parameter
/// and never keep it.
template <class T> class ArrayRef {
public:
  using value_type = T;
  using const_iterator = const T *;
  using iterator = const_iterator;

  constexpr ArrayRef() = default;
  constexpr ArrayRef(const T *data, std::size_t size) : ptr(data), len(size) {}
  constexpr ArrayRef(const T *begin, const T *end)
      : ptr(begin), len(static_cast<std::size_t>(end - begin)) {}
  ArrayRef(const T &single) : ptr(&single), len(1) {}
  template <class A>
  ArrayRef(const std::vector<T, A> &v) : ptr(v.data()), len(v.size()) {}
  template <std::size_t N>
  constexpr ArrayRef(const std::array<T, N> &a) : ptr(a.data()), len(N) {}
  // The list lives until the end of the full expression of the call that
  // takes the ArrayRef, which is as long as an ArrayRef may be used.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  constexpr ArrayRef(std::initializer_list<T> list)
      : ptr(list.begin()), len(list.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  constexpr const T *data() const { return ptr; }
  constexpr std::size_t size() const { return len; }
  constexpr bool empty() const { return len == 0; }
  constexpr const_iterator begin() const { return ptr; }
  constexpr const_iterator end() const { return ptr + len; }
  const T &front() const { return ptr[0]; }
  const T &back() const { return ptr[len - 1]; }
  const T &operator[](std::size_t i) const { return ptr[i]; }

  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }
  operator std::vector<T>() const { return vec(); }

private:
  const T *ptr = nullptr;
  std::size_t len = 0;
};

template <class T> bool operator==(ArrayRef<T> a, ArrayRef<T> b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i != a.size(); ++i)
    if (!(a[i] == b[i]))
      return false;
  return true;
}
template <class T> bool operator!=(ArrayRef<T> a, ArrayRef<T> b) {
  return !(a == b);
}

} // namespace poplar

#endif // POPLAR_ARRAYREF_HPP
