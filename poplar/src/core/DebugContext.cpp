#include <poplar/DebugContext.hpp>

namespace poplar {
namespace {

std::string joinPath(const std::string &parent, StringRef name) {
  if (parent.empty())
    return name.str();
  if (name.empty())
    return parent;
  return parent + "/" + name.str();
}

} // namespace

DebugNameAndId::DebugNameAndId(StringRef name, DebugId debugId,
                               StringRef parentPath)
    : pathName(joinPath(parentPath.str(), name)), id(debugId) {}

DebugContext::DebugContext(StringRef name) : pathName(name.str()) {}

DebugContext::DebugContext(const DebugNameAndId &parent, StringRef name)
    : pathName(joinPath(parent.getPathName(), name)), parentId(parent.getId()) {}

DebugContext::DebugContext(const DebugContext &parent, StringRef name)
    : pathName(joinPath(parent.getPathName(), name)), parentId(parent.parentId) {}

} // namespace poplar
