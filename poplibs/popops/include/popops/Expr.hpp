// Element-wise expressions: trees of operations on placeholders for the
// elements of tensors (_1, _2, ...) and constants, applied to tensors by
// popops::map, mapInPlace and mapWithOutput (popops/ElementWise.hpp):
//
//   using namespace popops::expr;
//   popops::map(graph, Tanh(Add(Square(_1), Const(3))), {x}, prog);
//   popops::map(graph, _1 * 2.0f + _2, {a, b}, prog);
#ifndef POPOPS_EXPR_HPP
#define POPOPS_EXPR_HPP

#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <popops/ExprOp.hpp>
#include <popops/popops_export.hpp>

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace popops {
namespace expr {

/// What an Expr is; each concrete class has its own.
enum class ExprKind { Const, Cast, PlaceHolder, UnaryOp, BinaryOp, TernaryOp };

/// An expression over elements of tensors. Abstract: build expressions from
/// the classes below.
class POPOPS_API Expr {
public:
  virtual ~Expr();

  ExprKind getKind() const { return kind; }
  /// Whether the expression is a T (UnaryOp, Const, ...). The named
  /// operation classes (Add, ...) are their operation class: isA<Add>() is
  /// isA<BinaryOp>().
  template <class T> bool isA() const { return kind == T::exprKind; }
  template <class T> T *getAs() {
    return isA<T>() ? static_cast<T *>(this) : nullptr;
  }
  template <class T> const T *getAs() const {
    return isA<T>() ? static_cast<const T *>(this) : nullptr;
  }

  virtual std::unique_ptr<Expr> clone() const = 0;
  /// A short name for debug strings, naming the tensors of `inputs` the
  /// placeholders refer to.
  virtual std::string name(const std::vector<poplar::Tensor> &inputs) const = 0;
  virtual bool deepEquals(const Expr &other) const = 0;
  /// Writes the expression, e.g. "Add(_1, Const(3))"; prettyPrint puts
  /// each operand on a line of its own, indented.
  virtual void print(std::ostream &os, unsigned indent = 0,
                     bool prettyPrint = true) const = 0;

protected:
  explicit Expr(ExprKind kind) : kind(kind) {}
  Expr(const Expr &) = default;
  Expr &operator=(const Expr &) = default;

private:
  ExprKind kind;
};

POPOPS_API std::ostream &operator<<(std::ostream &os, const Expr &expr);
POPOPS_API bool deepEquals(const Expr &a, const Expr &b);

/// Holds any expression, for building expression trees whose outermost
/// operation is only known at run time.
class POPOPS_API Any {
public:
  Any(const Expr &expr) : expr(expr.clone()) {}
  Any(const Any &other) : expr(other.expr->clone()) {}
  Any(Any &&) noexcept = default;
  Any &operator=(const Any &other) {
    expr = other.expr->clone();
    return *this;
  }
  Any &operator=(Any &&) noexcept = default;

  operator Expr &() { return *expr; }
  operator const Expr &() const { return *expr; }
  std::string name(const std::vector<poplar::Tensor> &inputs) const {
    return expr->name(inputs);
  }

private:
  std::unique_ptr<Expr> expr;
};

/// A constant. Its type is the device type of the C++ value (float gives
/// FLOAT, int INT, ...); where it meets an operand of another type in an
/// expression it is converted to that type, so `_1 + 1` adds one to a
/// tensor of any numeric type.
class POPOPS_API Const : public Expr {
public:
  static constexpr ExprKind exprKind = ExprKind::Const;

  template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value>::type>
  Const(T x) : Const(x, false) {}
  Const(const Const &other);
  Const &operator=(const Const &other);

  /// The device type of the value: FLOAT, INT, ... (HALF for ConstHalf;
  /// DOUBLE for a double, which becomes FLOAT unless an operand gives it
  /// another type).
  const poplar::Type &getType() const { return type; }
  /// The bytes of the value as given (a float for ConstHalf).
  char *getData() const { return data.get(); }
  double getDataAsDouble() const;
  /// The value as an integer (two's complement for negative values).
  std::uint64_t getDataForUnsignedIntegral() const;
  /// Whether the value is a signed integer.
  bool isSignedIntegral() const { return storage == Storage::Signed; }
  /// Whether the value is floating point (float, double or ConstHalf).
  bool isFloatingPoint() const { return storage == Storage::Floating; }
  std::string printValue() const;

  std::unique_ptr<Expr> clone() const override;
  std::string name(const std::vector<poplar::Tensor> &inputs) const override;
  bool deepEquals(const Expr &other) const override;
  void print(std::ostream &os, unsigned indent = 0,
             bool prettyPrint = true) const override;

protected:
  template <typename T> Const(T x, bool isHalf) : Expr(ExprKind::Const) {
    static_assert(std::is_arithmetic<T>::value,
                  "a constant is an integer or floating-point value");
    if (std::is_floating_point<T>::value)
      storage = Storage::Floating;
    else if (std::is_signed<T>::value)
      storage = Storage::Signed;
    else
      storage = Storage::Unsigned;
    if (isHalf)
      type = poplar::HALF;
    else
      type = poplar::equivalent_device_type<T>().value;
    const auto value = static_cast<
        typename std::conditional<std::is_same<T, long double>::value, double, T>::type>(x);
    setData(&value, sizeof value);
  }

private:
  enum class Storage : std::uint8_t { Floating, Signed, Unsigned };
  void setData(const void *bytes, std::size_t size);

  poplar::Type type;
  Storage storage = Storage::Floating;
  std::size_t size = 0;
  std::unique_ptr<char[]> data;
};

/// A constant of type HALF.
class POPOPS_API ConstHalf : public Const {
public:
  ConstHalf(float x) : Const(x, true) {}
};

inline ConstHalf operator""_half(long double x) {
  return ConstHalf(static_cast<float>(x));
}

/// The value of an expression converted to another type.
class POPOPS_API Cast : public Expr {
public:
  static constexpr ExprKind exprKind = ExprKind::Cast;

  Cast(const Expr &a, const poplar::Type bType)
      : Expr(ExprKind::Cast), a(a.clone()), bType(bType) {}
  Cast(const Cast &other) : Cast(*other.a, other.bType) {}

  const Expr &getLHS() const { return *a; }
  const poplar::Type &getRHSType() const { return bType; }

  std::unique_ptr<Expr> clone() const override;
  std::string name(const std::vector<poplar::Tensor> &inputs) const override;
  bool deepEquals(const Expr &other) const override;
  void print(std::ostream &os, unsigned indent = 0,
             bool prettyPrint = true) const override;

private:
  std::unique_ptr<Expr> a;
  poplar::Type bType;
};

/// The element of the index-th tensor given to map (1-based).
class POPOPS_API PlaceHolder : public Expr {
public:
  static constexpr ExprKind exprKind = ExprKind::PlaceHolder;

  PlaceHolder(unsigned index) : Expr(ExprKind::PlaceHolder), index(index) {}

  unsigned getIndex() const { return index; }

  std::unique_ptr<Expr> clone() const override;
  std::string name(const std::vector<poplar::Tensor> &inputs) const override;
  bool deepEquals(const Expr &other) const override;
  void print(std::ostream &os, unsigned indent = 0,
             bool prettyPrint = true) const override;

private:
  unsigned index;
};

const PlaceHolder _1(1);
const PlaceHolder _2(2);
const PlaceHolder _3(3);
const PlaceHolder _4(4);
const PlaceHolder _5(5);
const PlaceHolder _6(6);
const PlaceHolder _7(7);
const PlaceHolder _8(8);
const PlaceHolder _9(9);
const PlaceHolder _10(10);
const PlaceHolder _11(11);
const PlaceHolder _12(12);
const PlaceHolder _13(13);
const PlaceHolder _14(14);
const PlaceHolder _15(15);
const PlaceHolder _16(16);
const PlaceHolder _17(17);
const PlaceHolder _18(18);
const PlaceHolder _19(19);
const PlaceHolder _20(20);

/// An operation with one operand.
class POPOPS_API UnaryOp : public Expr {
public:
  static constexpr ExprKind exprKind = ExprKind::UnaryOp;

  UnaryOp(UnaryOpType type, const Expr &a)
      : Expr(ExprKind::UnaryOp), type(type), a(a.clone()) {}
  UnaryOp(const UnaryOp &other) : UnaryOp(other.type, *other.a) {}

  UnaryOpType getOpType() const { return type; }
  const Expr &getArg() const { return *a; }

  std::unique_ptr<Expr> clone() const override;
  std::string name(const std::vector<poplar::Tensor> &inputs) const override;
  std::string exprName(const std::vector<poplar::Tensor> &inputs) const {
    return a->name(inputs);
  }
  bool deepEquals(const Expr &other) const override;
  void print(std::ostream &os, unsigned indent = 0,
             bool prettyPrint = true) const override;

private:
  UnaryOpType type;
  std::unique_ptr<Expr> a;
};

/// An operation with two operands.
class POPOPS_API BinaryOp : public Expr {
public:
  static constexpr ExprKind exprKind = ExprKind::BinaryOp;

  BinaryOp(BinaryOpType type, const Expr &a, const Expr &b)
      : Expr(ExprKind::BinaryOp), type(type), a(a.clone()), b(b.clone()) {}
  BinaryOp(const BinaryOp &other) : BinaryOp(other.type, *other.a, *other.b) {}

  BinaryOpType getOpType() const { return type; }
  const Expr &getLHS() const { return *a; }
  const Expr &getRHS() const { return *b; }

  std::unique_ptr<Expr> clone() const override;
  std::string name(const std::vector<poplar::Tensor> &inputs) const override;
  std::string exprName(const std::vector<poplar::Tensor> &inputs) const {
    return a->name(inputs) + "_" + b->name(inputs);
  }
  bool deepEquals(const Expr &other) const override;
  void print(std::ostream &os, unsigned indent = 0,
             bool prettyPrint = true) const override;

private:
  BinaryOpType type;
  std::unique_ptr<Expr> a, b;
};

/// An operation with three operands.
class POPOPS_API TernaryOp : public Expr {
public:
  static constexpr ExprKind exprKind = ExprKind::TernaryOp;

  TernaryOp(TernaryOpType type, const Expr &a, const Expr &b, const Expr &c)
      : Expr(ExprKind::TernaryOp), type(type), a(a.clone()), b(b.clone()),
        c(c.clone()) {}
  TernaryOp(const TernaryOp &other)
      : TernaryOp(other.type, *other.a, *other.b, *other.c) {}

  TernaryOpType getOpType() const { return type; }
  const Expr &getArg0() const { return *a; }
  const Expr &getArg1() const { return *b; }
  const Expr &getArg2() const { return *c; }

  std::unique_ptr<Expr> clone() const override;
  std::string name(const std::vector<poplar::Tensor> &inputs) const override;
  std::string exprName(const std::vector<poplar::Tensor> &inputs) const {
    return a->name(inputs) + "_" + b->name(inputs) + "_" + c->name(inputs);
  }
  bool deepEquals(const Expr &other) const override;
  void print(std::ostream &os, unsigned indent = 0,
             bool prettyPrint = true) const override;

private:
  TernaryOpType type;
  std::unique_ptr<Expr> a, b, c;
};

/// The named operations: Abs(x) is UnaryOp(UnaryOpType::ABSOLUTE, x).
template <UnaryOpType Op> class NamedUnaryOp : public UnaryOp {
public:
  NamedUnaryOp(const Expr &a) : UnaryOp(Op, a) {}
};
template <BinaryOpType Op> class NamedBinaryOp : public BinaryOp {
public:
  NamedBinaryOp(const Expr &a, const Expr &b) : BinaryOp(Op, a, b) {}
};
template <TernaryOpType Op> class NamedTernaryOp : public TernaryOp {
public:
  NamedTernaryOp(const Expr &a, const Expr &b, const Expr &c)
      : TernaryOp(Op, a, b, c) {}
};

using Abs = NamedUnaryOp<UnaryOpType::ABSOLUTE>;
using Asin = NamedUnaryOp<UnaryOpType::ASIN>;
using BitwiseNot = NamedUnaryOp<UnaryOpType::BITWISE_NOT>;
using Cbrt = NamedUnaryOp<UnaryOpType::CBRT>;
using Erf = NamedUnaryOp<UnaryOpType::ERF>;
using Ceil = NamedUnaryOp<UnaryOpType::CEIL>;
using Cos = NamedUnaryOp<UnaryOpType::COS>;
using Exp = NamedUnaryOp<UnaryOpType::EXPONENT>;
using Expm1 = NamedUnaryOp<UnaryOpType::EXPONENT_MINUS_ONE>;
using Exp2 = NamedUnaryOp<UnaryOpType::EXPONENT2>;
using Floor = NamedUnaryOp<UnaryOpType::FLOOR>;
using GeluErf = NamedUnaryOp<UnaryOpType::GELU_ERF>;
using Inv = NamedUnaryOp<UnaryOpType::INVERSE>;
using IsFinite = NamedUnaryOp<UnaryOpType::IS_FINITE>;
using IsInf = NamedUnaryOp<UnaryOpType::IS_INF>;
using IsNaN = NamedUnaryOp<UnaryOpType::IS_NAN>;
using Log = NamedUnaryOp<UnaryOpType::LOGARITHM>;
using Log1p = NamedUnaryOp<UnaryOpType::LOGARITHM_ONE_PLUS>;
using Not = NamedUnaryOp<UnaryOpType::LOGICAL_NOT>;
using Neg = NamedUnaryOp<UnaryOpType::NEGATE>;
using NearbyInt = NamedUnaryOp<UnaryOpType::NEARBY_INT>;
using Signum = NamedUnaryOp<UnaryOpType::SIGNUM>;
using Sin = NamedUnaryOp<UnaryOpType::SIN>;
using Tan = NamedUnaryOp<UnaryOpType::TAN>;
using Tanh = NamedUnaryOp<UnaryOpType::TANH>;
using Round = NamedUnaryOp<UnaryOpType::ROUND>;
using Trunc = NamedUnaryOp<UnaryOpType::TRUNC>;
using Sqrt = NamedUnaryOp<UnaryOpType::SQRT>;
using Square = NamedUnaryOp<UnaryOpType::SQUARE>;
using Sigmoid = NamedUnaryOp<UnaryOpType::SIGMOID>;
using Rsqrt = NamedUnaryOp<UnaryOpType::RSQRT>;

using Add = NamedBinaryOp<BinaryOpType::ADD>;
using Atan2 = NamedBinaryOp<BinaryOpType::ATAN2>;
using BitwiseAnd = NamedBinaryOp<BinaryOpType::BITWISE_AND>;
using BitwiseOr = NamedBinaryOp<BinaryOpType::BITWISE_OR>;
using BitwiseXor = NamedBinaryOp<BinaryOpType::BITWISE_XOR>;
using BitwiseXnor = NamedBinaryOp<BinaryOpType::BITWISE_XNOR>;
using Divide = NamedBinaryOp<BinaryOpType::DIVIDE>;
using Equal = NamedBinaryOp<BinaryOpType::EQUAL>;
using Gte = NamedBinaryOp<BinaryOpType::GREATER_THAN_EQUAL>;
using Gt = NamedBinaryOp<BinaryOpType::GREATER_THAN>;
using Lte = NamedBinaryOp<BinaryOpType::LESS_THAN_EQUAL>;
using And = NamedBinaryOp<BinaryOpType::LOGICAL_AND>;
using Or = NamedBinaryOp<BinaryOpType::LOGICAL_OR>;
using Lt = NamedBinaryOp<BinaryOpType::LESS_THAN>;
using InvStdDevToVariance =
    NamedBinaryOp<BinaryOpType::INV_STD_DEV_TO_VARIANCE>;
using Max = NamedBinaryOp<BinaryOpType::MAXIMUM>;
using Min = NamedBinaryOp<BinaryOpType::MINIMUM>;
using Mul = NamedBinaryOp<BinaryOpType::MULTIPLY>;
using NotEqual = NamedBinaryOp<BinaryOpType::NOT_EQUAL>;
using Pow = NamedBinaryOp<BinaryOpType::POWER>;
using Rem = NamedBinaryOp<BinaryOpType::REMAINDER>;
using Shl = NamedBinaryOp<BinaryOpType::SHIFT_LEFT>;
using Shr = NamedBinaryOp<BinaryOpType::SHIFT_RIGHT>;
using ShrSE = NamedBinaryOp<BinaryOpType::SHIFT_RIGHT_SIGN_EXTEND>;
using Sub = NamedBinaryOp<BinaryOpType::SUBTRACT>;
using VarianceToInvStdDev =
    NamedBinaryOp<BinaryOpType::VARIANCE_TO_INV_STD_DEV>;

/// Select(a, b, cond): a where cond is true, else b.
using Select = NamedTernaryOp<TernaryOpType::SELECT>;
/// Clamp(x, lower, upper): min(max(x, lower), upper).
using Clamp = NamedTernaryOp<TernaryOpType::CLAMP>;

// Operators: Expr op Expr, and a C++ number on either side (made a Const).

namespace detail {
template <class T>
using IfNumber = typename std::enable_if<std::is_arithmetic<T>::value, int>::type;
} // namespace detail

inline Neg operator-(const Expr &a) { return Neg(a); }
inline Not operator!(const Expr &a) { return Not(a); }
inline BitwiseNot operator~(const Expr &a) { return BitwiseNot(a); }

#define POPOPS_EXPR_BINARY_OPERATOR(Class, op)                                 \
  inline Class operator op(const Expr &a, const Expr &b) {                     \
    return Class(a, b);                                                        \
  }                                                                            \
  template <class T, detail::IfNumber<T> = 0>                                  \
  Class operator op(const T &a, const Expr &b) {                               \
    return Class(Const(a), b);                                                 \
  }                                                                            \
  template <class T, detail::IfNumber<T> = 0>                                  \
  Class operator op(const Expr &a, const T &b) {                               \
    return Class(a, Const(b));                                                 \
  }
POPOPS_EXPR_BINARY_OPERATOR(Add, +)
POPOPS_EXPR_BINARY_OPERATOR(Sub, -)
POPOPS_EXPR_BINARY_OPERATOR(Mul, *)
POPOPS_EXPR_BINARY_OPERATOR(Divide, /)
POPOPS_EXPR_BINARY_OPERATOR(Rem, %)
POPOPS_EXPR_BINARY_OPERATOR(BitwiseAnd, &)
POPOPS_EXPR_BINARY_OPERATOR(BitwiseOr, |)
POPOPS_EXPR_BINARY_OPERATOR(BitwiseXor, ^)
POPOPS_EXPR_BINARY_OPERATOR(Shl, <<)
POPOPS_EXPR_BINARY_OPERATOR(Shr, >>)
POPOPS_EXPR_BINARY_OPERATOR(Equal, ==)
POPOPS_EXPR_BINARY_OPERATOR(NotEqual, !=)
POPOPS_EXPR_BINARY_OPERATOR(Gt, >)
POPOPS_EXPR_BINARY_OPERATOR(Gte, >=)
POPOPS_EXPR_BINARY_OPERATOR(Lt, <)
POPOPS_EXPR_BINARY_OPERATOR(Lte, <=)
POPOPS_EXPR_BINARY_OPERATOR(And, &&)
POPOPS_EXPR_BINARY_OPERATOR(Or, ||)
#undef POPOPS_EXPR_BINARY_OPERATOR

} // namespace expr
} // namespace popops

#endif // POPOPS_EXPR_HPP
