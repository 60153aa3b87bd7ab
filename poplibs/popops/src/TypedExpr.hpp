// An expression (popops/Expr.hpp) with the types of its operands worked
// out and checked against the tensors it is applied to: a DAG of nodes in
// which identical sub-expressions appear once. map lowers from this.
//
// Typing: a placeholder has its tensor's type, a Cast its target type. A
// constant takes the type of the operand it meets (the other operand of a
// binary operation, the other values of SELECT and CLAMP, BOOL as the
// condition of SELECT), and its own type only where nothing gives one
// (FLOAT for floating point, INT for integers). The operands of an
// operation must then have one type that the operation supports.
#ifndef POPOPS_SRC_TYPEDEXPR_HPP
#define POPOPS_SRC_TYPEDEXPR_HPP

#include <popops/Expr.hpp>

#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace popops {
namespace detail {

struct ExprNode {
  enum class Kind { Input, Constant, Cast, Unary, Binary, Ternary };
  Kind kind = Kind::Input;
  poplar::Type type; // of the result

  unsigned input = 0; // Input: 0-based index into the tensors

  // Constant: the value as given, to be converted to `type`.
  bool constFloating = false;
  bool constNegative = false;
  double constDouble = 0;
  std::uint64_t constInteger = 0; // two's complement when negative

  expr::UnaryOpType unaryOp = expr::UnaryOpType::ABSOLUTE;
  expr::BinaryOpType binaryOp = expr::BinaryOpType::ADD;
  expr::TernaryOpType ternaryOp = expr::TernaryOpType::SELECT;

  std::vector<unsigned> args; // node indices, all before this node
};

class TypedExpr {
public:
  /// Throws poplibs_error naming `opName` for placeholders beyond ts,
  /// mismatched or unsupported types.
  TypedExpr(const expr::Expr &expr, const std::vector<poplar::Tensor> &ts,
            const std::string &opName);

  const std::vector<ExprNode> &nodes() const { return nodeList; }
  const ExprNode &node(unsigned i) const { return nodeList[i]; }
  unsigned root() const { return rootNode; }
  const poplar::Type &type() const { return nodeList[rootNode].type; }
  /// The placeholders used (0-based indices into the tensors), ascending.
  const std::vector<unsigned> &inputs() const { return usedInputs; }
  /// Operations (casts included).
  unsigned numOps() const;
  /// Whether the root is one operation on placeholders and constants.
  bool isSingleOp() const;
  /// The node as text with types, e.g. "add<float>(in0,const<float>(2))":
  /// equal for equal sub-expressions.
  const std::string &key(unsigned i) const { return keys[i]; }

private:
  struct Built {
    unsigned node;
    bool typed; // has a type of its own (not only constants)
  };
  Built build(const expr::Expr &e, const poplar::Type *hint);
  Built buildConst(const expr::Const &c, const poplar::Type *hint);
  unsigned add(ExprNode node);
  std::string describe(unsigned node) const;

  const std::vector<poplar::Tensor> &ts;
  std::string what; // the operation, for messages
  std::vector<ExprNode> nodeList;
  std::vector<std::string> keys;
  std::map<std::string, unsigned> byKey;
  std::vector<unsigned> usedInputs;
  unsigned rootNode = 0;
};

/// A constant node's value converted to the node's type as ops::cast
/// converts (codelets/ElementwiseOps.hpp): `floating` for FLOAT and HALF
/// (HALF rounds when stored), `integer` for the integer types and BOOL.
struct ConstValue {
  double floating = 0;
  std::int64_t integer = 0;
};
ConstValue constValue(const ExprNode &node);

/// Whether an expression has a placeholder or a cast (a type of its own).
bool hasOwnType(const expr::Expr &e);

} // namespace detail
} // namespace popops

#endif // POPOPS_SRC_TYPEDEXPR_HPP
