#ifndef POPLAR_DEBUGCONTEXT_HPP
#define POPLAR_DEBUGCONTEXT_HPP

#include <poplar/StringRef.hpp>
#include <poplar/poplar_export.hpp>

#include <cstdint>
#include <string>

namespace poplar {

using DebugId = std::uint64_t;

/// A name with the identifier of the debug record it belongs to; passed
/// down from an operation to the operations it is built from.
class POPLAR_API DebugNameAndId {
public:
  DebugNameAndId(StringRef name = "", DebugId id = 0, StringRef parentPath = "");
  DebugNameAndId(const char *name) : DebugNameAndId(StringRef(name)) {}
  DebugNameAndId(const std::string &name) : DebugNameAndId(StringRef(name)) {}

  void setPathName(const std::string &name) { pathName = name; }
  const std::string &getPathName() const { return pathName; }
  DebugId getId() const { return id; }

private:
  std::string pathName;
  DebugId id = 0;
};

/// Where a graph element comes from: its name, and the path of names of
/// the operations that created it ("layer1/Add/out"). Every API call that
/// creates tensors, compute sets or programs takes one; the names appear
/// in error messages and profiles.
class POPLAR_API DebugContext {
public:
  DebugContext(StringRef name = "");
  DebugContext(const char *name) : DebugContext(StringRef(name)) {}
  DebugContext(const std::string &name) : DebugContext(StringRef(name)) {}
  DebugContext(const DebugNameAndId &parent, StringRef name = "");
  DebugContext(const DebugContext &parent, StringRef name);
  DebugContext(const DebugContext &) = default;
  DebugContext &operator=(const DebugContext &) = default;

  /// The full path: parent path and name joined with '/'.
  const std::string &getPathName() const { return pathName; }
  DebugId getId() const { return parentId; }

private:
  std::string pathName;
  DebugId parentId = 0;
};

} // namespace poplar

#endif // POPLAR_DEBUGCONTEXT_HPP
