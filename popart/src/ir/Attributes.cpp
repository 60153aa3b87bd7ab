#include <popart/attributes.hpp>
#include <popart/error.hpp>

#include <onnx/onnx_pb.h>

#include <map>
#include <set>

namespace popart {

class Attributes::Impl {
public:
  std::map<std::string, onnx::AttributeProto> attrs;
  mutable std::set<std::string> read;
};

Attributes::Attributes() : impl(std::make_shared<Impl>()) {}

Attributes::Attributes(const onnx::NodeProto &node)
    : impl(std::make_shared<Impl>()) {
  for (const auto &a : node.attribute())
    impl->attrs[a.name()] = a;
}

Attributes::Attributes(const Attributes &) = default;
Attributes &Attributes::operator=(const Attributes &) = default;
Attributes::~Attributes() = default;

bool Attributes::has(const std::string &name) const {
  return impl->attrs.count(name) != 0;
}

std::vector<std::string> Attributes::getAllAttributeNames() const {
  std::vector<std::string> names;
  for (const auto &a : impl->attrs)
    names.push_back(a.first);
  return names;
}

const onnx::AttributeProto &Attributes::get(const std::string &name) const {
  auto it = impl->attrs.find(name);
  if (it == impl->attrs.end())
    throw error("Attribute '{}' is required", name);
  impl->read.insert(name);
  return it->second;
}

int64_t Attributes::getInt(const std::string &name, int64_t def) const {
  return has(name) ? get(name).i() : def;
}
int64_t Attributes::getInt(const std::string &name) const {
  return get(name).i();
}
float Attributes::getFloat(const std::string &name, float def) const {
  return has(name) ? get(name).f() : def;
}
float Attributes::getFloat(const std::string &name) const {
  return get(name).f();
}
std::string Attributes::getString(const std::string &name,
                                  const std::string &def) const {
  return has(name) ? get(name).s() : def;
}
std::vector<int64_t> Attributes::getInts(const std::string &name,
                                         const std::vector<int64_t> &def) const {
  if (!has(name))
    return def;
  return getInts(name);
}
std::vector<int64_t> Attributes::getInts(const std::string &name) const {
  const auto &a = get(name);
  return {a.ints().begin(), a.ints().end()};
}
std::vector<float> Attributes::getFloats(const std::string &name) const {
  const auto &a = get(name);
  return {a.floats().begin(), a.floats().end()};
}
std::vector<std::string> Attributes::getStrings(const std::string &name) const {
  const auto &a = get(name);
  return {a.strings().begin(), a.strings().end()};
}
const onnx::TensorProto &Attributes::getTensor(const std::string &name) const {
  return get(name).t();
}

std::vector<std::string> Attributes::unread() const {
  std::vector<std::string> names;
  for (const auto &a : impl->attrs)
    if (!impl->read.count(a.first) && a.first.rfind("__", 0) != 0)
      names.push_back(a.first);
  return names;
}

template <>
Attributes::Int Attributes::getAttribute(const std::string &key,
                                         const Int &defaultValue) const {
  return getInt(key, defaultValue);
}
template <>
Attributes::Ints Attributes::getAttribute(const std::string &key,
                                          const Ints &defaultValue) const {
  return getInts(key, defaultValue);
}
template <>
Attributes::Float Attributes::getAttribute(const std::string &key,
                                           const Float &defaultValue) const {
  return getFloat(key, defaultValue);
}
template <>
Attributes::Floats Attributes::getAttribute(const std::string &key,
                                            const Floats &defaultValue) const {
  return has(key) ? getFloats(key) : defaultValue;
}
template <>
Attributes::String Attributes::getAttribute(const std::string &key,
                                            const String &defaultValue) const {
  return getString(key, defaultValue);
}
template <>
Attributes::Strings
Attributes::getAttribute(const std::string &key,
                         const Strings &defaultValue) const {
  return has(key) ? getStrings(key) : defaultValue;
}
template <> Attributes::Int Attributes::getAttribute(const std::string &key) const {
  return getInt(key);
}
template <>
Attributes::Ints Attributes::getAttribute(const std::string &key) const {
  return getInts(key);
}
template <>
Attributes::Float Attributes::getAttribute(const std::string &key) const {
  return getFloat(key);
}
template <>
Attributes::Floats Attributes::getAttribute(const std::string &key) const {
  return getFloats(key);
}
template <>
Attributes::String Attributes::getAttribute(const std::string &key) const {
  return get(key).s();
}
template <>
Attributes::Strings Attributes::getAttribute(const std::string &key) const {
  return getStrings(key);
}

} // namespace popart
