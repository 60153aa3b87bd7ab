#ifndef POPUTIL_VERTEXTEMPLATES_HPP
#define POPUTIL_VERTEXTEMPLATES_HPP

#include <poplar/Type.hpp>

#include <string>
#include <type_traits>

namespace poputil {

/// How a template argument is spelled in a vertex name. Specialise it for
/// an enumeration used as a template argument of a vertex.
template <class T, class = void> struct VertexTemplateToString {
  static std::string to_string(const T &x) { return std::to_string(x); }
};
template <> struct VertexTemplateToString<poplar::Type> {
  static std::string to_string(const poplar::Type &t) {
    return t.toString().str();
  }
};
template <> struct VertexTemplateToString<bool> {
  static std::string to_string(bool b) { return b ? "true" : "false"; }
};
template <> struct VertexTemplateToString<std::string> {
  static std::string to_string(const std::string &s) { return s; }
};
template <> struct VertexTemplateToString<const char *> {
  static std::string to_string(const char *s) { return s; }
};
template <> struct VertexTemplateToString<char *> {
  static std::string to_string(const char *s) { return s; }
};

namespace detail {
inline std::string joinTemplateArgs() { return std::string(); }
template <class T> std::string joinTemplateArgs(const T &only) {
  return VertexTemplateToString<typename std::decay<T>::type>::to_string(only);
}
template <class T, class U, class... Rest>
std::string joinTemplateArgs(const T &first, const U &second,
                             const Rest &...rest) {
  return joinTemplateArgs(first) + "," + joinTemplateArgs(second, rest...);
}
} // namespace detail

/// The name of a vertex template instance as popc registers it:
/// templateVertex("popops::ScaledAdd", FLOAT, true) is
/// "popops::ScaledAdd<float,true>".
template <class... Args>
std::string templateVertex(const std::string &name, Args &&...args) {
  return name + "<" + detail::joinTemplateArgs(args...) + ">";
}

} // namespace poputil

#endif // POPUTIL_VERTEXTEMPLATES_HPP
