// Every built-in op, with the versions of its definition that are
// supported. Adding an op: its class in ops/, a line here, and its
// lowering registered in lowering/RegisterLowerings.cpp.
#include "ir/OpManager.hpp"
#include "ops/ElementwiseOps.hpp"
#include "ops/MathOps.hpp"
#include "ops/TensorOps.hpp"

namespace popart {

void registerBuiltinOps(OpManager &m) {
  const std::string onnx = Domain::ai_onnx;
  const std::string gc = Domain::ai_graphcore;
  for (const char *t : {"Abs", "Neg", "Exp", "Log", "Sqrt", "Relu", "Sigmoid",
                        "Tanh", "Reciprocal", "Floor", "Ceil", "LeakyRelu"})
    registerOp<UnaryOp>(m, onnx, t, {1, 6, 13});
  registerOp<UnaryOp>(m, onnx, "Erf", {9, 13});
  registerOp<UnaryOp>(m, onnx, "Not", {1});
  registerOp<UnaryOp>(m, onnx, "Sign", {9, 13});
  for (const char *t : {"Sin", "Cos"})
    registerOp<UnaryOp>(m, onnx, t, {7});
  for (const char *t : {"Gelu", "GeluErf", "Square", "Swish", "Log1p", "Expm1"})
    registerOp<UnaryOp>(m, gc, t, {1});

  for (const char *t : {"Add", "Sub", "Mul", "Div"})
    registerOp<BinaryOp>(m, onnx, t, {6, 7, 13, 14});
  registerOp<BinaryOp>(m, onnx, "Pow", {7, 12, 13, 15});
  registerOp<BinaryOp>(m, onnx, "Equal", {7, 11, 13});
  registerOp<BinaryOp>(m, onnx, "Less", {7, 9, 13});
  registerOp<BinaryOp>(m, onnx, "Greater", {7, 9, 13});
  registerOp<BinaryOp>(m, onnx, "And", {7});
  registerOp<BinaryOp>(m, onnx, "Or", {7});
  for (const char *t : {"Max", "Min", "Sum", "Mean"})
    registerOp<VariadicOp>(m, onnx, t, {6, 8, 12, 13});
  registerOp<WhereOp>(m, onnx, "Where", {9, 16});
  registerOp<ClipOp>(m, onnx, "Clip", {6, 11, 12, 13});
  registerOp<ScaleOp>(m, gc, "Scale", {1});

  registerOp<IdentityOp>(m, onnx, "Identity", {1, 13, 14, 16});
  registerOp<IdentityOp>(m, onnx, "Dropout", {6, 7, 10, 12, 13});
  registerOp<IdentityOp>(m, gc, "Detach", {1});
  registerOp<IdentityOp>(m, gc, "Nop", {1});

  registerOp<ReshapeOp>(m, onnx, "Reshape", {5, 13, 14});
  registerOp<ReshapeOp>(m, gc, "Reshape", {1});
  registerOp<ReshapeOp>(m, onnx, "Flatten", {1, 9, 11, 13});
  registerOp<ReshapeOp>(m, onnx, "Squeeze", {1, 11, 13});
  registerOp<ReshapeOp>(m, onnx, "Unsqueeze", {1, 11, 13});
  registerOp<TransposeOp>(m, onnx, "Transpose", {1, 13});
  registerOp<ConcatOp>(m, onnx, "Concat", {4, 11, 13});
  registerOp<GatherOp>(m, onnx, "Gather", {1, 11, 13});
  registerOp<SliceOp>(m, onnx, "Slice", {1, 10, 11, 13});
  registerOp<SplitOp>(m, onnx, "Split", {2, 11, 13});
  registerOp<CastOp>(m, onnx, "Cast", {6, 9, 13});
  registerOp<ShapeOp>(m, onnx, "Shape", {1, 13});

  registerOp<MatMulOp>(m, onnx, "MatMul", {1, 9, 13});
  registerOp<GemmOp>(m, onnx, "Gemm", {6, 7, 9, 11, 13});
  registerOp<SoftmaxOp>(m, onnx, "Softmax", {1, 11, 13});
  registerOp<SoftmaxOp>(m, onnx, "LogSoftmax", {1, 11, 13});
  for (const char *t : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin",
                        "ReduceProd"})
    registerOp<ReduceOp>(m, onnx, t, {1, 11, 13});
}

} // namespace popart
