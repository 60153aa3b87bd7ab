// The public map functions, the ternary and variance operations, and the
// constant operands of the named binary operations.
#include <popops/ElementWise.hpp>

#include "CodeletGenerator.hpp"
#include "ExprOpInfo.hpp"
#include "MapImpl.hpp"
#include "TypedExpr.hpp"

#include <poputil/Broadcast.hpp>
#include <poputil/exceptions.hpp>

#include <ostream>

using namespace poplar;
using namespace poplar::program;
using popops::expr::BinaryOpType;
using popops::expr::TernaryOpType;
using popops::expr::UnaryOpType;

namespace popops {

void outputGeneratedCodelet(const Target &target, const expr::Expr &expr,
                            const std::vector<Tensor> &ts,
                            const OptionFlags &options, std::ostream &os) {
  const std::string what = "popops::outputGeneratedCodelet";
  detail::parseMapOptions(options, what);
  const detail::TypedExpr te(expr, ts, what);
  std::size_t n = 1;
  for (unsigned i : te.inputs()) {
    Tensor t = ts[i];
    for (unsigned j : te.inputs()) {
      Tensor u = ts[j];
      poputil::broadcastToMatch(t, u);
    }
    n = std::max(n, t.numElements());
  }
  std::vector<bool> scalars(ts.size(), false);
  for (unsigned i : te.inputs())
    scalars[i] = ts[i].numElements() == 1 && n > 1;
  os << detail::generateCodelet(te, scalars).source;
}

// map

Tensor map(Graph &graph, const expr::Expr &expr, const std::vector<Tensor> &ts,
           Sequence &prog, const DebugContext &debugContext,
           const OptionFlags &options) {
  return detail::mapExpression(graph, "map", expr, ts, nullptr, prog,
                               debugContext, options);
}
Tensor map(Graph &graph, UnaryOpType op, const Tensor &t, Sequence &prog,
           const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "map", op, t, nullptr, prog, debugContext,
                          options);
}
Tensor map(Graph &graph, BinaryOpType op, const Tensor &a, const Tensor &b,
           Sequence &prog, const DebugContext &debugContext,
           const OptionFlags &options) {
  return detail::mapBinary(graph, "map", op, a, b, nullptr, prog, debugContext,
                           options);
}
Tensor map(Graph &graph, TernaryOpType op, const Tensor &a, const Tensor &b,
           const Tensor &c, Sequence &prog, const DebugContext &debugContext,
           const OptionFlags &options) {
  return detail::mapTernary(graph, "map", op, a, b, c, nullptr, prog,
                            debugContext, options);
}
std::vector<Tensor> map(Graph &graph, const std::vector<expr::Any> &exprs,
                        const std::vector<Tensor> &ts, Sequence &prog,
                        const DebugContext &debugContext,
                        const OptionFlags &options) {
  return detail::mapExpressions(graph, "map", exprs, ts, nullptr, prog,
                                debugContext, options);
}

// mapInPlace

namespace {
const Tensor &firstTensor(const std::vector<Tensor> &ts, const char *what) {
  if (ts.empty() || !ts[0].valid())
    throw poputil::poplibs_error(std::string("popops::") + what +
                                 ": no tensor to write the result to");
  return ts[0];
}
} // namespace

void mapInPlace(Graph &graph, const expr::Expr &expr,
                const std::vector<Tensor> &ts, Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapExpression(graph, "mapInPlace", expr, ts,
                        &firstTensor(ts, "mapInPlace"), prog, debugContext,
                        options);
}
void mapInPlace(Graph &graph, UnaryOpType op, const Tensor &t, Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "mapInPlace", op, t, &t, prog, debugContext, options);
}
void mapInPlace(Graph &graph, BinaryOpType op, const Tensor &a, const Tensor &b,
                Sequence &prog, const DebugContext &debugContext,
                const OptionFlags &options) {
  detail::mapBinary(graph, "mapInPlace", op, a, b, &a, prog, debugContext,
                    options);
}
void mapInPlace(Graph &graph, TernaryOpType op, const Tensor &a,
                const Tensor &b, const Tensor &c, Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapTernary(graph, "mapInPlace", op, a, b, c, &a, prog, debugContext,
                     options);
}
void mapInPlace(Graph &graph, const std::vector<expr::Any> &exprs,
                const std::vector<Tensor> &ts, Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  if (ts.size() < exprs.size())
    throw poputil::poplibs_error(
        "popops::mapInPlace: " + std::to_string(exprs.size()) +
        " expressions write the first " + std::to_string(exprs.size()) +
        " tensors, but " + std::to_string(ts.size()) + " were given");
  const std::vector<Tensor> outs(ts.begin(), ts.begin() + exprs.size());
  detail::mapExpressions(graph, "mapInPlace", exprs, ts, &outs, prog,
                         debugContext, options);
}

// mapWithOutput

