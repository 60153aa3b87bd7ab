// The lowering context and registry, and the helpers lowerings share.
#include "lowering/Lowering.hpp"

#include <popart/error.hpp>
#include <popart/popx/opxmanager.hpp>

#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/Reduce.hpp>
#include <poputil/TileMapping.hpp>

#include <cstring>
#include <mutex>

namespace popart {

poplar::Type deviceType(DataType type) {
  switch (type) {
  case DataType::FLOAT:
  case DataType::DOUBLE:
  case DataType::BFLOAT16:
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

// Host data of a tensor converted to its device type.
std::vector<char> toDeviceBytes(const std::vector<char> &data, DataType type) {
  if (type == DataType::BFLOAT16) {
    // The upper half of a FLOAT.
    const std::size_t n = data.size() / 2;
    std::vector<char> out(4 * n);
    for (std::size_t i = 0; i < n; ++i) {
      uint16_t b;
      std::memcpy(&b, data.data() + 2 * i, 2);
      const uint32_t bits = uint32_t(b) << 16;
      std::memcpy(out.data() + 4 * i, &bits, 4);
    }
    return out;
  }
  if (type != DataType::INT64 && type != DataType::DOUBLE &&
      type != DataType::UINT64)
    return data;
  std::vector<char> out(data.size() / 2);
  const std::size_t n = data.size() / 8;
  for (std::size_t i = 0; i < n; ++i) {
    if (type == DataType::DOUBLE) {
      double d;
      std::memcpy(&d, data.data() + 8 * i, 8);
      float f = static_cast<float>(d);
      std::memcpy(out.data() + 4 * i, &f, 4);
    } else {
      int64_t v;
      std::memcpy(&v, data.data() + 8 * i, 8);
      int32_t w = static_cast<int32_t>(v);
      std::memcpy(out.data() + 4 * i, &w, 4);
    }
  }
  return out;
}

void fromDeviceBytes(const void *src, void *dst, int64_t n, DataType type) {
  if (type == DataType::INT64 || type == DataType::UINT64) {
    for (int64_t i = 0; i < n; ++i) {
      int32_t w;
      std::memcpy(&w, static_cast<const char *>(src) + 4 * i, 4);
      int64_t v = w;
      std::memcpy(static_cast<char *>(dst) + 8 * i, &v, 8);
    }
  } else if (type == DataType::BFLOAT16) {
    // The FLOAT's upper half: truncated, as the ONNX 1.12 Cast does.
    for (int64_t i = 0; i < n; ++i) {
      uint32_t bits;
      std::memcpy(&bits, static_cast<const char *>(src) + 4 * i, 4);
      const uint16_t b = uint16_t(bits >> 16);
      std::memcpy(static_cast<char *>(dst) + 2 * i, &b, 2);
    }
  } else if (type == DataType::DOUBLE) {
    for (int64_t i = 0; i < n; ++i) {
      float f;
      std::memcpy(&f, static_cast<const char *>(src) + 4 * i, 4);
      double d = f;
      std::memcpy(static_cast<char *>(dst) + 8 * i, &d, 8);
    }
  } else if (n > 0) { // no elements: the buffers may be null
    std::memcpy(dst, src, n * getDataTypeInfo(type).nbytes());
  }
}

std::vector<std::size_t> dims(const Shape &shape) {
  return std::vector<std::size_t>(shape.begin(), shape.end());
}

namespace {
template <typename T>
poplar::Tensor spreadConstant(LoweringContext &ctx, const poplar::Type &type,
                              const std::vector<std::size_t> &shape,
                              const std::vector<T> &values,
                              const std::string &name) {
  poplar::Tensor c = ctx.graph.addConstant<T>(
      type, shape, poplar::ArrayRef<T>(values.data(), values.size()), name);
  poputil::mapTensorLinearly(ctx.graph, c);
  return c;
}
} // namespace

poplar::Tensor hostConstant(LoweringContext &ctx, const poplar::Type &type,
                            const std::vector<std::size_t> &shape,
                            const std::vector<int> &values,
                            const std::string &name) {
  return spreadConstant(ctx, type, shape, values, name);
}

poplar::Tensor hostConstant(LoweringContext &ctx, const poplar::Type &type,
                            const std::vector<std::size_t> &shape,
                            const std::vector<float> &values,
                            const std::string &name) {
  return spreadConstant(ctx, type, shape, values, name);
}

poplar::Tensor scalarConstant(LoweringContext &ctx, const poplar::Type &type,
                              double value, const std::string &name) {
  poplar::Tensor c = ctx.graph.addConstant(type, {}, value, name);
  ctx.graph.setTileMapping(c, 0);
  return c;
}

void updateRows(LoweringContext &ctx, const poplar::Tensor &rows,
                const poplar::Tensor &values, const poplar::Tensor &offsets,
                const std::string &reduction, poplar::program::Sequence &prog,
                const std::string &name) {
  const std::size_t k = offsets.numElements();
  const poplar::Tensor s = values.expand({1});
  const poplar::Tensor o = offsets.reshape({k, 1});
  if (reduction == "none") {
    popops::multiUpdate(ctx.graph, rows, s, o, {0}, {1}, prog,
                        popops::SlicePlan(), {}, name);
  } else if (reduction == "add") {
    const poplar::Tensor one =
        scalarConstant(ctx, rows.elementType(), 1.0, name + "/one");
    popops::multiUpdateAdd(ctx.graph, rows, s, o, one, {0}, {1}, prog,
                           popops::SlicePlan(), {}, name);
  } else if (reduction == "mul") {
    popops::multiUpdateMul(ctx.graph, rows, s, o, {0}, {1}, prog,
                           popops::SlicePlan(), {}, name);
  } else {
    throw internal_error("No row update for reduction '{}'", reduction);
  }
}

poplar::Tensor broadcastScalar(const poplar::Tensor &scalar,
                               const std::vector<std::size_t> &shape) {
  if (scalar.numElements() != 1)
    throw internal_error("broadcastScalar of a tensor of {} elements",
                         scalar.numElements());
  poplar::Tensor t = scalar.reshape(std::vector<std::size_t>(shape.size(), 1));
  for (std::size_t d = 0; d < shape.size(); ++d)
    t = t.broadcast(static_cast<unsigned>(shape[d]), static_cast<unsigned>(d));
  return t;
}

poplar::Tensor reduceToShape(LoweringContext &ctx, const poplar::Tensor &t,
                             const Shape &shape, poplar::program::Sequence &prog,
                             const std::string &name) {
  const std::vector<std::size_t> target = dims(shape);
  if (t.shape() == target)
    return t;
  // Align the target's dimensions with t's last ones; reduce the leading
  // dimensions and those the target has as 1.
  const std::size_t offset = t.rank() - target.size();
  std::vector<std::size_t> reduced;
  for (std::size_t d = 0; d < t.rank(); ++d)
    if (d < offset || (target[d - offset] == 1 && t.dim(d) != 1))
      reduced.push_back(d);
  poplar::Tensor r = reduced.empty()
                         ? t
                         : popops::reduce(ctx.graph, t, t.elementType(), reduced,
                                          popops::Operation::ADD, prog, name);
  return r.reshape(target);
}

const poplar::Tensor &LoweringContext::get(const TensorId &id) const {
  auto it = shared->tensors.find(id);
  if (it == shared->tensors.end())
    throw internal_error("Tensor '{}' has not been lowered", id);
  return it->second;
}

poplar::Tensor
LoweringContext::addLinearVariable(const poplar::Type &type,
                                   const std::vector<std::size_t> &shape,
                                   const std::string &name) {
  poplar::Tensor t = graph.addVariable(type, shape, name);
  poputil::mapTensorLinearly(graph, t);
  return t;
}

void LoweringContext::set(const Tensor &t, const poplar::Tensor &value) {
  shared->tensors[t.id] = value;
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
  static const LoweringFunction withOpx = growWithOpx;
  if (popx::OpxManager::hasOpx(op.opid))
    return withOpx;
  auto it = functions.find(std::type_index(typeid(op)));
  if (it == functions.end())
    throw error("{} has no lowering to poplar", op.str());
  return it->second;
}

const InputCreator *LoweringRegistry::creator(const Op &op) const {
  if (popx::OpxManager::hasOpx(op.opid))
    return nullptr;
  auto it = creators.find(std::type_index(typeid(op)));
  return it == creators.end() ? nullptr : &it->second;
}

} // namespace popart
