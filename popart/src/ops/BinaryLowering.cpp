// BinaryOp: popops::map of the operation, with numpy broadcasting.
#include "lowering/Lowering.hpp"

#include <popart/error.hpp>

#include "ops/BinaryOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

#include <map>

namespace popart {

void growBinary(const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  using B = popops::expr::BinaryOpType;
  static const std::map<std::string, B> operations = {
      {"Add", B::ADD},           {"Sub", B::SUBTRACT},
      {"Mul", B::MULTIPLY},      {"Div", B::DIVIDE},
      {"Pow", B::POWER},         {"Equal", B::EQUAL},
      {"Less", B::LESS_THAN},    {"Greater", B::GREATER_THAN},
      {"And", B::LOGICAL_AND},   {"Or", B::LOGICAL_OR},
      {"LessOrEqual", B::LESS_THAN_EQUAL},
      {"GreaterOrEqual", B::GREATER_THAN_EQUAL},
      {"Xor", B::NOT_EQUAL},     {"Mod", B::REMAINDER}};
  const auto &binary = static_cast<const BinaryOp &>(op);
  poplar::Tensor a = ctx.get(op.inTensor(0));
  poplar::Tensor b = ctx.get(op.inTensor(1));
  if (!binary.rhsView.empty())
    b = b.reshape(dims(binary.rhsView));
  if (op.opid.type == "PRelu" || op.opid.type == "BitShift") {
    namespace pe = popops::expr;
    const poplar::Type compute = arithmeticType(a.elementType());
    a = castTo(ctx, a, compute, prog, op.name());
    b = castTo(ctx, b, compute, prog, op.name());
    poplar::Tensor out;
    if (op.opid.type == "PRelu")
      out = popops::map(ctx.graph,
                        pe::Select(pe::_1, pe::_1 * pe::_2,
                                   pe::Gt(pe::_1, pe::Const(0.0f))),
                        {a, b}, prog, op.name());
    else
      out = popops::map(ctx.graph,
                        binary.shiftLeft ? B::SHIFT_LEFT : B::SHIFT_RIGHT, a,
                        b, prog, op.name());
    ctx.set(*op.outputs[0],
            castTo(ctx, out, deviceType(op.outputs[0]->info.dataType()), prog,
                   op.name()));
    return;
  }
  auto it = operations.find(op.opid.type);
  if (it == operations.end())
    throw internal_error("No binary lowering for {}", op.str());
  // The type the operation is computed in: the inputs', except that PopLibs
  // raises only floating-point numbers to a power, and computes on 8- and
  // 16-bit integers as INT. Pow's exponent may be of another type than its
  // base (from opset 12).
  const poplar::Type t = a.elementType();
  poplar::Type compute = t;
  if (op.opid.type == "Pow" && t != poplar::FLOAT && t != poplar::HALF)
    compute = poplar::FLOAT;
  else
    compute = arithmeticType(t);
  a = castTo(ctx, a, compute, prog, op.name());
  b = castTo(ctx, b, compute, prog, op.name());
  // The in-place variants (AddLhsInplace, AddRhsInplace, ...) write the
  // result into the argument of the output's shape (computed as is).
  const InIndex inplace = binary.inplaceInput;
  if (inplace >= 0) {
    namespace pe = popops::expr;
    if (inplace == 0)
      popops::mapInPlace(ctx.graph, it->second, a, b, prog, op.name());
    else
      popops::mapInPlace(ctx.graph, pe::BinaryOp(it->second, pe::_2, pe::_1),
                         {b, a}, prog, op.name());
    ctx.set(*op.outputs[0], inplace == 0 ? a : b);
    return;
  }
  poplar::Tensor out = popops::map(ctx.graph, it->second, a, b, prog, op.name());
  if (op.opid.type == "Mod" && !binary.fmod) {
    // Python's mod: a non-zero remainder takes the sign of the divisor.
    namespace pe = popops::expr;
    const auto zero = pe::Const(0);
    out = popops::map(
        ctx.graph,
        pe::Select(pe::_1 + pe::_2, pe::_1,
                   pe::And(pe::NotEqual(pe::_1, zero),
                           pe::NotEqual(pe::Lt(pe::_1, zero), pe::Lt(pe::_2, zero)))),
        {out, b}, prog, op.name());
  }
  ctx.set(*op.outputs[0],
          castTo(ctx, out, deviceType(op.outputs[0]->info.dataType()), prog,
                 op.name()));
}


void growBinaryGrad(const Op &op, LoweringContext &ctx,
                    poplar::program::Sequence &prog) {
  namespace pe = popops::expr;
  const auto &grad = static_cast<const BinaryGradOp &>(op);
  const poplar::Tensor g = ctx.get(op.inTensor(0));
  const poplar::Tensor a = ctx.get(op.inTensor(1));
  poplar::Tensor b = ctx.get(op.inTensor(2));
  const poplar::Tensor y = ctx.get(op.inTensor(3));
  const auto &t = grad.fwdType;
  if (!grad.rhsView.empty())
    b = b.reshape(dims(grad.rhsView));
  const bool first = grad.arg == 0;
  // _1 g, _2 a, _3 b, _4 y.
  pe::Any e = pe::_1;
  if (t == "Sub" && !first)
    e = -pe::_1;
  else if (t == "Mul")
    e = pe::_1 * (first ? pe::_3 : pe::_2);
  else if (t == "Div")
    e = first ? pe::Any(pe::_1 / pe::_3) : pe::Any(-(pe::_1 * pe::_4 / pe::_3));
  else if (t == "Pow")
    e = first ? pe::Any(pe::_1 * pe::_3 * pe::Pow(pe::_2, pe::_3 - pe::Const(1.0f)))
              : pe::Any(pe::_1 * pe::_4 * pe::Log(pe::_2));
  else if (t == "PRelu")
    e = pe::Select(first ? pe::Any(pe::_1) : pe::Any(pe::Const(0.0f)),
                   first ? pe::Any(pe::_1 * pe::_3) : pe::Any(pe::_1 * pe::_2),
                   pe::Gt(pe::_2, pe::Const(0.0f)));
  else if (t == "Mod" && !first)
    // a - q b, with q = trunc(a / b) (fmod) or floor(a / b): d/db = -q.
    e = grad.fmod ? pe::Any(-(pe::_1 * pe::Trunc(pe::_2 / pe::_3)))
                  : pe::Any(-(pe::_1 * pe::Floor(pe::_2 / pe::_3)));
  poplar::Tensor full =
      popops::map(ctx.graph, e, {g, a, b, y}, prog, op.name());
  const Shape &shape = op.outputs[0]->info.shape();
  if (!grad.rhsView.empty() && !first) {
    ctx.set(op.outputs[0], reduceToShape(ctx, full, grad.rhsView, prog, op.name())
                               .reshape(dims(shape)));
    return;
  }
  ctx.set(op.outputs[0], reduceToShape(ctx, full, shape, prog, op.name()));
}

} // namespace popart