void mapWithOutput(Graph &graph, const expr::Expr &expr,
                   const std::vector<Tensor> &ts, const Tensor &out,
                   Sequence &prog, const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapExpression(graph, "mapWithOutput", expr, ts, &out, prog,
                        debugContext, options);
}
void mapWithOutput(Graph &graph, UnaryOpType op, const Tensor &in,
                   const Tensor &out, Sequence &prog,
                   const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapUnary(graph, "mapWithOutput", op, in, &out, prog, debugContext,
                   options);
}
void mapWithOutput(Graph &graph, BinaryOpType op, const Tensor &a,
                   const Tensor &b, const Tensor &out, Sequence &prog,
                   const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapBinary(graph, "mapWithOutput", op, a, b, &out, prog, debugContext,
                    options);
}
void mapWithOutput(Graph &graph, TernaryOpType op, const Tensor &a,
                   const Tensor &b, const Tensor &c, const Tensor &out,
                   Sequence &prog, const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapTernary(graph, "mapWithOutput", op, a, b, c, &out, prog,
                     debugContext, options);
}
void mapWithOutput(Graph &graph, const std::vector<expr::Any> &exprs,
                   const std::vector<Tensor> &ts,
                   const std::vector<Tensor> &outs, Sequence &prog,
                   const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapExpressions(graph, "mapWithOutput", exprs, ts, &outs, prog,
                         debugContext, options);
}

// Ternary operations.

Tensor select(Graph &graph, const Tensor &A, const Tensor &B,
              const Tensor &conditions, Sequence &prog,
              const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapTernary(graph, "select", TernaryOpType::SELECT, A, B,
                            conditions, nullptr, prog, debugContext, options);
}
void selectInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                   const Tensor &conditions, Sequence &prog,
                   const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapTernary(graph, "selectInPlace", TernaryOpType::SELECT, A, B,
                     conditions, &A, prog, debugContext, options);
}
void selectWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                      const Tensor &conditions, const Tensor &out,
                      Sequence &prog, const DebugContext &debugContext,
                      const OptionFlags &options) {
  detail::mapTernary(graph, "selectWithOutput", TernaryOpType::SELECT, A, B,
                     conditions, &out, prog, debugContext, options);
}

Tensor clamp(Graph &graph, const Tensor &values, const Tensor &minimums,
             const Tensor &maximums, Sequence &prog,
             const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapTernary(graph, "clamp", TernaryOpType::CLAMP, values,
                            minimums, maximums, nullptr, prog, debugContext,
                            options);
}
void clampInPlace(Graph &graph, const Tensor &values, const Tensor &minimums,
                  const Tensor &maximums, Sequence &prog,
                  const DebugContext &debugContext,
                  const OptionFlags &options) {
  detail::mapTernary(graph, "clampInPlace", TernaryOpType::CLAMP, values,
                     minimums, maximums, &values, prog, debugContext, options);
}
void clampWithOutput(Graph &graph, const Tensor &values, const Tensor &minimums,
                     const Tensor &maximums, const Tensor &out, Sequence &prog,
                     const DebugContext &debugContext,
                     const OptionFlags &options) {
  detail::mapTernary(graph, "clampWithOutput", TernaryOpType::CLAMP, values,
                     minimums, maximums, &out, prog, debugContext, options);
}

// Variance and inverse standard deviation.

namespace {

// op(src, epsilon) as dstType: computed in the type of src, except that a
// HALF src with a FLOAT result is cast to FLOAT first.
Tensor varianceConversion(Graph &graph, const char *name, BinaryOpType op,
                          const Tensor &src, const Tensor &epsilon,
                          const Type &dstType, Sequence &prog,
                          const DebugContext &debugContext) {
  const std::string what = std::string("popops::") + name;
  const Type srcType = src.elementType();
  if (epsilon.numElements() != 1)
    throw poputil::poplibs_error(what + ": epsilon (tensor '" +
                                 epsilon.getDebugStr() +
                                 "') must have one element, not " +
                                 std::to_string(epsilon.numElements()));
  if (dstType == srcType)
    return detail::mapBinary(graph, name, op, src, epsilon, nullptr, prog,
                             debugContext, {});
  if (srcType == FLOAT && dstType == HALF)
    return detail::mapExpression(
        graph, name, expr::Cast(expr::BinaryOp(op, expr::_1, expr::_2), HALF),
        {src, epsilon}, nullptr, prog, debugContext, {});
  if (srcType == HALF && dstType == FLOAT)
    return detail::mapExpression(graph, name,
                                 expr::BinaryOp(op, expr::Cast(expr::_1, FLOAT),
                                                expr::Cast(expr::_2, FLOAT)),
                                 {src, epsilon}, nullptr, prog, debugContext,
                                 {});
  throw poputil::poplibs_error(
      what + ": cannot convert tensor '" + src.getDebugStr() + "' of type " +
      srcType.toString().str() + " to type " + dstType.toString().str());
}

} // namespace

