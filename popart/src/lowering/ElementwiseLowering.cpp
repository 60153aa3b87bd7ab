// Lowerings of the element-wise ops through popops::map, select and clamp.
#include "lowering/Lowering.hpp"
#include "ops/ElementwiseOps.hpp"

#include <popart/error.hpp>

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

#include <type_traits>

namespace popart {
namespace pe = popops::expr;

namespace {

void growUnary(pe::UnaryOpType type, const Op &op, LoweringContext &ctx,
               poplar::program::Sequence &prog) {
  ctx.set(*op.outputs[0], popops::map(ctx.graph, type, ctx.get(op.inTensor(0)),
                                      prog, op.name));
}

void growExpr(const pe::Expr &e, const Op &op, LoweringContext &ctx,
              poplar::program::Sequence &prog) {
  ctx.set(*op.outputs[0],
          popops::map(ctx.graph, e, {ctx.get(op.inTensor(0))}, prog, op.name));
}

void growBinary(pe::BinaryOpType type, const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  ctx.set(*op.outputs[0],
          popops::map(ctx.graph, type, ctx.get(op.inTensor(0)),
                      ctx.get(op.inTensor(1)), prog, op.name));
}

// Registers, for each (op type, operation) of a table, the lowering that
// maps the operation over the op's inputs.
template <typename OpTypeEnum>
void registerMaps(LoweringRegistry &r, const std::string &domain,
                  const std::vector<std::pair<const char *, OpTypeEnum>> &table) {
  for (const auto &entry : table) {
    auto type = entry.second;
    r.add(domain, entry.first, [type](const Op &op, LoweringContext &ctx,
                                      poplar::program::Sequence &prog) {
      if constexpr (std::is_same_v<OpTypeEnum, pe::UnaryOpType>)
        growUnary(type, op, ctx, prog);
      else
        growBinary(type, op, ctx, prog);
    });
  }
}

} // namespace

void registerElementwiseLowerings(LoweringRegistry &r) {
  const std::string onnx = Domain::ai_onnx, gc = Domain::ai_graphcore;
  const std::vector<std::pair<const char *, pe::UnaryOpType>> unary = {
      {"Abs", pe::UnaryOpType::ABSOLUTE},  {"Neg", pe::UnaryOpType::NEGATE},
      {"Exp", pe::UnaryOpType::EXPONENT},  {"Log", pe::UnaryOpType::LOGARITHM},
      {"Sqrt", pe::UnaryOpType::SQRT},     {"Relu", pe::UnaryOpType::RELU},
      {"Sigmoid", pe::UnaryOpType::SIGMOID}, {"Tanh", pe::UnaryOpType::TANH},
      {"Erf", pe::UnaryOpType::ERF},       {"Reciprocal", pe::UnaryOpType::INVERSE},
      {"Floor", pe::UnaryOpType::FLOOR},   {"Ceil", pe::UnaryOpType::CEIL},
      {"Not", pe::UnaryOpType::LOGICAL_NOT}, {"Sign", pe::UnaryOpType::SIGNUM},
      {"Sin", pe::UnaryOpType::SIN},       {"Cos", pe::UnaryOpType::COS}};
  registerMaps(r, onnx, unary);
  const std::vector<std::pair<const char *, pe::UnaryOpType>> gcUnary = {
      {"GeluErf", pe::UnaryOpType::GELU_ERF}, {"Square", pe::UnaryOpType::SQUARE},
      {"Log1p", pe::UnaryOpType::LOGARITHM_ONE_PLUS},
      {"Expm1", pe::UnaryOpType::EXPONENT_MINUS_ONE}};
  registerMaps(r, gc, gcUnary);
  r.add(onnx, "LeakyRelu", [](const Op &op, LoweringContext &ctx,
                              poplar::program::Sequence &prog) {
    const float alpha = static_cast<const UnaryOp &>(op).alpha;
    growExpr(pe::Select(pe::_1, pe::_1 * pe::Const(alpha),
                        pe::Gt(pe::_1, pe::Const(0.0f))),
             op, ctx, prog);
  });
  // Gelu, tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
  r.add(gc, "Gelu", [](const Op &op, LoweringContext &ctx,
                       poplar::program::Sequence &prog) {
    growExpr(pe::Const(0.5f) * pe::_1 *
                 (pe::Const(1.0f) +
                  pe::Tanh(pe::Const(0.7978845608f) *
                           (pe::_1 + pe::Const(0.044715f) * pe::_1 * pe::_1 *
                                         pe::_1))),
             op, ctx, prog);
  });
  r.add(gc, "Swish", [](const Op &op, LoweringContext &ctx,
                        poplar::program::Sequence &prog) {
    growExpr(pe::_1 * pe::Sigmoid(pe::_1), op, ctx, prog);
  });

  const std::vector<std::pair<const char *, pe::BinaryOpType>> binary = {
      {"Add", pe::BinaryOpType::ADD},        {"Sub", pe::BinaryOpType::SUBTRACT},
      {"Mul", pe::BinaryOpType::MULTIPLY},   {"Div", pe::BinaryOpType::DIVIDE},
      {"Pow", pe::BinaryOpType::POWER},      {"Equal", pe::BinaryOpType::EQUAL},
      {"Less", pe::BinaryOpType::LESS_THAN}, {"Greater", pe::BinaryOpType::GREATER_THAN},
      {"And", pe::BinaryOpType::LOGICAL_AND}, {"Or", pe::BinaryOpType::LOGICAL_OR}};
  registerMaps(r, onnx, binary);

  // Max, Min, Sum, Mean of any number of inputs: pairwise.
  for (const char *t : {"Max", "Min", "Sum", "Mean"}) {
    std::string type = t;
    r.add(onnx, t, [type](const Op &op, LoweringContext &ctx,
                          poplar::program::Sequence &prog) {
      const auto binaryType = type == "Max"   ? pe::BinaryOpType::MAXIMUM
                              : type == "Min" ? pe::BinaryOpType::MINIMUM
                                              : pe::BinaryOpType::ADD;
      poplar::Tensor acc = ctx.get(op.inTensor(0));
      for (std::size_t i = 1; i < op.inputs.size(); ++i)
        acc = popops::map(ctx.graph, binaryType, acc,
                          ctx.get(op.inTensor(static_cast<int>(i))), prog, op.name);
      if (op.inputs.size() == 1)
        acc = popops::map(ctx.graph, pe::_1, {acc}, prog, op.name);
      if (type == "Mean")
        acc = popops::map(ctx.graph,
                          pe::_1 / pe::Const(static_cast<float>(op.inputs.size())),
                          {acc}, prog, op.name);
      ctx.set(*op.outputs[0], acc);
    });
  }

  r.add(onnx, "Where", [](const Op &op, LoweringContext &ctx,
                          poplar::program::Sequence &prog) {
    ctx.set(*op.outputs[0],
            popops::select(ctx.graph, ctx.get(op.inTensor(1)),
                           ctx.get(op.inTensor(2)), ctx.get(op.inTensor(0)),
                           prog, op.name));
  });
  r.add(onnx, "Clip", [](const Op &op, LoweringContext &ctx,
                         poplar::program::Sequence &prog) {
    const auto &clip = static_cast<const ClipOp &>(op);
    growExpr(pe::Clamp(pe::_1, pe::Const(clip.min), pe::Const(clip.max)), op,
             ctx, prog);
  });
  r.add(gc, "Scale", [](const Op &op, LoweringContext &ctx,
                        poplar::program::Sequence &prog) {
    growExpr(pe::_1 * pe::Const(static_cast<const ScaleOp &>(op).scale), op, ctx,
             prog);
  });
  r.add(gc, "ScaledAdd", [](const Op &op, LoweringContext &ctx,
                            poplar::program::Sequence &prog) {
    const auto &s = static_cast<const ScaledAddOp &>(op);
    ctx.set(*op.outputs[0],
            popops::map(ctx.graph,
                        pe::_1 * pe::Const(s.scale0) + pe::_2 * pe::Const(s.scale1),
                        {ctx.get(op.inTensor(0)), ctx.get(op.inTensor(1))}, prog,
                        op.name));
  });
  auto identity = [](const Op &op, LoweringContext &ctx,
                     poplar::program::Sequence &prog) {
    // A copy, so that the output is a tensor of its own.
    poplar::Tensor in = ctx.get(op.inTensor(0));
    poplar::Tensor out = ctx.graph.clone(in, op.name);
    prog.add(poplar::program::Copy(in, out));
    ctx.set(*op.outputs[0], out);
  };
  r.add(onnx, "Identity", identity);
  r.add(onnx, "Dropout", identity);
  r.add(gc, "Detach", identity);
  r.add(gc, "Nop", identity);
}

} // namespace popart
