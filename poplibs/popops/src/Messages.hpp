// How popops names operations and shapes in its error messages.
#ifndef POPOPS_SRC_MESSAGES_HPP
#define POPOPS_SRC_MESSAGES_HPP

#include <poplar/DebugContext.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace popops {

/// "name/op", or "op" when the debug context has no name.
std::string opName(const poplar::DebugContext &dc, const char *op);

/// "{2,3}".
std::string shapeString(const std::vector<std::size_t> &shape);

} // namespace popops

#endif // POPOPS_SRC_MESSAGES_HPP
