#include "ir/Attributes.hpp"

#include <popart/error.hpp>

namespace popart {

Attributes::Attributes(const onnx::NodeProto &node) {
  for (const auto &a : node.attribute())
    attrs[a.name()] = a;
}

const onnx::AttributeProto &Attributes::get(const std::string &name) const {
  auto it = attrs.find(name);
  if (it == attrs.end())
    throw error("Attribute '{}' is required", name);
  read.insert(name);
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
const onnx::TensorProto &Attributes::getTensor(const std::string &name) const {
  return get(name).t();
}

std::vector<std::string> Attributes::unread() const {
  std::vector<std::string> names;
  for (const auto &a : attrs)
    if (!read.count(a.first) && a.first.rfind("__", 0) != 0)
      names.push_back(a.first);
  return names;
}

} // namespace popart
