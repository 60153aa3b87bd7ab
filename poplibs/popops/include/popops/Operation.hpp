#ifndef POPOPS_OPERATION_HPP
#define POPOPS_OPERATION_HPP

#include <popops/OperationDef.hpp>
#include <popops/popops_export.hpp>

#include <iosfwd>

namespace popops {

/// Reads an operation by its name ("ADD", "SQUARE_ADD", ...); sets the
/// stream's failbit for an unknown name.
POPOPS_API std::istream &operator>>(std::istream &is, Operation &op);
/// Writes the operation's name.
POPOPS_API std::ostream &operator<<(std::ostream &os, const Operation &op);

} // namespace popops

#endif // POPOPS_OPERATION_HPP
