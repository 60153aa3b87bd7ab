// The attributes of an ONNX node, as an op reads them when it is made.
// Reads are recorded, so that an attribute no op reads (one the op does
// not support) is reported when the op is made.
#ifndef POPART_ATTRIBUTES_HPP
#define POPART_ATTRIBUTES_HPP

#include <popart/names.hpp>
#include <popart/popart_export.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace onnx {
class NodeProto;
class AttributeProto;
class TensorProto;
} // namespace onnx

namespace popart {

class POPART_API Attributes {
public:
  using Int = int64_t;
  using Ints = std::vector<int64_t>;
  using Float = float;
  using Floats = std::vector<float>;
  using String = std::string;
  using Strings = std::vector<std::string>;

  Attributes();
  explicit Attributes(const onnx::NodeProto &node);
  Attributes(const Attributes &);
  Attributes &operator=(const Attributes &);
  ~Attributes();

  /// The attribute `key` as T (Int, Ints, Float, Floats, String or
  /// Strings), or defaultValue if the node has none.
  template <typename T>
  T getAttribute(const std::string &key, const T &defaultValue) const;
  /// The attribute `key` as T; popart::error naming it if it is absent.
  template <typename T> T getAttribute(const std::string &key) const;
  bool hasAttribute(const std::string &key) const { return has(key); }
  std::vector<std::string> getAllAttributeNames() const;

  bool has(const std::string &name) const;
  int64_t getInt(const std::string &name, int64_t def) const;
  int64_t getInt(const std::string &name) const;
  float getFloat(const std::string &name, float def) const;
  float getFloat(const std::string &name) const;
  std::string getString(const std::string &name, const std::string &def) const;
  std::vector<int64_t> getInts(const std::string &name,
                               const std::vector<int64_t> &def) const;
  std::vector<int64_t> getInts(const std::string &name) const;
  std::vector<float> getFloats(const std::string &name) const;
  std::vector<std::string> getStrings(const std::string &name) const;
  const onnx::TensorProto &getTensor(const std::string &name) const;
  /// Attributes present but never read (not counting "__" annotations).
  std::vector<std::string> unread() const;

private:
  const onnx::AttributeProto &get(const std::string &name) const;
  class Impl;
  std::shared_ptr<Impl> impl;
};

template <>
POPART_API Attributes::Int
Attributes::getAttribute(const std::string &, const Attributes::Int &) const;
template <>
POPART_API Attributes::Ints
Attributes::getAttribute(const std::string &, const Attributes::Ints &) const;
template <>
POPART_API Attributes::Float
Attributes::getAttribute(const std::string &, const Attributes::Float &) const;
template <>
POPART_API Attributes::Floats
Attributes::getAttribute(const std::string &, const Attributes::Floats &) const;
template <>
POPART_API Attributes::String
Attributes::getAttribute(const std::string &, const Attributes::String &) const;
template <>
POPART_API Attributes::Strings
Attributes::getAttribute(const std::string &, const Attributes::Strings &) const;
template <>
POPART_API Attributes::Int Attributes::getAttribute(const std::string &) const;
template <>
POPART_API Attributes::Ints Attributes::getAttribute(const std::string &) const;
template <>
POPART_API Attributes::Float Attributes::getAttribute(const std::string &) const;
template <>
POPART_API Attributes::Floats
Attributes::getAttribute(const std::string &) const;
template <>
POPART_API Attributes::String
Attributes::getAttribute(const std::string &) const;
template <>
POPART_API Attributes::Strings
Attributes::getAttribute(const std::string &) const;

} // namespace popart

#endif
