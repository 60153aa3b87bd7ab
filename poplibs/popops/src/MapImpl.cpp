#include "MapImpl.hpp"

#include "CodeletGenerator.hpp"
#include "ElementwiseVertices.hpp"
#include "ExprOpInfo.hpp"
#include "Messages.hpp"
#include "TypedExpr.hpp"

#include <popops/ElementWise.hpp>

#include <poputil/Broadcast.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/Util.hpp>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <functional>
#include <numeric>

using namespace poplar;
using namespace poplar::program;
using popops::expr::BinaryOpType;
using popops::expr::TernaryOpType;
using popops::expr::UnaryOpType;

namespace popops {
namespace detail {
namespace {

std::size_t product(const std::vector<std::size_t> &shape) {
  return std::accumulate(shape.begin(), shape.end(), std::size_t(1),
                         std::multiplies<>());
}

std::string quoted(const Tensor &t) { return "'" + t.getDebugStr() + "'"; }

// NumPy's broadcast shape of the tensors used.
std::vector<std::size_t> broadcastShape(const std::vector<Tensor> &ts,
                                        const std::vector<unsigned> &used,
                                        const std::string &opName) {
  std::vector<std::size_t> shape = ts[used.front()].shape();
  std::string names = "tensor " + quoted(ts[used.front()]);
  for (std::size_t k = 1; k < used.size(); ++k) {
    const Tensor &t = ts[used[k]];
    const std::vector<std::size_t> other = t.shape();
    const std::size_t rank = std::max(shape.size(), other.size());
    std::vector<std::size_t> result(rank);
    for (std::size_t d = 0; d != rank; ++d) {
      const std::size_t a =
          d < rank - shape.size() ? 1 : shape[d - (rank - shape.size())];
      const std::size_t b =
          d < rank - other.size() ? 1 : other[d - (rank - other.size())];
      if (a != b && a != 1 && b != 1)
        throw poputil::poplibs_error(
            opName + ": tensor " + quoted(t) + " of shape " +
            shapeString(other) + " cannot be broadcast with shape " +
            shapeString(shape) + " (of " + names + ")");
      result[d] = a == 1 ? b : a;
    }
    shape = std::move(result);
    names += ", " + quoted(t);
  }
  return shape;
}

// A constant node as a tensor of one element mapped to tile 0.
Tensor constantNodeTensor(Graph &graph, const ExprNode &node,
                          const DebugContext &dc) {
  const ConstValue v = constValue(node);
  const Type &type = node.type;
  if (type == FLOAT || type == HALF)
    return constantTensor(graph, type, v.floating, dc);
  return constantTensor(graph, type, static_cast<unsigned long long>(v.integer),
                        v.integer < 0, dc);
}

// Lowers expressions into a shared compute set (single operations and
// generated codelets), with the copies they need first (`pre`) and the
// programs that cannot share the compute set (plain copies, operation by
// operation evaluation) after (`post`).
class Lowering {
public:
  Lowering(Graph &graph, const std::string &opName, const DebugContext &dc,
           const MapOptions &options)
      : graph(graph), opName(opName), dc(dc), options(options),
        cs(graph.addComputeSet(dc)) {}

  Tensor lower(const expr::Expr &expr, const std::vector<Tensor> &ts,
               const Tensor *out);

  /// The programs, in order.
  Sequence program() const {
    Sequence seq(dc);
    seq.add(pre);
    if (csUsed)
      seq.add(Execute(cs, dc));
    seq.add(post);
    return seq;
  }

private:
  Operand makeOperand(const Tensor &t, const std::vector<std::size_t> &shape,
                      std::size_t n) const {
    Tensor view = t;
    poputil::broadcastToMatch(view, shape);
    Operand o;
    o.flat = view.flatten();
    if (t.numElements() == 1 && n > 1)
      o.scalar = t.flatten();
    o.constantRun = 1;
    for (std::size_t k = 0; k != shape.size(); ++k) {
      const std::size_t own = k < t.rank() ? t.dim(t.rank() - 1 - k) : 1;
      if (own != 1)
        break;
      o.constantRun *= shape[shape.size() - 1 - k];
    }
    // The trailing dimensions the operand has whole, then only broadcast
    // ones: it repeats a vector of their size.
    o.period = 1;
    bool leading = false;
    for (std::size_t k = 0; k != shape.size() && o.period != 0; ++k) {
      const std::size_t size = shape[shape.size() - 1 - k];
      const std::size_t own = k < t.rank() ? t.dim(t.rank() - 1 - k) : 1;
      if (size == 1)
        continue;
      if (own == 1)
        leading = true;
      else if (leading)
        o.period = 0;
      else
        o.period *= size;
    }
    return o;
  }
  Operand constantOperand(const ExprNode &node, std::size_t n) {
    const Tensor c = constantNodeTensor(graph, node, {dc, "constant"});
    Operand o;
    o.flat = c.reshape({1});
    if (n > 1) {
      o.scalar = o.flat;
      o.flat = o.flat.broadcast(static_cast<unsigned>(n), 0);
    }
    return o;
  }
  void lowerSingleOp(const TypedExpr &te, const std::vector<Operand> &operands,
                     const Tensor &outFlat);
  void lowerOpByOp(const TypedExpr &te, const std::vector<Operand> &operands,
                   const Tensor &outFlat);

