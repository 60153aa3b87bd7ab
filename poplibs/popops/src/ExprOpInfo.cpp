#include "ExprOpInfo.hpp"

#include <algorithm>

using namespace poplar;
using popops::expr::BinaryOpType;
using popops::expr::TernaryOpType;
using popops::expr::UnaryOpType;

namespace popops {
namespace detail {
namespace {

// The type sets of the table below. codelets/*.cpp instantiate exactly
// these combinations.
const std::vector<Type> &floating() {
  static const std::vector<Type> t{FLOAT, HALF};
  return t;
}
const std::vector<Type> &signedNumeric() {
  static const std::vector<Type> t{FLOAT, HALF, INT, SHORT};
  return t;
}
const std::vector<Type> &integers() {
  static const std::vector<Type> t{INT, UNSIGNED_INT, SHORT, UNSIGNED_SHORT};
  return t;
}
const std::vector<Type> &integers32() {
  static const std::vector<Type> t{INT, UNSIGNED_INT};
  return t;
}
const std::vector<Type> &numeric() {
  static const std::vector<Type> t{FLOAT,        HALF,  INT,
                                   UNSIGNED_INT, SHORT, UNSIGNED_SHORT};
  return t;
}
const std::vector<Type> &numericAndBool() {
  static const std::vector<Type> t{FLOAT, HALF,           INT, UNSIGNED_INT,
                                   SHORT, UNSIGNED_SHORT, BOOL};
  return t;
}
const std::vector<Type> &boolean() {
  static const std::vector<Type> t{BOOL};
  return t;
}

struct UnaryInfo {
  UnaryOpType op;
  const char *name;
  const char *function;
  const std::vector<Type> &(*types)();
  unsigned cycles; // per vector, see opCycles
};

struct BinaryInfo {
  BinaryOpType op;
  const char *name;
  const char *function;
  const std::vector<Type> &(*types)();
  unsigned cycles;
  bool commutative;
};

// Cycle costs: 1 for what the IPU does in one instruction per vector, more
// for what it does with a short sequence (division by reciprocal and
// multiply, the special functions it has instructions for), 30 for what
// it computes with a library polynomial, 32 for integer division, which it
// does in software. Integer operations are not vectorised (see
// CycleEstimates.cpp).
const UnaryInfo unaryTable[] = {
    {UnaryOpType::ABSOLUTE, "ABSOLUTE", "abs", signedNumeric, 1},
    {UnaryOpType::ASIN, "ASIN", "asin", floating, 30},
    {UnaryOpType::BITWISE_NOT, "BITWISE_NOT", "bitwiseNot", integers, 1},
    {UnaryOpType::CBRT, "CBRT", "cbrt", floating, 30},
    {UnaryOpType::CEIL, "CEIL", "ceil", floating, 2},
    {UnaryOpType::COS, "COS", "cos", floating, 30},
    {UnaryOpType::COUNT_LEADING_ZEROS, "COUNT_LEADING_ZEROS",
     "countLeadingZeros", integers32, 1},
    {UnaryOpType::ERF, "ERF", "erf", floating, 30},
    {UnaryOpType::EXPONENT, "EXPONENT", "exp", floating, 4},
    {UnaryOpType::EXPONENT_MINUS_ONE, "EXPONENT_MINUS_ONE", "expm1", floating,
     6},
    {UnaryOpType::EXPONENT2, "EXPONENT2", "exp2", floating, 4},
    {UnaryOpType::FLOOR, "FLOOR", "floor", floating, 2},
    {UnaryOpType::GELU_ERF, "GELU_ERF", "geluErf", floating, 34},
    {UnaryOpType::INVERSE, "INVERSE", "inv", floating, 4},
    {UnaryOpType::IS_FINITE, "IS_FINITE", "isFinite", floating, 2},
    {UnaryOpType::IS_INF, "IS_INF", "isInf", floating, 2},
    {UnaryOpType::IS_NAN, "IS_NAN", "isNaN", floating, 2},
    {UnaryOpType::LOGARITHM, "LOGARITHM", "log", floating, 4},
    {UnaryOpType::LOGARITHM_ONE_PLUS, "LOGARITHM_ONE_PLUS", "log1p", floating,
     6},
    {UnaryOpType::LOGICAL_NOT, "LOGICAL_NOT", "logicalNot", boolean, 1},
    {UnaryOpType::NEGATE, "NEGATE", "neg", signedNumeric, 1},
    {UnaryOpType::NEARBY_INT, "NEARBY_INT", "nearbyint", floating, 2},
    {UnaryOpType::POPCOUNT, "POPCOUNT", "popcount", integers32, 1},
    {UnaryOpType::RELU, "RELU", "relu", signedNumeric, 1},
    {UnaryOpType::SIGNUM, "SIGNUM", "signum", signedNumeric, 2},
    {UnaryOpType::SIN, "SIN", "sin", floating, 30},
    {UnaryOpType::TAN, "TAN", "tan", floating, 30},
    {UnaryOpType::TANH, "TANH", "tanh", floating, 4},
    {UnaryOpType::ROUND, "ROUND", "round", floating, 2},
    {UnaryOpType::SQRT, "SQRT", "sqrt", floating, 4},
    {UnaryOpType::SQUARE, "SQUARE", "square", numeric, 1},
    {UnaryOpType::SIGMOID, "SIGMOID", "sigmoid", floating, 4},
    {UnaryOpType::RSQRT, "RSQRT", "rsqrt", floating, 4},
    {UnaryOpType::TRUNC, "TRUNC", "trunc", floating, 2},
};

const BinaryInfo binaryTable[] = {
    {BinaryOpType::ADD, "ADD", "add", numeric, 1, true},
    {BinaryOpType::ATAN2, "ATAN2", "atan2", floating, 30, false},
    {BinaryOpType::BITWISE_AND, "BITWISE_AND", "bitwiseAnd", integers, 1, true},
    {BinaryOpType::BITWISE_OR, "BITWISE_OR", "bitwiseOr", integers, 1, true},
    {BinaryOpType::BITWISE_XOR, "BITWISE_XOR", "bitwiseXor", integers, 1, true},
    {BinaryOpType::BITWISE_XNOR, "BITWISE_XNOR", "bitwiseXnor", integers, 2,
     true},
    {BinaryOpType::DIVIDE, "DIVIDE", "div", numeric, 4, false},
    {BinaryOpType::EQUAL, "EQUAL", "eq", numericAndBool, 1, true},
    {BinaryOpType::GREATER_THAN_EQUAL, "GREATER_THAN_EQUAL", "gteq",
     numericAndBool, 1, false},
    {BinaryOpType::GREATER_THAN, "GREATER_THAN", "gt", numericAndBool, 1,
     false},
    {BinaryOpType::INV_STD_DEV_TO_VARIANCE, "INV_STD_DEV_TO_VARIANCE",
     "invStdDevToVariance", floating, 6, false},
    {BinaryOpType::LESS_THAN_EQUAL, "LESS_THAN_EQUAL", "lteq", numericAndBool,
     1, false},
    {BinaryOpType::LOGICAL_AND, "LOGICAL_AND", "logicalAnd", boolean, 1, true},
    {BinaryOpType::LOGICAL_OR, "LOGICAL_OR", "logicalOr", boolean, 1, true},
    {BinaryOpType::LESS_THAN, "LESS_THAN", "lt", numericAndBool, 1, false},
    {BinaryOpType::MAXIMUM, "MAXIMUM", "max", numeric, 1, true},
    {BinaryOpType::MINIMUM, "MINIMUM", "min", numeric, 1, true},
    {BinaryOpType::MULTIPLY, "MULTIPLY", "mul", numeric, 1, true},
    {BinaryOpType::NOT_EQUAL, "NOT_EQUAL", "neq", numericAndBool, 1, true},
    {BinaryOpType::POWER, "POWER", "pow", floating, 30, false},
    {BinaryOpType::REMAINDER, "REMAINDER", "rem", numeric, 8, false},
    {BinaryOpType::SHIFT_LEFT, "SHIFT_LEFT", "shl", integers32, 1, false},
    {BinaryOpType::SHIFT_RIGHT, "SHIFT_RIGHT", "shr", integers32, 1, false},
    {BinaryOpType::SHIFT_RIGHT_SIGN_EXTEND, "SHIFT_RIGHT_SIGN_EXTEND", "shrSE",
     integers32, 1, false},
    {BinaryOpType::SUBTRACT, "SUBTRACT", "sub", numeric, 1, false},
    {BinaryOpType::VARIANCE_TO_INV_STD_DEV, "VARIANCE_TO_INV_STD_DEV",
     "varianceToInvStdDev", floating, 6, false},
};

const UnaryInfo &info(UnaryOpType op) {
  for (const auto &i : unaryTable)
    if (i.op == op)
      return i;
  return unaryTable[0];
}
const BinaryInfo &info(BinaryOpType op) {
  for (const auto &i : binaryTable)
    if (i.op == op)
      return i;
  return binaryTable[0];
}

bool contains(const std::vector<Type> &types, const Type &t) {
  return std::find(types.begin(), types.end(), t) != types.end();
}

} // namespace

const char *opName(UnaryOpType op) { return info(op).name; }
const char *opName(BinaryOpType op) { return info(op).name; }
const char *opName(TernaryOpType op) {
  return op == TernaryOpType::CLAMP ? "CLAMP" : "SELECT";
}

const char *opFunction(UnaryOpType op) { return info(op).function; }
const char *opFunction(BinaryOpType op) { return info(op).function; }
const char *opFunction(TernaryOpType op) {
  return op == TernaryOpType::CLAMP ? "clamp" : "select";
}

const std::vector<Type> &supportedTypes(UnaryOpType op) {
  return info(op).types();
}
const std::vector<Type> &supportedTypes(BinaryOpType op) {
  return info(op).types();
}
const std::vector<Type> &supportedTypes(TernaryOpType op) {
  return op == TernaryOpType::CLAMP ? numeric() : numericAndBool();
}
bool isSupported(UnaryOpType op, const Type &type) {
  return contains(supportedTypes(op), type);
}
bool isSupported(BinaryOpType op, const Type &type) {
  return contains(supportedTypes(op), type);
}
bool isSupported(TernaryOpType op, const Type &type) {
  return contains(supportedTypes(op), type);
}

const std::vector<Type> &castTypes() {
  static const std::vector<Type> t{
      FLOAT,          HALF, INT,  UNSIGNED_INT, SHORT,
      UNSIGNED_SHORT, BOOL, CHAR, SIGNED_CHAR,  UNSIGNED_CHAR};
  return t;
}
bool isCastType(const Type &type) { return contains(castTypes(), type); }

std::string typeList(const std::vector<Type> &types) {
  std::string s;
  for (std::size_t i = 0; i != types.size(); ++i) {
    if (i != 0)
      s += i + 1 == types.size() ? " or " : ", ";
    s += types[i].toString().str();
  }
  return s;
}

Type outputType(UnaryOpType op, const Type &type) {
  switch (op) {
  case UnaryOpType::IS_FINITE:
  case UnaryOpType::IS_INF:
  case UnaryOpType::IS_NAN:
    return BOOL;
  default:
    return type;
  }
}

Type outputType(BinaryOpType op, const Type &type) {
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

bool isCommutative(BinaryOpType op) { return info(op).commutative; }

std::optional<BinaryOpType> swappedComparison(BinaryOpType op) {
  switch (op) {
  case BinaryOpType::GREATER_THAN:
    return BinaryOpType::LESS_THAN;
  case BinaryOpType::GREATER_THAN_EQUAL:
    return BinaryOpType::LESS_THAN_EQUAL;
  case BinaryOpType::LESS_THAN:
    return BinaryOpType::GREATER_THAN;
  case BinaryOpType::LESS_THAN_EQUAL:
    return BinaryOpType::GREATER_THAN_EQUAL;
  default:
    return std::nullopt;
  }
}

// Integer division and remainder are done in software on the IPU.
unsigned opCycles(UnaryOpType op, const Type &type) { return info(op).cycles; }
unsigned opCycles(BinaryOpType op, const Type &type) {
  const bool integer = type != FLOAT && type != HALF;
  if (integer && (op == BinaryOpType::DIVIDE || op == BinaryOpType::REMAINDER))
    return 32;
  return info(op).cycles;
}
unsigned opCycles(TernaryOpType op, const Type &type) {
  return op == TernaryOpType::CLAMP ? 2 : 1;
}

} // namespace detail
} // namespace popops
