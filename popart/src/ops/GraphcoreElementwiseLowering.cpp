// GraphcoreElementwiseOp: popops::map of each operation, with numpy
// broadcasting; its gradients as popops expressions.
#include "lowering/Lowering.hpp"
#include "ops/GraphcoreElementwiseOp.hpp"

#include <popart/error.hpp>

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>

#include <map>

namespace popart {

namespace pe = popops::expr;

void growGraphcoreElementwise(const Op &op, LoweringContext &ctx,
                              poplar::program::Sequence &prog) {
  using B = pe::BinaryOpType;
  const auto &ew = static_cast<const GraphcoreElementwiseOp &>(op);
  const std::string &t = op.opid.type;
  const poplar::Tensor a = ctx.get(op.inTensor(0));
  poplar::Tensor out;
  if (t == "Bucketize") {
    // Each x compared with every boundary ([N, 1] with [1, M]), counted.
    const poplar::Tensor x = a.flatten().expand({1});
    const poplar::Tensor b =
        ctx.get(op.inTensor(1)).reshape(
            {1, static_cast<std::size_t>(op.inInfo(1).nelms())});
    const pe::Any below = ew.right ? pe::Any(pe::Lte(pe::_2, pe::_1))
                                   : pe::Any(pe::Lt(pe::_2, pe::_1));
    const poplar::Tensor hits = popops::map(
        ctx.graph, pe::Cast(below, poplar::INT), {x, b}, prog, op.name());
    out = popops::reduce(ctx.graph, hits, poplar::INT, {1},
                         popops::Operation::ADD, prog, op.name())
              .reshape(a.shape());
  } else if (t == "IncrementMod") {
    out = popops::map(ctx.graph,
                      pe::Rem(pe::_1 + pe::Const(ew.increment),
                              pe::Const(ew.modulus)),
                      {a}, prog, op.name());
  } else if (t == "BitwiseNot")
    out = popops::map(ctx.graph, pe::UnaryOpType::BITWISE_NOT, a, prog,
                      op.name());
  else if (t == "NearbyInt")
    out = popops::map(ctx.graph, pe::UnaryOpType::NEARBY_INT, a, prog,
                      op.name());
  else {
    const poplar::Tensor b = ctx.get(op.inTensor(1));
    static const std::map<std::string, B> binary = {
        {"Atan2", B::ATAN2},           {"Fmod", B::REMAINDER},
        {"BitwiseAnd", B::BITWISE_AND}, {"BitwiseOr", B::BITWISE_OR},
        {"BitwiseXor", B::BITWISE_XOR}, {"BitwiseXnor", B::BITWISE_XNOR}};
    // PopLibs computes on 8- and 16-bit integers as INT.
    const poplar::Type compute = arithmeticType(a.elementType());
    const poplar::Tensor ac = castTo(ctx, a, compute, prog, op.name());
    const poplar::Tensor bc = castTo(ctx, b, compute, prog, op.name());
    if (t == "Remainder") {
      // C's remainder moved into the divisor's sign where they differ.
      const pe::Any r = pe::BinaryOp(B::REMAINDER, pe::_1, pe::_2);
      const pe::Const zero(0);
      const pe::Any differ =
          pe::And(pe::NotEqual(r, zero),
                  pe::NotEqual(pe::Lt(r, zero), pe::Lt(pe::_2, zero)));
      out = popops::map(ctx.graph, pe::Select(r + pe::_2, r, differ), {ac, bc},
                        prog, op.name());
    } else {
      auto it = binary.find(t);
      if (it == binary.end())
        throw internal_error("No lowering for {}", op.str());
      out = popops::map(ctx.graph, it->second, ac, bc, prog, op.name());
    }
    out = castTo(ctx, out, a.elementType(), prog, op.name());
  }
  ctx.set(*op.outputs[0], out);
}

void growGraphcoreElementwiseGrad(const Op &op, LoweringContext &ctx,
                                  poplar::program::Sequence &prog) {
  const auto &g = static_cast<const GraphcoreElementwiseGradOp &>(op);
  const poplar::Tensor grad = ctx.get(op.inTensor(0));
  poplar::Tensor d;
  if (g.fwdType == "Atan2") {
    // d/dy atan2(y, x) = x / (x^2 + y^2); d/dx = -y / (x^2 + y^2).
    const poplar::Tensor y = ctx.get(op.inTensor(1));
    const poplar::Tensor x = ctx.get(op.inTensor(2));
    const pe::Any r2 = pe::_2 * pe::_2 + pe::_3 * pe::_3;
    const pe::Any e = g.arg == 0 ? pe::_1 * pe::_3 / r2
                                 : -(pe::_1 * pe::_2) / r2;
    d = popops::map(ctx.graph, e, {grad, y, x}, prog, op.name());
  } else if (g.fwdType == "NearbyInt") {
    d = popops::map(ctx.graph, pe::_1 * pe::Const(0.0f), {grad}, prog,
                    op.name());
  } else {
    // Fmod and Remainder: the dividend's gradient passes through.
    d = grad;
  }
  d = reduceToShape(ctx, d, op.outputs[0]->info.shape(), prog, op.name());
  ctx.set(op.outputs[0], copyOf(ctx, d, prog, op.name()));
}

} // namespace popart
