#include "ElementwiseReference.hpp"

#include "HostHalf.hpp"

#include <cmath>
#include <limits>

using namespace poplar;
using popops::expr::BinaryOpType;
using popops::expr::UnaryOpType;

namespace popops_test {
namespace {

bool isFloating(const Type &t) { return t == FLOAT || t == HALF; }

unsigned bitsOf(const Type &t) {
  if (t == SHORT || t == UNSIGNED_SHORT)
    return 16;
  if (t == CHAR || t == SIGNED_CHAR || t == UNSIGNED_CHAR)
    return 8;
  return 32;
}

bool isSigned(const Type &t) {
  return t == INT || t == SHORT || t == CHAR || t == SIGNED_CHAR;
}

// Two's complement bits of an integral value.
std::uint64_t bitsOfValue(double x) {
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
}

// The bits wrapped to an integer type.
double wrap(const Type &type, std::uint64_t bits) {
  const unsigned n = bitsOf(type);
  const std::uint64_t mask = (std::uint64_t(1) << n) - 1;
  const std::uint64_t low = bits & mask;
  if (isSigned(type) && (low >> (n - 1)) != 0)
    return static_cast<double>(static_cast<std::int64_t>(low) -
                               (std::int64_t(1) << n));
  return static_cast<double>(low);
}

double nanPropagatingMax(double a, double b) {
  if (std::isnan(a))
    return a;
  if (std::isnan(b))
    return b;
  return a < b ? b : a;
}

double nanPropagatingMin(double a, double b) {
  if (std::isnan(a))
    return a;
  if (std::isnan(b))
    return b;
  return b < a ? b : a;
}

} // namespace

double storeAs(const Type &type, double x) {
  if (type == FLOAT)
    return static_cast<float>(x);
  if (type == HALF)
    return sdktest::nearestHalf(static_cast<float>(x));
  if (type == BOOL)
    return x != 0 ? 1 : 0;
  return wrap(type, bitsOfValue(x));
}

Type unaryResultType(UnaryOpType op, const Type &type) {
  switch (op) {
  case UnaryOpType::IS_FINITE:
  case UnaryOpType::IS_INF:
  case UnaryOpType::IS_NAN:
    return BOOL;
  default:
    return type;
  }
}

Type binaryResultType(BinaryOpType op, const Type &type) {
  switch (op) {
  case BinaryOpType::EQUAL:
  case BinaryOpType::NOT_EQUAL:
  case BinaryOpType::GREATER_THAN:
  case BinaryOpType::GREATER_THAN_EQUAL:
  case BinaryOpType::LESS_THAN:
  case BinaryOpType::LESS_THAN_EQUAL:
  case BinaryOpType::LOGICAL_AND:
  case BinaryOpType::LOGICAL_OR:
    return BOOL;
  default:
    return type;
  }
}

bool isExact(UnaryOpType op) {
  switch (op) {
  case UnaryOpType::ASIN:
  case UnaryOpType::CBRT:
  case UnaryOpType::COS:
  case UnaryOpType::ERF:
  case UnaryOpType::EXPONENT:
  case UnaryOpType::EXPONENT_MINUS_ONE:
  case UnaryOpType::EXPONENT2:
  case UnaryOpType::GELU_ERF:
  case UnaryOpType::LOGARITHM:
  case UnaryOpType::LOGARITHM_ONE_PLUS:
  case UnaryOpType::SIN:
  case UnaryOpType::TAN:
  case UnaryOpType::TANH:
  case UnaryOpType::SIGMOID:
  case UnaryOpType::RSQRT:
    return false;
  default:
    return true;
  }
}

bool isExact(BinaryOpType op) {
  switch (op) {
  case BinaryOpType::ATAN2:
  case BinaryOpType::POWER:
  case BinaryOpType::INV_STD_DEV_TO_VARIANCE:
  case BinaryOpType::VARIANCE_TO_INV_STD_DEV:
    return false;
  default:
    return true;
  }
}

double unary(UnaryOpType op, const Type &type, double x) {
  const Type result = unaryResultType(op, type);
  const bool fp = isFloating(type);
  const float f = static_cast<float>(x);
  const std::uint64_t bits = bitsOfValue(fp ? 0 : x);
  const auto u32 = static_cast<std::uint32_t>(bits);
  double r = 0;
  switch (op) {
  case UnaryOpType::ABSOLUTE:
    r = fp ? std::fabs(f) : wrap(type, x < 0 ? std::uint64_t(0) - bits : bits);
    break;
  case UnaryOpType::ASIN:
    r = std::asin(double(f));
    break;
  case UnaryOpType::BITWISE_NOT:
    r = wrap(type, ~bits);
    break;
  case UnaryOpType::CBRT:
    r = std::cbrt(double(f));
    break;
  case UnaryOpType::CEIL:
    r = std::ceil(f);
    break;
  case UnaryOpType::COS:
    r = std::cos(double(f));
    break;
  case UnaryOpType::COUNT_LEADING_ZEROS: {
    unsigned n = 0;
    while (n < 32 && ((u32 >> (31 - n)) & 1u) == 0)
      ++n;
    r = n;
    break;
  }
  case UnaryOpType::ERF:
    r = std::erf(double(f));
    break;
  case UnaryOpType::EXPONENT:
    r = std::exp(double(f));
    break;
  case UnaryOpType::EXPONENT_MINUS_ONE:
    r = std::expm1(double(f));
    break;
  case UnaryOpType::EXPONENT2:
    r = std::exp2(double(f));
    break;
  case UnaryOpType::FLOOR:
    r = std::floor(f);
    break;
  case UnaryOpType::GELU_ERF:
    r = 0.5 * f * (1 + std::erf(f / std::sqrt(2.0)));
    break;
  case UnaryOpType::INVERSE:
    r = 1.0f / f;
    break;
  case UnaryOpType::IS_FINITE:
    r = std::isfinite(f);
    break;
  case UnaryOpType::IS_INF:
    r = std::isinf(f);
    break;
  case UnaryOpType::IS_NAN:
    r = std::isnan(f);
    break;
  case UnaryOpType::LOGARITHM:
    r = std::log(double(f));
    break;
  case UnaryOpType::LOGARITHM_ONE_PLUS:
    r = std::log1p(double(f));
    break;
  case UnaryOpType::LOGICAL_NOT:
    r = x == 0;
    break;
  case UnaryOpType::NEGATE:
    r = fp ? -f : wrap(type, std::uint64_t(0) - bits);
    break;
  case UnaryOpType::NEARBY_INT:
    r = std::nearbyint(f);
    break;
  case UnaryOpType::POPCOUNT: {
    unsigned n = 0;
    for (unsigned i = 0; i != 32; ++i)
      n += (u32 >> i) & 1u;
    r = n;
    break;
  }
  case UnaryOpType::RELU:
    r = x < 0 ? 0 : x;
    break;
  case UnaryOpType::SIGNUM:
    r = std::isnan(x) ? x : (x > 0) - (x < 0);
    break;
  case UnaryOpType::SIN:
    r = std::sin(double(f));
    break;
  case UnaryOpType::TAN:
    r = std::tan(double(f));
    break;
  case UnaryOpType::TANH:
    r = std::tanh(double(f));
    break;
  case UnaryOpType::ROUND:
    r = std::round(f);
    break;
  case UnaryOpType::SQRT:
    r = std::sqrt(f);
    break;
  case UnaryOpType::SQUARE:
    r = fp ? f * f : wrap(type, bits * bits);
    break;
  case UnaryOpType::SIGMOID:
    r = 1 / (1 + std::exp(-double(f)));
    break;
  case UnaryOpType::RSQRT:
    r = 1 / std::sqrt(double(f));
    break;
  case UnaryOpType::TRUNC:
    r = std::trunc(f);
    break;
  }
  return storeAs(result, r);
}

double binary(BinaryOpType op, const Type &type, double a, double b) {
  const Type result = binaryResultType(op, type);
  const bool fp = isFloating(type);
  const float fa = static_cast<float>(a), fb = static_cast<float>(b);
  const std::uint64_t ba = bitsOfValue(fp ? 0 : a),
                      bb = bitsOfValue(fp ? 0 : b);
  const unsigned width = bitsOf(type);
  // A shift amount outside [0, width).
  const bool shiftOut = !fp && (b < 0 || b >= width);
  double r = 0;
  switch (op) {
  case BinaryOpType::ADD:
    r = fp ? fa + fb : wrap(type, ba + bb);
    break;
  case BinaryOpType::SUBTRACT:
    r = fp ? fa - fb : wrap(type, ba - bb);
    break;
  case BinaryOpType::MULTIPLY:
    r = fp ? fa * fb : wrap(type, ba * bb);
    break;
  case BinaryOpType::DIVIDE:
    if (fp)
      r = fa / fb;
    else if (b == 0)
      r = 0;
    else if (isSigned(type) && b == -1)
      r = wrap(type, std::uint64_t(0) - ba);
    else
      r = static_cast<double>(static_cast<std::int64_t>(a) /
                              static_cast<std::int64_t>(b));
    break;
  case BinaryOpType::REMAINDER:
    if (fp)
      r = std::fmod(fa, fb);
    else if (b == 0 || (isSigned(type) && b == -1))
      r = 0;
    else
      r = static_cast<double>(static_cast<std::int64_t>(a) %
                              static_cast<std::int64_t>(b));
    break;
  case BinaryOpType::MAXIMUM:
    r = fp ? nanPropagatingMax(fa, fb) : std::max(a, b);
    break;
  case BinaryOpType::MINIMUM:
    r = fp ? nanPropagatingMin(fa, fb) : std::min(a, b);
    break;
  case BinaryOpType::POWER:
    r = std::pow(double(fa), double(fb));
    break;
  case BinaryOpType::ATAN2:
    r = std::atan2(double(fa), double(fb));
    break;
  case BinaryOpType::BITWISE_AND:
    r = wrap(type, ba & bb);
    break;
  case BinaryOpType::BITWISE_OR:
    r = wrap(type, ba | bb);
    break;
  case BinaryOpType::BITWISE_XOR:
    r = wrap(type, ba ^ bb);
    break;
  case BinaryOpType::BITWISE_XNOR:
    r = wrap(type, ~(ba ^ bb));
    break;
  case BinaryOpType::SHIFT_LEFT:
    r = shiftOut ? 0 : wrap(type, ba << static_cast<unsigned>(b));
    break;
  case BinaryOpType::SHIFT_RIGHT: {
    const std::uint64_t mask = (std::uint64_t(1) << width) - 1;
    r = shiftOut ? 0 : wrap(type, (ba & mask) >> static_cast<unsigned>(b));
    break;
  }
  case BinaryOpType::SHIFT_RIGHT_SIGN_EXTEND: {
    // The bits of a as a signed value of the type's width.
    const double s = isSigned(type) ? a
                     : a >= std::ldexp(1.0, width - 1)
                         ? a - std::ldexp(1.0, width)
                         : a;
    const auto sv = static_cast<std::int64_t>(s);
    r = wrap(type, static_cast<std::uint64_t>(
                       shiftOut ? (sv < 0 ? -1 : 0)
                                : sv >> static_cast<unsigned>(b)));
    break;
  }
  case BinaryOpType::EQUAL:
    r = a == b;
    break;
  case BinaryOpType::NOT_EQUAL:
    r = a != b;
    break;
  case BinaryOpType::GREATER_THAN:
    r = a > b;
    break;
  case BinaryOpType::GREATER_THAN_EQUAL:
    r = a >= b;
    break;
  case BinaryOpType::LESS_THAN:
    r = a < b;
    break;
  case BinaryOpType::LESS_THAN_EQUAL:
    r = a <= b;
    break;
  case BinaryOpType::LOGICAL_AND:
    r = a != 0 && b != 0;
    break;
  case BinaryOpType::LOGICAL_OR:
    r = a != 0 || b != 0;
    break;
  case BinaryOpType::INV_STD_DEV_TO_VARIANCE:
    r = 1 / (double(fa) * fa) - fb;
    break;
  case BinaryOpType::VARIANCE_TO_INV_STD_DEV:
    r = 1 / std::sqrt(double(fa) + fb);
    break;
  }
  return storeAs(result, r);
}

double select(double a, double b, double cond) { return cond != 0 ? a : b; }

double clamp(const Type &type, double x, double lo, double hi) {
  if (isFloating(type))
    return nanPropagatingMin(nanPropagatingMax(x, lo), hi);
  return std::min(std::max(x, lo), hi);
}

double cast(const Type &from, const Type &to, double x) {
  if (to == BOOL)
    return x != 0 || std::isnan(x) ? 1 : 0;
  if (from == BOOL || isFloating(to))
    return storeAs(to, x);
  if (isFloating(from)) {
    if (std::isnan(x))
      return 0;
    const unsigned n = bitsOf(to);
    const double lo = isSigned(to) ? -std::ldexp(1.0, n - 1) : 0;
    const double hi =
        isSigned(to) ? std::ldexp(1.0, n - 1) - 1 : std::ldexp(1.0, n) - 1;
    return std::trunc(std::min(std::max(x, lo), hi));
  }
  return storeAs(to, x);
}

std::size_t broadcastIndex(const std::vector<std::size_t> &from,
                           const std::vector<std::size_t> &to,
                           std::size_t flat) {
  std::vector<std::size_t> index(to.size());
  for (std::size_t d = to.size(); d-- > 0;) {
    index[d] = flat % to[d];
    flat /= to[d];
  }
  std::size_t result = 0;
  const std::size_t offset = to.size() - from.size();
  for (std::size_t d = 0; d != from.size(); ++d)
    result = result * from[d] + (from[d] == 1 ? 0 : index[d + offset]);
  return result;
}

bool close(double got, double expected, bool exact, double relTol) {
  if (std::isnan(got) || std::isnan(expected))
    return std::isnan(got) && std::isnan(expected);
  if (got == expected)
    return true;
  if (exact || std::isinf(got) || std::isinf(expected))
    return false;
  return std::fabs(got - expected) <=
         relTol * std::max(std::fabs(expected), 1e-30);
}

} // namespace popops_test
