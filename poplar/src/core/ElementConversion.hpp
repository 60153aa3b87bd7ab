// Conversion of element arrays between types (host values given to the API
// into device storage, and device storage into printable values).
#ifndef POPLAR_SRC_CORE_ELEMENTCONVERSION_HPP
#define POPLAR_SRC_CORE_ELEMENTCONVERSION_HPP

#include <poplar/Type.hpp>

#include <cstddef>

namespace poplar {

/// Converts n elements of srcType at src to dstType at dst, as a C++ cast
/// would (HALF through float with round to nearest even; BOOL is 0 or 1).
/// Throws poplar::type_error for a type without host values (QUARTER).
void convertElements(const Type &srcType, const void *src, const Type &dstType,
                     void *dst, std::size_t n);

/// One element as a double (for printing and predicates).
double elementAsDouble(const Type &type, const void *element);
/// One element as an integer (for predicates and switch controls).
long long elementAsInteger(const Type &type, const void *element);

} // namespace poplar

#endif // POPLAR_SRC_CORE_ELEMENTCONVERSION_HPP
