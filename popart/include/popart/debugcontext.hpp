// The debug name given to builder calls; it becomes part of the op's name
// and reaches poplar's programs and profiles.
#ifndef POPART_DEBUGCONTEXT_HPP
#define POPART_DEBUGCONTEXT_HPP

#include <popart/popart_export.hpp>

#include <string>

namespace popart {

class POPART_API DebugContext {
public:
  DebugContext() = default;
  DebugContext(const char *name) : name_(name ? name : "") {}
  DebugContext(const std::string &name) : name_(name) {}
  const std::string &getPathName() const { return name_; }
  bool empty() const { return name_.empty(); }

private:
  std::string name_;
};

} // namespace popart

#endif
