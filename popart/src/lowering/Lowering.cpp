// The lowering context and registry, and the helpers lowerings share.
#include "lowering/Lowering.hpp"

#include <popart/error.hpp>
#include <popart/popx/opxmanager.hpp>

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

const poplar::Tensor &LoweringContext::get(const TensorId &id) const {
  auto it = tensors.find(id);
  if (it == tensors.end())
    throw internal_error("Tensor '{}' has not been lowered", id);
  return it->second;
}

void LoweringContext::set(const Tensor &t, const poplar::Tensor &value) {
  tensors[t.id] = value;
}

LoweringRegistry &LoweringRegistry::instance() {
  static LoweringRegistry registry;
  static std::once_flag once;
  std::call_once(once, [] { registerBuiltinLowerings(registry); });
  return registry;
}

const LoweringFunction &LoweringRegistry::get(const Op &op) const {
  // An Opx registered for the op's identity (a custom op, or one that
  // replaces a built-in lowering) comes first.
  if (popx::OpxManager::hasOpx(op.opid))
    return growWithOpx;
  auto it = functions.find(std::type_index(typeid(op)));
  if (it == functions.end())
    throw error("{} has no lowering to poplar", op.str());
  return it->second;
}

} // namespace popart
