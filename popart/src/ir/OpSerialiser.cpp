#include <popart/opserialiser.hpp>

#include <sstream>

namespace popart {
namespace {

template <typename T> std::string listText(const std::vector<T> &v) {
  std::ostringstream out;
  out << "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    out << (i ? " " : "") << v[i];
  out << "]";
  return out.str();
}

template <typename T> std::string text(const T &v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

} // namespace

OpSerialiserBase::~OpSerialiserBase() = default;

void OpSerialiserBase::appendAttribute(const std::string &n, float v) {
  appendText(n, text(v));
}
void OpSerialiserBase::appendAttribute(const std::string &n, double v) {
  appendText(n, text(v));
}
void OpSerialiserBase::appendAttribute(const std::string &n, int v) {
  appendText(n, text(v));
}
void OpSerialiserBase::appendAttribute(const std::string &n, int64_t v) {
  appendText(n, text(v));
}
void OpSerialiserBase::appendAttribute(const std::string &n, uint32_t v) {
  appendText(n, text(v));
}
void OpSerialiserBase::appendAttribute(const std::string &n, uint64_t v) {
  appendText(n, text(v));
}
void OpSerialiserBase::appendAttribute(const std::string &n, bool v) {
  appendText(n, v ? "true" : "false");
}
void OpSerialiserBase::appendAttribute(const std::string &n,
                                       const std::string &v) {
  appendText(n, v);
}
void OpSerialiserBase::appendAttribute(const std::string &n, const char *v) {
  appendText(n, v);
}
void OpSerialiserBase::appendAttribute(const std::string &n,
                                       const std::vector<int64_t> &v) {
  appendText(n, listText(v));
}
void OpSerialiserBase::appendAttribute(const std::string &n,
                                       const std::vector<float> &v) {
  appendText(n, listText(v));
}
void OpSerialiserBase::appendAttribute(const std::string &n,
                                       const std::vector<std::string> &v) {
  appendText(n, listText(v));
}
void OpSerialiserBase::appendAttribute(const std::string &n,
                                       const nonstd::optional<int64_t> &v) {
  appendText(n, v ? text(*v) : "none");
}
void OpSerialiserBase::appendAttribute(const std::string &n,
                                       const nonstd::optional<float> &v) {
  appendText(n, v ? text(*v) : "none");
}

void OpAttributeMap::appendText(const std::string &name,
                                const std::string &value) {
  map[name] = value;
}

} // namespace popart
