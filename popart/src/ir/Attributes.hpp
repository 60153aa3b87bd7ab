// The attributes of an ONNX node, as an op reads them. Reads are
// recorded, so that an attribute no op reads (one the op does not
// support) is reported when the op is made.
#ifndef POPART_SRC_IR_ATTRIBUTES_HPP
#define POPART_SRC_IR_ATTRIBUTES_HPP

#include <popart/names.hpp>

#include <onnx/onnx_pb.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace popart {

class Attributes {
public:
  Attributes() = default;
  explicit Attributes(const onnx::NodeProto &node);

  bool has(const std::string &name) const { return attrs.count(name) != 0; }
  int64_t getInt(const std::string &name, int64_t def) const;
  int64_t getInt(const std::string &name) const;
  float getFloat(const std::string &name, float def) const;
  float getFloat(const std::string &name) const { return get(name).f(); }
  std::string getString(const std::string &name, const std::string &def) const;
  std::vector<int64_t> getInts(const std::string &name,
                               const std::vector<int64_t> &def) const;
  std::vector<int64_t> getInts(const std::string &name) const;
  const onnx::TensorProto &getTensor(const std::string &name) const;
  /// Attributes present but never read (not counting "__" annotations).
  std::vector<std::string> unread() const;

private:
  const onnx::AttributeProto &get(const std::string &name) const;
  std::map<std::string, onnx::AttributeProto> attrs;
  mutable std::set<std::string> read;
};

} // namespace popart

#endif
