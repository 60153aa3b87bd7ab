// Which field types a vertex may have (those detail::FieldTraits supports).
#ifndef POPC_FIELDTYPES_HPP
#define POPC_FIELDTYPES_HPP

#include "Model.hpp"

#include <clang-c/Index.h>

namespace popc {

/// The meaning of a data member's type, or supported == false.
FieldType classifyFieldType(CXType type);

/// What a supported field type may be, for error messages.
extern const char *const supportedFieldTypes;

} // namespace popc

#endif // POPC_FIELDTYPES_HPP
