#ifndef POPLAR_STRINGREF_HPP
#define POPLAR_STRINGREF_HPP

#include <cstring>
#include <ostream>
#include <string>
#include <string_view>

namespace poplar {

/// A non-owning reference to a string, accepted wherever the API takes a
/// name. It converts implicitly from std::string, string literals and
/// std::string_view, and back to std::string.
class StringRef {
public:
  StringRef() = default;
  StringRef(const char *s) : view(s ? std::string_view(s) : std::string_view()) {}
  StringRef(const char *s, std::size_t n) : view(s, n) {}
  StringRef(const std::string &s) : view(s) {}
  StringRef(std::string_view s) : view(s) {}

  const char *data() const { return view.data(); }
  std::size_t size() const { return view.size(); }
  bool empty() const { return view.empty(); }
  auto begin() const { return view.begin(); }
  auto end() const { return view.end(); }
  std::string str() const { return std::string(view); }
  std::string cloneAsString() const { return str(); }
  operator std::string() const { return str(); }
  operator std::string_view() const { return view; }

  friend bool operator==(StringRef a, StringRef b) { return a.view == b.view; }
  friend bool operator!=(StringRef a, StringRef b) { return a.view != b.view; }
  friend bool operator<(StringRef a, StringRef b) { return a.view < b.view; }
  friend std::ostream &operator<<(std::ostream &os, StringRef s) {
    return os << s.view;
  }

private:
  std::string_view view;
};

} // namespace poplar

#endif // POPLAR_STRINGREF_HPP
