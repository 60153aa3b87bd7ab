#include "lowering/Lowering.hpp"
#include "ops/BatchNormOp.hpp"
#include "ops/BinaryOp.hpp"
#include "ops/CastOp.hpp"
#include "ops/ClipOp.hpp"
#include "ops/ConcatOp.hpp"
#include "ops/ConvOp.hpp"
#include "ops/ConvTransposeOp.hpp"
#include "ops/ExpandOp.hpp"
#include "ops/GatherOp.hpp"
#include "ops/GemmOp.hpp"
#include "ops/IdentityOp.hpp"
#include "ops/InstanceNormOp.hpp"
#include "ops/LRNOp.hpp"
#include "ops/LayerNormOp.hpp"
#include "ops/MatMulOp.hpp"
#include "ops/PadOp.hpp"
#include "ops/PoolOp.hpp"
#include "ops/ReduceOp.hpp"
#include "ops/ReshapeOp.hpp"
#include "ops/ScaleOp.hpp"
#include "ops/ScaledAddOp.hpp"
#include "ops/SliceOp.hpp"
#include "ops/SoftmaxOp.hpp"
#include "ops/SplitOp.hpp"
#include "ops/TileOp.hpp"
#include "ops/TopKOp.hpp"
#include "ops/TransposeOp.hpp"
#include "ops/UnaryOp.hpp"
#include "ops/VariadicOp.hpp"
#include "ops/WhereOp.hpp"

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

poplar::OptionFlags
poplibsOptionFlags(const std::map<std::string, std::string> &session,
                   const std::map<std::string, std::string> &node) {
  poplar::OptionFlags flags;
  for (const auto &[key, value] : session)
    flags.set(key, value);
  for (const auto &[key, value] : node)
    flags.set(key, value);
  return flags;
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

// The lowering of every op class, each in its own file (XLowering.cpp).
void registerBuiltinLowerings(LoweringRegistry &r) {
  r.add<UnaryOp>(growUnary);
  r.add<BinaryOp>(growBinary);
  r.add<VariadicOp>(growVariadic);
  r.add<WhereOp>(growWhere);
  r.add<ClipOp>(growClip);
  r.add<ScaleOp>(growScale);
  r.add<ScaledAddOp>(growScaledAdd);
  r.add<IdentityOp>(growIdentity);
  r.add<ReshapeOp>(growReshape);
  r.add<TransposeOp>(growTranspose);
  r.add<ConcatOp>(growConcat);
  r.add<SliceOp>(growSlice);
  r.add<SplitOp>(growSplit);
  r.add<GatherOp>(growGather);
  r.add<CastOp>(growCast);
  r.add<ExpandOp>(growExpand);
  r.add<TileOp>(growTile);
  r.add<PadOp>(growPad);
  r.add<TopKOp>(growTopK);
  r.add<MatMulOp>(growMatMul);
  r.add<GemmOp>(growGemm);
  r.add<SoftmaxOp>(growSoftmax);
  r.add<ReduceOp>(growReduce);
  r.add<ConvOp>(growConv);
  r.add<ConvTransposeOp>(growConvTranspose);
  r.add<PoolOp>(growPool);
  r.add<BatchNormOp>(growBatchNorm);
  r.add<InstanceNormOp>(growInstanceNorm);
  r.add<LRNOp>(growLRN);
  r.add<LayerNormOp>(growLayerNorm);
}

LoweringRegistry &LoweringRegistry::instance() {
  static LoweringRegistry registry;
  static std::once_flag once;
  std::call_once(once, [] { registerBuiltinLowerings(registry); });
  return registry;
}

const LoweringFunction &LoweringRegistry::get(const Op &op) const {
  auto it = functions.find(std::type_index(typeid(op)));
  if (it == functions.end())
    throw error("{} has no lowering to poplar", op.str());
  return it->second;
}

} // namespace popart
