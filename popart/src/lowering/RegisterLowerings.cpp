#include "lowering/Lowering.hpp"

#include <popart/error.hpp>

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

const poplar::Tensor &LoweringContext::get(const Tensor &t) const {
  auto it = tensors.find(t.id);
  if (it == tensors.end())
    throw internal_error("Tensor '{}' has not been lowered", t.id);
  return it->second;
}

void LoweringContext::set(const Tensor &t, const poplar::Tensor &value) {
  tensors[t.id] = value;
}

LoweringRegistry &LoweringRegistry::instance() {
  static LoweringRegistry registry;
  static std::once_flag once;
  std::call_once(once, [] {
    registerElementwiseLowerings(registry);
    registerTensorLowerings(registry);
    registerMathLowerings(registry);
  });
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
