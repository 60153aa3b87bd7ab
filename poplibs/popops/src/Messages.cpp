#include "Messages.hpp"

namespace popops {

std::string opName(const poplar::DebugContext &dc, const char *op) {
  const std::string path = dc.getPathName();
  return path.empty() ? op : path + "/" + op;
}

std::string shapeString(const std::vector<std::size_t> &shape) {
  std::string s = "{";
  for (std::size_t i = 0; i != shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "}";
}

} // namespace popops
