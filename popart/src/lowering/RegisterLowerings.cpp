#include "lowering/Lowering.hpp"

#include <popart/error.hpp>

#include <popops/Cast.hpp>

#include <mutex>

namespace popart {

poplar::Type deviceType(DataType type) {
  switch (type) {
  case DataType::FLOAT:
  case DataType::DOUBLE:
    return poplar::FLOAT;
  case DataType::FLOAT16:
    return poplar::HALF;
  case DataType::INT32:
  case DataType::INT64:
    return poplar::INT;
  case DataType::UINT32:
  case DataType::UINT64:
    return poplar::UNSIGNED_INT;
  case DataType::INT16:
    return poplar::SHORT;
  case DataType::UINT16:
    return poplar::UNSIGNED_SHORT;
  case DataType::INT8:
    return poplar::SIGNED_CHAR;
  case DataType::UINT8:
    return poplar::UNSIGNED_CHAR;
  case DataType::BOOL:
    return poplar::BOOL;
  default:
    throw error("Data type {} is not supported on the device",
                getDataTypeInfo(type).name());
  }
}

poplar::Type arithmeticType(const poplar::Type &t) {
  if (t == poplar::SIGNED_CHAR || t == poplar::UNSIGNED_CHAR ||
      t == poplar::SHORT || t == poplar::UNSIGNED_SHORT)
    return poplar::INT;
  return t;
}

poplar::Tensor castTo(LoweringContext &ctx, const poplar::Tensor &t,
                      const poplar::Type &type, poplar::program::Sequence &prog,
                      const std::string &name) {
  return t.elementType() == type ? t
                                 : popops::cast(ctx.graph, t, type, prog, name);
}

const poplar::Tensor &LoweringContext::get(const Tensor &t) const {
  auto it = tensors.find(t.id);
  if (it == tensors.end())
    throw internal_error("Tensor '{}' has not been lowered", t.id);
  return it->second;
}

void LoweringContext::set(const Tensor &t, const poplar::Tensor &value) {
  tensors[t.id] = value;
}

// The lowering of every op type (one function per op class, each in its
// own file).
void registerBuiltinLowerings(LoweringRegistry &r) {
  const std::string onnx = Domain::ai_onnx, gc = Domain::ai_graphcore;
  for (const char *t : {"Abs", "Neg", "Exp", "Log", "Sqrt", "Relu", "Sigmoid",
                        "Tanh", "Erf", "Reciprocal", "Floor", "Ceil", "Not",
                        "Sign", "Sin", "Cos", "LeakyRelu"})
    r.add(onnx, t, growUnary);
  for (const char *t : {"Gelu", "GeluErf", "Square", "Swish", "Log1p", "Expm1"})
    r.add(gc, t, growUnary);
  for (const char *t : {"Add", "Sub", "Mul", "Div", "Pow", "Equal", "Less",
                        "Greater", "And", "Or", "LessOrEqual", "GreaterOrEqual"})
    r.add(onnx, t, growBinary);
  for (const char *t : {"Max", "Min", "Sum", "Mean"})
    r.add(onnx, t, growVariadic);
  r.add(onnx, "Where", growWhere);
  r.add(onnx, "Clip", growClip);
  r.add(gc, "Scale", growScale);
  r.add(gc, "ScaledAdd", growScaledAdd);
  for (const char *t : {"Identity", "Dropout"})
    r.add(onnx, t, growIdentity);
  for (const char *t : {"Detach", "Nop"})
    r.add(gc, t, growIdentity);
  for (const char *t : {"Reshape", "Flatten", "Squeeze", "Unsqueeze"})
    r.add(onnx, t, growReshape);
  r.add(gc, "Reshape", growReshape);
  r.add(onnx, "Transpose", growTranspose);
  r.add(onnx, "Concat", growConcat);
  r.add(onnx, "Slice", growSlice);
  r.add(onnx, "Split", growSplit);
  r.add(onnx, "Gather", growGather);
  r.add(onnx, "Cast", growCast);
  r.add(onnx, "Expand", growExpand);
  r.add(onnx, "Tile", growTile);
  r.add(onnx, "Pad", growPad);
  r.add(onnx, "MatMul", growMatMul);
  r.add(onnx, "Gemm", growGemm);
  for (const char *t : {"Softmax", "LogSoftmax"})
    r.add(onnx, t, growSoftmax);
  for (const char *t : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin",
                        "ReduceProd", "ReduceSumSquare", "ReduceL1", "ReduceL2",
                        "ReduceLogSum", "ReduceLogSumExp"})
    r.add(onnx, t, growReduce);
}

LoweringRegistry &LoweringRegistry::instance() {
  static LoweringRegistry registry;
  static std::once_flag once;
  std::call_once(once, [] { registerBuiltinLowerings(registry); });
  return registry;
}

void LoweringRegistry::add(const std::string &domain, const std::string &type,
                           LoweringFunction f) {
  functions[{domain, type}] = std::move(f);
}

const LoweringFunction &LoweringRegistry::get(const Op &op) const {
  auto it = functions.find({op.opid.domain, op.opid.type});
  if (it == functions.end())
    throw error("{} has no lowering to poplar", op.str());
  return it->second;
}

} // namespace popart
