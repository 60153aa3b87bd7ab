// Operand values per element type for the element-wise tests, and a
// comparison reporting the first element that differs.
#ifndef POPOPS_TESTS_TESTVALUES_HPP
#define POPOPS_TESTS_TESTVALUES_HPP

#include "ElementwiseReference.hpp"

#include <poplar/Type.hpp>

#include <string>

namespace popops_test {

/// Values for unary operations: ordinary ones and the type's extremes
/// (infinities and NaN for floating point).
Values unaryValues(const poplar::Type &type);

/// Pairs of operands for binary operations (including division by zero
/// and shifts by amounts outside the type's width).
Values binaryLhs(const poplar::Type &type);
Values binaryRhs(const poplar::Type &type);

/// The tolerance for operations the reference does not compute exactly.
double tolerance(const poplar::Type &type);

/// "" if got matches expected element for element, else a description of
/// the first difference.
std::string compare(const Values &got, const Values &expected, bool exact,
                    double relTol);

} // namespace popops_test

#endif // POPOPS_TESTS_TESTVALUES_HPP
