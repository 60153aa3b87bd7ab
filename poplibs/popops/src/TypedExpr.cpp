#include "TypedExpr.hpp"

#include "ExprOpInfo.hpp"

#include <poputil/exceptions.hpp>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <utility>

using namespace poplar;
using popops::expr::BinaryOpType;
using popops::expr::TernaryOpType;
using popops::expr::UnaryOpType;

namespace popops {
namespace detail {
namespace {

std::string typeName(const Type &t) { return t.toString().str(); }

// The type a constant has when nothing else gives it one.
Type ownConstType(const expr::Const &c) {
  const Type t = c.getType();
  if (t == DOUBLE)
    return FLOAT;
  if (t == LONG || t == LONGLONG)
    return INT;
  if (t == UNSIGNED_LONG || t == UNSIGNED_LONGLONG)
    return UNSIGNED_INT;
  return t;
}

// An integer of `bits` (two's complement) wrapped to the width and
// signedness of `type`.
std::int64_t wrapInteger(std::uint64_t bits, const Type &type) {
  if (type == INT)
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
  if (type == UNSIGNED_INT)
    return static_cast<std::uint32_t>(bits);
  if (type == SHORT)
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(bits));
  if (type == UNSIGNED_SHORT)
    return static_cast<std::uint16_t>(bits);
  if (type == CHAR || type == SIGNED_CHAR)
    return static_cast<std::int8_t>(static_cast<std::uint8_t>(bits));
  if (type == UNSIGNED_CHAR)
    return static_cast<std::uint8_t>(bits);
  return static_cast<std::int64_t>(bits);
}

std::pair<std::int64_t, std::int64_t> integerLimits(const Type &type) {
  if (type == INT)
    return {INT32_MIN, INT32_MAX};
  if (type == UNSIGNED_INT)
    return {0, UINT32_MAX};
  if (type == SHORT)
    return {INT16_MIN, INT16_MAX};
  if (type == UNSIGNED_SHORT)
    return {0, UINT16_MAX};
  if (type == CHAR || type == SIGNED_CHAR)
    return {INT8_MIN, INT8_MAX};
  if (type == UNSIGNED_CHAR)
    return {0, UINT8_MAX};
  return {INT64_MIN, INT64_MAX};
}

} // namespace

ConstValue constValue(const ExprNode &node) {
  ConstValue v;
  const double asDouble =
      node.constFloating ? node.constDouble
      : node.constNegative
          ? static_cast<double>(static_cast<std::int64_t>(node.constInteger))
          : static_cast<double>(node.constInteger);
  if (node.type == FLOAT || node.type == HALF) {
    v.floating = static_cast<float>(asDouble);
  } else if (node.type == BOOL) {
    v.integer = node.constFloating ? asDouble != 0 : node.constInteger != 0;
  } else if (node.constFloating) {
    const auto [lo, hi] = integerLimits(node.type);
    if (asDouble != asDouble)
      v.integer = 0;
    else if (asDouble <= static_cast<double>(lo))
      v.integer = lo;
    else if (asDouble >= static_cast<double>(hi))
      v.integer = hi;
    else
      v.integer = static_cast<std::int64_t>(asDouble);
  } else {
    v.integer = wrapInteger(node.constInteger, node.type);
  }
  v.floating = node.type == FLOAT || node.type == HALF
                   ? v.floating
                   : static_cast<double>(v.integer);
  return v;
}

bool hasOwnType(const expr::Expr &e) {
  switch (e.getKind()) {
  case expr::ExprKind::PlaceHolder:
  case expr::ExprKind::Cast:
    return true;
  case expr::ExprKind::Const:
    return false;
  case expr::ExprKind::UnaryOp:
    return hasOwnType(e.getAs<expr::UnaryOp>()->getArg());
  case expr::ExprKind::BinaryOp: {
    const auto *b = e.getAs<expr::BinaryOp>();
    return hasOwnType(b->getLHS()) || hasOwnType(b->getRHS());
  }
  case expr::ExprKind::TernaryOp: {
    const auto *t = e.getAs<expr::TernaryOp>();
    return hasOwnType(t->getArg0()) || hasOwnType(t->getArg1()) ||
           hasOwnType(t->getArg2());
  }
  }
  return false;
}

TypedExpr::TypedExpr(const expr::Expr &expr, const std::vector<Tensor> &ts,
                     const std::string &opName)
    : ts(ts), what(opName) {
  rootNode = build(expr, nullptr).node;
  std::sort(usedInputs.begin(), usedInputs.end());
  usedInputs.erase(std::unique(usedInputs.begin(), usedInputs.end()),
                   usedInputs.end());
  if (usedInputs.empty())
    throw poputil::poplibs_error(what +
                                 ": the expression has no placeholder, so "
                                 "it gives no tensor shape");
}

unsigned TypedExpr::numOps() const {
  unsigned n = 0;
  for (const auto &node : nodeList)
    if (node.kind != ExprNode::Kind::Input &&
        node.kind != ExprNode::Kind::Constant)
      ++n;
  return n;
}

bool TypedExpr::isSingleOp() const {
  const ExprNode &r = nodeList[rootNode];
  if (r.kind == ExprNode::Kind::Input || r.kind == ExprNode::Kind::Constant)
    return false;
  return std::all_of(r.args.begin(), r.args.end(), [&](unsigned a) {
    return nodeList[a].kind == ExprNode::Kind::Input ||
           nodeList[a].kind == ExprNode::Kind::Constant;
  });
}

unsigned TypedExpr::add(ExprNode node) {
  std::ostringstream key;
  switch (node.kind) {
  case ExprNode::Kind::Input:
    key << "in" << node.input;
    break;
  case ExprNode::Kind::Constant:
    key << "const";
    if (node.constFloating)
      key << "(f" << std::hexfloat << node.constDouble << ")";
    else
      key << "(i" << node.constInteger << ")";
    break;
  case ExprNode::Kind::Cast:
    key << "cast";
    break;
  case ExprNode::Kind::Unary:
    key << detail::opName(node.unaryOp);
    break;
  case ExprNode::Kind::Binary:
    key << detail::opName(node.binaryOp);
    break;
  case ExprNode::Kind::Ternary:
    key << detail::opName(node.ternaryOp);
    break;
  }
  key << '<' << typeName(node.type) << '>';
  if (!node.args.empty()) {
    key << '(';
    for (std::size_t i = 0; i != node.args.size(); ++i)
      key << (i ? "," : "") << keys[node.args[i]];
    key << ')';
  }
  const std::string k = key.str();
  auto it = byKey.find(k);
  if (it != byKey.end())
    return it->second;
  const auto index = static_cast<unsigned>(nodeList.size());
  nodeList.push_back(std::move(node));
  keys.push_back(k);
  byKey.emplace(k, index);
  return index;
}

std::string TypedExpr::describe(unsigned i) const {
  const ExprNode &n = nodeList[i];
  if (n.kind == ExprNode::Kind::Input)
    return "tensor '" + ts[n.input].getDebugStr() + "'";
  for (unsigned a : n.args) {
    const std::string d = describe(a);
    if (d.rfind("tensor", 0) == 0)
      return d;
  }
  return "a constant";
}

TypedExpr::Built TypedExpr::buildConst(const expr::Const &c, const Type *hint) {
  ExprNode node;
  node.kind = ExprNode::Kind::Constant;
  node.type = hint ? *hint : ownConstType(c);
  node.constFloating = c.isFloatingPoint();
  node.constDouble = c.getDataAsDouble();
  node.constInteger = c.getDataForUnsignedIntegral();
  node.constNegative =
      c.isSignedIntegral() && static_cast<std::int64_t>(node.constInteger) < 0;
  if (!isCastType(node.type))
    throw poputil::poplibs_error(what + ": a constant (" + c.printValue() +
                                 ") cannot have type " + typeName(node.type));
  return {add(std::move(node)), false};
}

TypedExpr::Built TypedExpr::build(const expr::Expr &e, const Type *hint) {
  switch (e.getKind()) {
  case expr::ExprKind::PlaceHolder: {
    const unsigned index = e.getAs<expr::PlaceHolder>()->getIndex();
    if (index == 0 || index > ts.size())
      throw poputil::poplibs_error(
          what + ": the expression uses placeholder _" + std::to_string(index) +
          " but " + std::to_string(ts.size()) + " tensor" +
          (ts.size() == 1 ? " was" : "s were") + " given");
    const Tensor &t = ts[index - 1];
    if (!t.valid())
      throw poputil::poplibs_error(what + ": tensor " + std::to_string(index) +
                                   " (placeholder _" + std::to_string(index) +
                                   ") is not a valid tensor");
    ExprNode node;
    node.kind = ExprNode::Kind::Input;
    node.input = index - 1;
    node.type = t.elementType();
    usedInputs.push_back(index - 1);
    return {add(std::move(node)), true};
  }
  case expr::ExprKind::Const:
    return buildConst(*e.getAs<expr::Const>(), hint);
  case expr::ExprKind::Cast: {
    const auto *c = e.getAs<expr::Cast>();
    const Built arg = build(c->getLHS(), nullptr);
    const Type from = nodeList[arg.node].type;
    const Type to = c->getRHSType();
    for (const Type &t : {from, to})
      if (!isCastType(t))
        throw poputil::poplibs_error(
            what + ": a cast of " + describe(arg.node) + " from " +
            typeName(from) + " to " + typeName(to) +
            " is not supported (casts support " + typeList(castTypes()) + ")");
    ExprNode node;
    node.kind = ExprNode::Kind::Cast;
    node.type = to;
    node.args = {arg.node};
    return {add(std::move(node)), true};
  }
  case expr::ExprKind::UnaryOp: {
    const auto *u = e.getAs<expr::UnaryOp>();
    const UnaryOpType op = u->getOpType();
    const bool keepsType = hint && outputType(op, *hint) == *hint;
    const Built arg = build(u->getArg(), keepsType ? hint : nullptr);
    const Type type = nodeList[arg.node].type;
    if (!isSupported(op, type))
      throw poputil::poplibs_error(
          what + ": " + detail::opName(op) + " does not support element type " +
          typeName(type) + " (" + describe(arg.node) + "); it supports " +
          typeList(supportedTypes(op)));
    ExprNode node;
    node.kind = ExprNode::Kind::Unary;
    node.unaryOp = op;
    node.type = outputType(op, type);
    node.args = {arg.node};
    return {add(std::move(node)), arg.typed};
  }
  case expr::ExprKind::BinaryOp: {
    const auto *b = e.getAs<expr::BinaryOp>();
    const BinaryOpType op = b->getOpType();
    const Type *operandHint =
        hint && outputType(op, *hint) == *hint ? hint : nullptr;
    Built lhs, rhs;
    if (hasOwnType(b->getLHS()) || !hasOwnType(b->getRHS())) {
      lhs = build(b->getLHS(), operandHint);
      const Type t = nodeList[lhs.node].type;
      rhs = build(b->getRHS(), &t);
    } else {
      rhs = build(b->getRHS(), operandHint);
      const Type t = nodeList[rhs.node].type;
      lhs = build(b->getLHS(), &t);
    }
    const Type ta = nodeList[lhs.node].type, tb = nodeList[rhs.node].type;
    if (ta != tb)
      throw poputil::poplibs_error(
          what + ": the operands of " + detail::opName(op) +
          " have different element types: " + typeName(ta) + " (" +
          describe(lhs.node) + ") and " + typeName(tb) + " (" +
          describe(rhs.node) + ")");
    if (!isSupported(op, ta))
      throw poputil::poplibs_error(
          what + ": " + detail::opName(op) + " does not support element type " +
          typeName(ta) + " (" + describe(lhs.node) + "); it supports " +
          typeList(supportedTypes(op)));
    ExprNode node;
    node.kind = ExprNode::Kind::Binary;
    node.binaryOp = op;
    node.type = outputType(op, ta);
    node.args = {lhs.node, rhs.node};
    return {add(std::move(node)), lhs.typed || rhs.typed};
  }
  case expr::ExprKind::TernaryOp: {
    const auto *t = e.getAs<expr::TernaryOp>();
    const TernaryOpType op = t->getOpType();
    const expr::Expr *args[3] = {&t->getArg0(), &t->getArg1(), &t->getArg2()};
    Built built[3];
    // The operands that share the result's type: the two values of SELECT
    // (its condition is BOOL), all three of CLAMP.
    const unsigned numValues = op == TernaryOpType::SELECT ? 2 : 3;
    unsigned first = 0;
    while (first != numValues && !hasOwnType(*args[first]))
      ++first;
    if (first == numValues)
      first = 0;
    built[first] = build(*args[first], hint);
    const Type valueType = nodeList[built[first].node].type;
    for (unsigned i = 0; i != numValues; ++i)
      if (i != first)
        built[i] = build(*args[i], &valueType);
    if (op == TernaryOpType::SELECT) {
      built[2] = build(*args[2], &BOOL);
      const Type condType = nodeList[built[2].node].type;
      if (condType != BOOL)
        throw poputil::poplibs_error(
            what +
            ": the condition of SELECT must have element type bool, "
            "not " +
            typeName(condType) + " (" + describe(built[2].node) + ")");
    }
    for (unsigned i = 0; i != numValues; ++i) {
      const Type ti = nodeList[built[i].node].type;
      if (ti != valueType)
        throw poputil::poplibs_error(
            what + ": the operands of " + detail::opName(op) +
            " have different element types: " + typeName(valueType) + " (" +
            describe(built[first].node) + ") and " + typeName(ti) + " (" +
            describe(built[i].node) + ")");
    }
    if (!isSupported(op, valueType))
      throw poputil::poplibs_error(
          what + ": " + detail::opName(op) + " does not support element type " +
          typeName(valueType) + " (" + describe(built[first].node) +
          "); it supports " + typeList(supportedTypes(op)));
    ExprNode node;
    node.kind = ExprNode::Kind::Ternary;
    node.ternaryOp = op;
    node.type = valueType;
    node.args = {built[0].node, built[1].node, built[2].node};
    return {add(std::move(node)),
            built[0].typed || built[1].typed || built[2].typed};
  }
  }
  throw poputil::poplibs_error(what + ": unknown kind of expression");
}

} // namespace detail
} // namespace popops
