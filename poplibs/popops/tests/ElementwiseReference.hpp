// The host reference for popops' element-wise tests: plain loops over
// values held as double, written apart from the codelets (half rounding by
// the tests' own HostHalf.hpp, not poplar's conversions) from the
// semantics documented in codelets/ElementwiseOps.hpp.
#ifndef POPOPS_TESTS_ELEMENTWISEREFERENCE_HPP
#define POPOPS_TESTS_ELEMENTWISEREFERENCE_HPP

#include <popops/ExprOp.hpp>

#include <poplar/Type.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace popops_test {

using Values = std::vector<double>;

/// A value stored as `type`: rounded to float or half, wrapped to an
/// integer type's width, 0 or 1 for BOOL.
double storeAs(const poplar::Type &type, double x);

/// Whether the reference computes the operation exactly (else tests allow
/// a few units in the last place: the device uses float functions).
bool isExact(popops::expr::UnaryOpType op);
bool isExact(popops::expr::BinaryOpType op);

double unary(popops::expr::UnaryOpType op, const poplar::Type &type, double x);
double binary(popops::expr::BinaryOpType op, const poplar::Type &type, double a,
              double b);
double select(double a, double b, double cond);
double clamp(const poplar::Type &type, double x, double lo, double hi);
double cast(const poplar::Type &from, const poplar::Type &to, double x);

/// The type of the result of an operation on `type`.
poplar::Type unaryResultType(popops::expr::UnaryOpType op,
                             const poplar::Type &type);
poplar::Type binaryResultType(popops::expr::BinaryOpType op,
                              const poplar::Type &type);

/// NumPy broadcasting: the element of a tensor of shape `from` that index
/// `flat` of a tensor of shape `to` reads.
std::size_t broadcastIndex(const std::vector<std::size_t> &from,
                           const std::vector<std::size_t> &to,
                           std::size_t flat);

/// Whether got is expected: equal (NaN equal to NaN) or, unless exact,
/// within relTol of it.
bool close(double got, double expected, bool exact, double relTol);

} // namespace popops_test

#endif // POPOPS_TESTS_ELEMENTWISEREFERENCE_HPP
