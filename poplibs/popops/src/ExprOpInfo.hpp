// What popops knows about each operation of popops/ExprOp.hpp: its name,
// the element types it supports (which must match the vertices
// instantiated in codelets/*.cpp; ElementwiseTest checks that they do), the
// type of its result, the function of codelets/ElementwiseOps.hpp that
// computes it, and its cost in the cycle model.
#ifndef POPOPS_SRC_EXPROPINFO_HPP
#define POPOPS_SRC_EXPROPINFO_HPP

#include <popops/ExprOp.hpp>

#include <poplar/Type.hpp>
#include <poputil/VertexTemplates.hpp>

#include <optional>
#include <string>
#include <vector>

namespace popops {
namespace detail {

/// Enumerator names, "ADD".
const char *opName(expr::UnaryOpType op);
const char *opName(expr::BinaryOpType op);
const char *opName(expr::TernaryOpType op);

/// The function of codelets/ElementwiseOps.hpp, "add".
const char *opFunction(expr::UnaryOpType op);
const char *opFunction(expr::BinaryOpType op);
const char *opFunction(expr::TernaryOpType op);

/// The element types an operation takes (its operands all have one type,
/// except the condition of SELECT, which is BOOL).
const std::vector<poplar::Type> &supportedTypes(expr::UnaryOpType op);
const std::vector<poplar::Type> &supportedTypes(expr::BinaryOpType op);
const std::vector<poplar::Type> &supportedTypes(expr::TernaryOpType op);
bool isSupported(expr::UnaryOpType op, const poplar::Type &type);
bool isSupported(expr::BinaryOpType op, const poplar::Type &type);
bool isSupported(expr::TernaryOpType op, const poplar::Type &type);

/// The types casts, fills and copies handle.
const std::vector<poplar::Type> &castTypes();
bool isCastType(const poplar::Type &type);

/// "float, half or int", for messages.
std::string typeList(const std::vector<poplar::Type> &types);

/// The type of the result for operands of `type`.
poplar::Type outputType(expr::UnaryOpType op, const poplar::Type &type);
poplar::Type outputType(expr::BinaryOpType op, const poplar::Type &type);

/// op(a, b) == op(b, a).
bool isCommutative(expr::BinaryOpType op);
/// The operation that gives op(a, b) as swapped(b, a), for comparisons.
std::optional<expr::BinaryOpType> swappedComparison(expr::BinaryOpType op);

/// Cycles one vector of operands costs in the cycle model (see
/// src/CycleEstimates.hpp), beyond loading and storing.
unsigned opCycles(expr::UnaryOpType op, const poplar::Type &type);
unsigned opCycles(expr::BinaryOpType op, const poplar::Type &type);
unsigned opCycles(expr::TernaryOpType op, const poplar::Type &type);

} // namespace detail
} // namespace popops

namespace poputil {
// Vertex names spell operations as popc does: the enumerator fully
// qualified.
template <> struct VertexTemplateToString<popops::expr::UnaryOpType> {
  static std::string to_string(popops::expr::UnaryOpType op) {
    return std::string("popops::expr::UnaryOpType::") +
           popops::detail::opName(op);
  }
};
template <> struct VertexTemplateToString<popops::expr::BinaryOpType> {
  static std::string to_string(popops::expr::BinaryOpType op) {
    return std::string("popops::expr::BinaryOpType::") +
           popops::detail::opName(op);
  }
};
} // namespace poputil

#endif // POPOPS_SRC_EXPROPINFO_HPP