Tensor varianceToInvStdDev(Graph &graph, const Tensor &src,
                           const Tensor &epsilon, Sequence &prog,
                           const Type dstType,
                           const DebugContext &debugContext) {
  return varianceConversion(graph, "varianceToInvStdDev",
                            BinaryOpType::VARIANCE_TO_INV_STD_DEV, src, epsilon,
                            dstType, prog, debugContext);
}
Tensor varianceToInvStdDev(Graph &graph, const Tensor &src, const float epsilon,
                           Sequence &prog, const Type dstType,
                           const DebugContext &debugContext) {
  const Tensor eps = detail::constantTensor(graph, src.elementType(), epsilon,
                                            {debugContext, "epsilon"});
  return varianceToInvStdDev(graph, src, eps, prog, dstType, debugContext);
}
void varianceToInvStdDevInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                                Sequence &prog,
                                const DebugContext &debugContext,
                                const OptionFlags &options) {
  detail::mapBinary(graph, "varianceToInvStdDevInPlace",
                    BinaryOpType::VARIANCE_TO_INV_STD_DEV, A, B, &A, prog,
                    debugContext, options);
}
void varianceToInvStdDevWithOutput(Graph &graph, const Tensor &A,
                                   const Tensor &B, const Tensor &out,
                                   Sequence &prog,
                                   const DebugContext &debugContext,
                                   const OptionFlags &options) {
  detail::mapBinary(graph, "varianceToInvStdDevWithOutput",
                    BinaryOpType::VARIANCE_TO_INV_STD_DEV, A, B, &out, prog,
                    debugContext, options);
}

Tensor invStdDevToVariance(Graph &graph, const Tensor &src,
                           const Tensor &epsilon, Sequence &prog,
                           const Type dstType,
                           const DebugContext &debugContext) {
  return varianceConversion(graph, "invStdDevToVariance",
                            BinaryOpType::INV_STD_DEV_TO_VARIANCE, src, epsilon,
                            dstType, prog, debugContext);
}
Tensor invStdDevToVariance(Graph &graph, const Tensor &src, const float epsilon,
                           Sequence &prog, const Type dstType,
                           const DebugContext &debugContext) {
  const Tensor eps = detail::constantTensor(graph, src.elementType(), epsilon,
                                            {debugContext, "epsilon"});
  return invStdDevToVariance(graph, src, eps, prog, dstType, debugContext);
}
void invStdDevToVarianceInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                                Sequence &prog,
                                const DebugContext &debugContext,
                                const OptionFlags &options) {
  detail::mapBinary(graph, "invStdDevToVarianceInPlace",
                    BinaryOpType::INV_STD_DEV_TO_VARIANCE, A, B, &A, prog,
                    debugContext, options);
}
void invStdDevToVarianceWithOutput(Graph &graph, const Tensor &A,
                                   const Tensor &B, const Tensor &out,
                                   Sequence &prog,
                                   const DebugContext &debugContext,
                                   const OptionFlags &options) {
  detail::mapBinary(graph, "invStdDevToVarianceWithOutput",
                    BinaryOpType::INV_STD_DEV_TO_VARIANCE, A, B, &out, prog,
                    debugContext, options);
}

// Constant operands.

namespace detail {

void checkConstantType(const Tensor &t, const Type &constantType,
                       bool constantIsFloating, const char *opName) {
  const Type type = t.elementType();
  const bool ok =
      constantIsFloating ? type == FLOAT || type == HALF : type == constantType;
  if (!ok)
    throw poputil::poplibs_error(
        std::string("popops::") + opName + ": a constant of type " +
        (constantIsFloating ? std::string("float")
                            : constantType.toString().str()) +
        " cannot be an operand with tensor '" + t.getDebugStr() + "' of type " +
        type.toString().str() +
        " (Type mismatch between Binary op Tensor and constant)");
}

namespace {
Tensor constantOfType(Graph &graph, const Type &type, ExprNode node,
                      const DebugContext &debugContext) {
  node.kind = ExprNode::Kind::Constant;
  node.type = type;
  if (!isCastType(type))
    throw poputil::poplibs_error("popops: a constant cannot have type " +
                                 type.toString().str());
  const ConstValue v = constValue(node);
  Tensor t;
  if (type == FLOAT || type == HALF)
    t = graph.addConstant(type, {}, static_cast<float>(v.floating),
                          debugContext);
  else if (type == BOOL)
    t = graph.addConstant(type, {}, static_cast<bool>(v.integer), debugContext);
  else if (type == UNSIGNED_INT)
    t = graph.addConstant(type, {}, static_cast<unsigned>(v.integer),
                          debugContext);
  else
    t = graph.addConstant(type, {}, static_cast<int>(v.integer), debugContext);
  graph.setTileMapping(t, 0);
  return t;
}
} // namespace

Tensor constantTensor(Graph &graph, const Type &type, double value,
                      const DebugContext &debugContext) {
  ExprNode node;
  node.constFloating = true;
  node.constDouble = value;
  return constantOfType(graph, type, node, debugContext);
}

Tensor constantTensor(Graph &graph, const Type &type, unsigned long long value,
                      bool isNegative, const DebugContext &debugContext) {
  ExprNode node;
  node.constInteger = value;
  node.constNegative = isNegative;
  return constantOfType(graph, type, node, debugContext);
}

} // namespace detail
} // namespace popops
