// How popops::Operation is spelled as a vertex template argument, shared by
// every file that names a vertex templated on an operation.
#ifndef POPOPS_SRC_OPERATIONVERTEXNAME_HPP
#define POPOPS_SRC_OPERATIONVERTEXNAME_HPP

#include <popops/Operation.hpp>
#include <poputil/VertexTemplates.hpp>

#include <sstream>
#include <string>

namespace poputil {
// Fully qualified, as popc registers it.
template <> struct VertexTemplateToString<popops::Operation> {
  static std::string to_string(const popops::Operation &op) {
    std::ostringstream os;
    os << "popops::Operation::" << op;
    return os.str();
  }
};
} // namespace poputil

#endif // POPOPS_SRC_OPERATIONVERTEXNAME_HPP