  Graph &graph;
  std::string opName;
  DebugContext dc;
  MapOptions options;
  ComputeSet cs;
  bool csUsed = false;
  Sequence pre;
  Sequence post;
};

Tensor Lowering::lower(const expr::Expr &expr, const std::vector<Tensor> &ts,
                       const Tensor *out) {
  const TypedExpr te(expr, ts, opName);
  const std::vector<unsigned> &used = te.inputs();
  const std::vector<std::size_t> shape = broadcastShape(ts, used, opName);
  const std::size_t n = product(shape);

  std::vector<Operand> operands(ts.size());
  std::vector<Tensor> views;
  std::vector<std::size_t> own;
  for (unsigned i : used) {
    operands[i] = makeOperand(ts[i], shape, n);
    views.push_back(operands[i].flat.reshape(shape));
    own.push_back(ts[i].numElements());
  }

  Tensor result;
  if (out) {
    result = *out;
    if (result.shape() != shape)
      throw poputil::poplibs_error(opName + ": the result has shape " +
                                   shapeString(shape) +
                                   " but the output tensor " + quoted(result) +
                                   " has shape " + shapeString(result.shape()));
    if (result.elementType() != te.type())
      throw poputil::poplibs_error(opName + ": the result has element type " +
                                   te.type().toString().str() +
                                   " but the output tensor " + quoted(result) +
                                   " has element type " +
                                   result.elementType().toString().str());
    if (!result.isParallelWriteable())
      throw poputil::poplibs_error(
          opName + ": the output tensor " + quoted(result) +
          " cannot be written in parallel (it is a constant or refers to "
          "some elements more than once)");
    // An operand that shares elements with the output, other than the
    // same element at the same position, is read from a copy: each element
    // is then read and written by one vertex only.
    const Tensor outFlat = result.flatten();
    for (unsigned i : used) {
      const Operand &o = operands[i];
      const bool clash =
          o.isScalar() ? ts[i].intersectsWith(result)
                       : o.flat.intersectsWith(outFlat) && !(o.flat == outFlat);
      if (clash) {
        const Tensor copy =
            poputil::duplicate(graph, ts[i], pre, {dc, "operandCopy"});
        operands[i] = makeOperand(copy, shape, n);
      }
    }
  } else {
    result = createElementwiseOutput(graph, views, own, te.type(), shape,
                                     {dc, "out"});
  }
  if (n == 0)
    return result;

  // Elements in the order of the result's storage, with the operands
  // reordered alike: vertices then see long regions where the result is a
  // view (a channels-innermost convolution output seen as NCHW, say).
  Tensor outFlat = result;
  std::vector<Tensor *> alike;
  for (unsigned i : used)
    alike.push_back(&operands[i].flat);
  graph.reorderToSimplify(&outFlat, alike, false);
  // The runs and repeats of a broadcast operand are in the view's order:
  // they no longer hold if the elements were reordered.
  const bool anyRuns = std::any_of(used.begin(), used.end(), [&](unsigned i) {
    const Operand &o = operands[i];
    return o.constantRun > 1 || (o.period != 0 && o.period != n);
  });
  if (anyRuns && !(outFlat == result.flatten()))
    for (unsigned i : used)
      operands[i].constantRun = operands[i].period = 0;
  const ExprNode &root = te.node(te.root());
  if (te.numOps() == 0) {
    const Operand &o = operands[root.input];
    if (!(o.flat == outFlat))
      post.add(Copy(o.flat, outFlat, false, {dc, "copy"}));
  } else if (te.isSingleOp() && !options.forceGenerateCodelet) {
    lowerSingleOp(te, operands, outFlat);
  } else if (options.enableGenerateCodelet || options.forceGenerateCodelet) {
    std::vector<bool> scalars(ts.size(), false);
    for (unsigned i : used)
      scalars[i] = operands[i].isScalar();
    const GeneratedCodelet codelet = generateCodelet(te, scalars);
    addGeneratedVertices(graph, cs, codelet, used, operands, outFlat, opName);
    csUsed = true;
  } else {
    lowerOpByOp(te, operands, outFlat);
  }
  return result;
}

void Lowering::lowerSingleOp(const TypedExpr &te,
                             const std::vector<Operand> &operands,
                             const Tensor &outFlat) {
  const ExprNode &root = te.node(te.root());
  const std::size_t n = outFlat.numElements();
  std::vector<Operand> args;
  for (unsigned a : root.args) {
    const ExprNode &node = te.node(a);
    args.push_back(node.kind == ExprNode::Kind::Input
                       ? operands[node.input]
                       : constantOperand(node, n));
  }
  switch (root.kind) {
  case ExprNode::Kind::Cast:
    addCastVertices(graph, cs, args[0].flat, outFlat, opName);
    break;
  case ExprNode::Kind::Unary:
    addUnaryOpVertices(graph, cs, root.unaryOp, args[0], outFlat, opName);
    break;
  case ExprNode::Kind::Binary:
    addBinaryOpVertices(graph, cs, root.binaryOp, args[0], args[1], outFlat,
                        opName);
    break;
  case ExprNode::Kind::Ternary:
    addTernaryOpVertices(graph, cs, root.ternaryOp, args[0], args[1], args[2],
                         outFlat, opName);
    break;
  default:
    return;
  }
  csUsed = true;
}

void Lowering::lowerOpByOp(const TypedExpr &te,
                           const std::vector<Operand> &operands,
                           const Tensor &outFlat) {
  const std::size_t n = outFlat.numElements();
  const auto &nodes = te.nodes();
  std::vector<Operand> values(nodes.size());
  for (unsigned i = 0; i != nodes.size(); ++i) {
    const ExprNode &node = nodes[i];
    if (node.kind == ExprNode::Kind::Input) {
      values[i] = operands[node.input];
      continue;
    }
    if (node.kind == ExprNode::Kind::Constant) {
      values[i] = constantOperand(node, n);
      continue;
    }
    Tensor dst = i == te.root()
                     ? outFlat
                     : graph.clone(node.type, outFlat, {dc, "temporary"});
    const ComputeSet step = graph.addComputeSet(dc);
    auto arg = [&](unsigned k) -> const Operand & {
      return values[node.args[k]];
    };
    switch (node.kind) {
    case ExprNode::Kind::Cast:
      addCastVertices(graph, step, arg(0).flat, dst, opName);
      break;
    case ExprNode::Kind::Unary:
      addUnaryOpVertices(graph, step, node.unaryOp, arg(0), dst, opName);
      break;
    case ExprNode::Kind::Binary:
      addBinaryOpVertices(graph, step, node.binaryOp, arg(0), arg(1), dst,
                          opName);
      break;
    case ExprNode::Kind::Ternary:
      addTernaryOpVertices(graph, step, node.ternaryOp, arg(0), arg(1), arg(2),
                           dst, opName);
      break;
    default:
      break;
    }
    post.add(Execute(step, dc));
    values[i] = Operand{dst, Tensor()};
  }
}

bool parseBool(const std::string &value, const std::string &option,
               const std::string &opName) {
  if (value == "true")
    return true;
  if (value == "false")
    return false;
  throw poplar::invalid_option(opName + ": option '" + option +
                               "' must be true or false, not '" + value + "'");
}

} // namespace

MapOptions parseMapOptions(const OptionFlags &options,
                           const std::string &opName) {
  MapOptions result;
  for (const auto &[key, value] : options) {
    if (key == "enableGenerateCodelet")
      result.enableGenerateCodelet = parseBool(value, key, opName);
    else if (key == "forceGenerateCodelet")
      result.forceGenerateCodelet = parseBool(value, key, opName);
    else if (key == "enableVectorBroadcastOptimisations" ||
             key == "enableExpressionOptimizations")
      parseBool(value, key, opName);
    else
      throw poplar::invalid_option(opName + ": unknown option '" + key + "'");
  }
  return result;
}

Tensor createElementwiseOutput(Graph &graph,
                               const std::vector<Tensor> &operands,
                               const std::vector<std::size_t> &ownElements,
                               const Type &type,
                               const std::vector<std::size_t> &shape,
                               const DebugContext &debugContext) {
  const std::size_t n = product(shape);
  std::size_t best = 0;
  for (std::size_t k = 1; k < ownElements.size(); ++k)
    if (ownElements[k] > ownElements[best])
      best = k;
  if (!operands.empty() && ownElements[best] == n)
    return graph.clone(type, operands[best], debugContext);
  Tensor t = graph.addVariable(type, shape, debugContext);
  poputil::mapTensorLinearly(graph, t);
  return t;
}

Tensor mapExpression(Graph &graph, const std::string &opName,
                     const expr::Expr &expr, const std::vector<Tensor> &ts,
                     const Tensor *out, Sequence &prog,
                     const DebugContext &debugContext,
                     const OptionFlags &options) {
  const std::string what = "popops::" + opName;
  Lowering lowering(graph, what, {debugContext, opName},
                    parseMapOptions(options, what));
  Tensor result = lowering.lower(expr, ts, out);
  prog.add(lowering.program());
  return result;
}

std::vector<Tensor> mapExpressions(Graph &graph, const std::string &opName,
                                   const std::vector<expr::Any> &exprs,
                                   const std::vector<Tensor> &ts,
                                   const std::vector<Tensor> *outs,
                                   Sequence &prog,
                                   const DebugContext &debugContext,
                                   const OptionFlags &options) {
  const std::string what = "popops::" + opName;
  const DebugContext dc(debugContext, opName);
  if (outs && outs->size() != exprs.size())
    throw poputil::poplibs_error(
        what + ": " + std::to_string(exprs.size()) + " expressions but " +
        std::to_string(outs->size()) + " output tensors");
  Lowering lowering(graph, what, dc, parseMapOptions(options, what));
  std::vector<Tensor> results;
  if (!outs) {
    for (const auto &e : exprs)
      results.push_back(lowering.lower(e, ts, nullptr));
    prog.add(lowering.program());
    return results;
  }
  // Writing the outputs directly is only right when no output shares
  // elements with an operand or another output; otherwise the results go
  // to new tensors first and are copied once all are computed.
  bool direct = true;
  for (std::size_t i = 0; i != outs->size() && direct; ++i) {
    for (const Tensor &t : ts)
      if (t.valid() && (*outs)[i].intersectsWith(t))
        direct = false;
    for (std::size_t j = i + 1; j < outs->size(); ++j)
      if ((*outs)[i].intersectsWith((*outs)[j]))
        direct = false;
  }
  Sequence copies;
  for (std::size_t i = 0; i != exprs.size(); ++i) {
    if (direct) {
      lowering.lower(exprs[i], ts, &(*outs)[i]);
    } else {
      const Tensor temporary =
          graph.clone((*outs)[i], {dc, "result"},
                      TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);
      lowering.lower(exprs[i], ts, &temporary);
      copies.add(Copy(temporary, (*outs)[i], false, {dc, "copy"}));
    }
  }
  prog.add(lowering.program());
  prog.add(copies);
  return *outs;
}

Tensor mapUnary(Graph &graph, const char *opName, UnaryOpType op,
                const Tensor &a, const Tensor *out, Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  return mapExpression(graph, opName, expr::UnaryOp(op, expr::_1), {a}, out,
                       prog, debugContext, options);
}

Tensor mapBinary(Graph &graph, const char *opName, BinaryOpType op,
                 const Tensor &a, const Tensor &b, const Tensor *out,
                 Sequence &prog, const DebugContext &debugContext,
                 const OptionFlags &options) {
  return mapExpression(graph, opName, expr::BinaryOp(op, expr::_1, expr::_2),
                       {a, b}, out, prog, debugContext, options);
}

Tensor mapTernary(Graph &graph, const char *opName, TernaryOpType op,
                  const Tensor &a, const Tensor &b, const Tensor &c,
                  const Tensor *out, Sequence &prog,
                  const DebugContext &debugContext,
                  const OptionFlags &options) {
  return mapExpression(graph, opName,
                       expr::TernaryOp(op, expr::_1, expr::_2, expr::_3),
                       {a, b, c}, out, prog, debugContext, options);
}

} // namespace detail
} // namespace popops
