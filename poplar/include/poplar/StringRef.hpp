#ifndef POPLAR_STRINGREF_HPP
#define POPLAR_STRINGREF_HPP

#include <cstring>
#include <ostream>
#include <string>
#if __cplusplus >= 201703L
#include <string_view>
#endif

namespace poplar {

/// A non-owning reference to a string, accepted wherever the API takes a
/// name. It converts implicitly from std::string and string literals (and,
/// in C++17, std::string_view), and back to std::string.
class StringRef {
public:
  StringRef() = default;
  StringRef(const char *s) : ptr(s), len(s ? std::strlen(s) : 0) {}
  StringRef(const char *s, std::size_t n) : ptr(s), len(n) {}
  StringRef(const std::string &s) : ptr(s.data()), len(s.size()) {}
#if __cplusplus >= 201703L
  StringRef(std::string_view s) : ptr(s.data()), len(s.size()) {}
  operator std::string_view() const { return std::string_view(ptr, len); }
#endif

  const char *data() const { return ptr; }
  std::size_t size() const { return len; }
  bool empty() const { return len == 0; }
  const char *begin() const { return ptr; }
  const char *end() const { return ptr + len; }
  std::string str() const { return len ? std::string(ptr, len) : std::string(); }
  std::string cloneAsString() const { return str(); }
  operator std::string() const { return str(); }

  friend bool operator==(StringRef a, StringRef b) { return compare(a, b) == 0; }
  friend bool operator!=(StringRef a, StringRef b) { return compare(a, b) != 0; }
  friend bool operator<(StringRef a, StringRef b) { return compare(a, b) < 0; }
  friend std::ostream &operator<<(std::ostream &os, StringRef s) {
    return os << s.str();
  }

private:
  static int compare(StringRef a, StringRef b) {
    const std::size_t n = a.len < b.len ? a.len : b.len;
    const int c = n ? std::memcmp(a.ptr, b.ptr, n) : 0;
    if (c != 0)
      return c;
    return a.len < b.len ? -1 : (a.len > b.len ? 1 : 0);
  }

  const char *ptr = nullptr;
  std::size_t len = 0;
};

} // namespace poplar

#endif // POPLAR_STRINGREF_HPP
