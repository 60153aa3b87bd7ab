// From the operation enumerators of popops/ExprOp.hpp to the functions of
// ElementwiseOps.hpp, for the vertex templates that take an operation as a
// template argument.
#ifndef POPOPS_CODELETS_EXPROPDISPATCH_HPP
#define POPOPS_CODELETS_EXPROPDISPATCH_HPP

#include "CodeletUtil.hpp"
#include "ElementwiseOps.hpp"

#include <popops/ExprOp.hpp>

#include <utility>

namespace popops {
namespace ops {

template <expr::UnaryOpType op, class T> inline auto unaryOp(T x) {
  using expr::UnaryOpType;
  if constexpr (op == UnaryOpType::ABSOLUTE)
    return abs(x);
  else if constexpr (op == UnaryOpType::ASIN)
    return asin(x);
  else if constexpr (op == UnaryOpType::BITWISE_NOT)
    return bitwiseNot(x);
  else if constexpr (op == UnaryOpType::CBRT)
    return cbrt(x);
  else if constexpr (op == UnaryOpType::CEIL)
    return ceil(x);
  else if constexpr (op == UnaryOpType::COS)
    return cos(x);
  else if constexpr (op == UnaryOpType::COUNT_LEADING_ZEROS)
    return countLeadingZeros(x);
  else if constexpr (op == UnaryOpType::ERF)
    return erf(x);
  else if constexpr (op == UnaryOpType::EXPONENT)
    return exp(x);
  else if constexpr (op == UnaryOpType::EXPONENT_MINUS_ONE)
    return expm1(x);
  else if constexpr (op == UnaryOpType::EXPONENT2)
    return exp2(x);
  else if constexpr (op == UnaryOpType::FLOOR)
    return floor(x);
  else if constexpr (op == UnaryOpType::GELU_ERF)
    return geluErf(x);
  else if constexpr (op == UnaryOpType::INVERSE)
    return inv(x);
  else if constexpr (op == UnaryOpType::IS_FINITE)
    return isFinite(x);
  else if constexpr (op == UnaryOpType::IS_INF)
    return isInf(x);
  else if constexpr (op == UnaryOpType::IS_NAN)
    return isNaN(x);
  else if constexpr (op == UnaryOpType::LOGARITHM)
    return log(x);
  else if constexpr (op == UnaryOpType::LOGARITHM_ONE_PLUS)
    return log1p(x);
  else if constexpr (op == UnaryOpType::LOGICAL_NOT)
    return logicalNot(x);
  else if constexpr (op == UnaryOpType::NEGATE)
    return neg(x);
  else if constexpr (op == UnaryOpType::NEARBY_INT)
    return nearbyint(x);
  else if constexpr (op == UnaryOpType::POPCOUNT)
    return popcount(x);
  else if constexpr (op == UnaryOpType::RELU)
    return relu(x);
  else if constexpr (op == UnaryOpType::SIGNUM)
    return signum(x);
  else if constexpr (op == UnaryOpType::SIN)
    return sin(x);
  else if constexpr (op == UnaryOpType::TAN)
    return tan(x);
  else if constexpr (op == UnaryOpType::TANH)
    return tanh(x);
  else if constexpr (op == UnaryOpType::ROUND)
    return round(x);
  else if constexpr (op == UnaryOpType::SQRT)
    return sqrt(x);
  else if constexpr (op == UnaryOpType::SQUARE)
    return square(x);
  else if constexpr (op == UnaryOpType::SIGMOID)
    return sigmoid(x);
  else if constexpr (op == UnaryOpType::RSQRT)
    return rsqrt(x);
  else if constexpr (op == UnaryOpType::TRUNC)
    return trunc(x);
}

template <expr::BinaryOpType op, class T> inline auto binaryOp(T a, T b) {
  using expr::BinaryOpType;
  if constexpr (op == BinaryOpType::ADD)
    return add(a, b);
  else if constexpr (op == BinaryOpType::ATAN2)
    return atan2(a, b);
  else if constexpr (op == BinaryOpType::BITWISE_AND)
    return bitwiseAnd(a, b);
  else if constexpr (op == BinaryOpType::BITWISE_OR)
    return bitwiseOr(a, b);
  else if constexpr (op == BinaryOpType::BITWISE_XOR)
    return bitwiseXor(a, b);
  else if constexpr (op == BinaryOpType::BITWISE_XNOR)
    return bitwiseXnor(a, b);
  else if constexpr (op == BinaryOpType::DIVIDE)
    return div(a, b);
  else if constexpr (op == BinaryOpType::EQUAL)
    return eq(a, b);
  else if constexpr (op == BinaryOpType::GREATER_THAN_EQUAL)
    return gteq(a, b);
  else if constexpr (op == BinaryOpType::GREATER_THAN)
    return gt(a, b);
  else if constexpr (op == BinaryOpType::INV_STD_DEV_TO_VARIANCE)
    return invStdDevToVariance(a, b);
  else if constexpr (op == BinaryOpType::LESS_THAN_EQUAL)
    return lteq(a, b);
  else if constexpr (op == BinaryOpType::LOGICAL_AND)
    return logicalAnd(a, b);
  else if constexpr (op == BinaryOpType::LOGICAL_OR)
    return logicalOr(a, b);
  else if constexpr (op == BinaryOpType::LESS_THAN)
    return lt(a, b);
  else if constexpr (op == BinaryOpType::MAXIMUM)
    return max(a, b);
  else if constexpr (op == BinaryOpType::MINIMUM)
    return min(a, b);
  else if constexpr (op == BinaryOpType::MULTIPLY)
    return mul(a, b);
  else if constexpr (op == BinaryOpType::NOT_EQUAL)
    return neq(a, b);
  else if constexpr (op == BinaryOpType::POWER)
    return pow(a, b);
  else if constexpr (op == BinaryOpType::REMAINDER)
    return rem(a, b);
  else if constexpr (op == BinaryOpType::SHIFT_LEFT)
    return shl(a, b);
  else if constexpr (op == BinaryOpType::SHIFT_RIGHT)
    return shr(a, b);
  else if constexpr (op == BinaryOpType::SHIFT_RIGHT_SIGN_EXTEND)
    return shrSE(a, b);
  else if constexpr (op == BinaryOpType::SUBTRACT)
    return sub(a, b);
  else if constexpr (op == BinaryOpType::VARIANCE_TO_INV_STD_DEV)
    return varianceToInvStdDev(a, b);
}

template <expr::UnaryOpType op, class T>
using UnaryResult = decltype(unaryOp<op, T>(std::declval<T>()));
template <expr::BinaryOpType op, class T>
using BinaryResult =
    decltype(binaryOp<op, T>(std::declval<T>(), std::declval<T>()));

} // namespace ops
} // namespace popops

#endif // POPOPS_CODELETS_EXPROPDISPATCH_HPP
