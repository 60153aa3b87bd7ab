#include "ops/InitOp.hpp"

#include <popart/error.hpp>

namespace popart {

InitOp::InitOp(const OperatorIdentifier &id, const Op::Settings &settings,
               const Attributes &a)
    : Op(id, settings), initType(InitType::NoInit),
      batchAxis(a.getInt("batch_axis", -1)) {
  for (const char *required : {"shape", "data_type", "init_type"})
    if (!a.has(required))
      throw error("Init '{}': the attribute {} is missing", name(), required);
  const auto type = static_cast<DataType>(a.getInt("data_type"));
  if (type != DataType::FLOAT && type != DataType::FLOAT16 &&
      type != DataType::INT32 && type != DataType::UINT32)
    throw error("Init '{}': data_type {} is not FLOAT, FLOAT16, INT32 or UINT32",
                name(), a.getInt("data_type"));
  const int64_t init = a.getInt("init_type");
  if (init != int64_t(InitType::NoInit) && init != int64_t(InitType::Zero))
    throw error("Init '{}': init_type {} is not NoInit (0) or Zero (1)", name(),
                init);
  initType = static_cast<InitType>(init);
  const Shape shape = a.getInts("shape");
  for (int64_t d : shape)
    if (d < 0)
      throw error("Init '{}': shape {} has a negative dimension", name(), shape);
  if (batchAxis < -1 || batchAxis >= int64_t(shape.size()))
    throw error("Init '{}': batch_axis {} is not -1 or a dimension of shape {}",
                name(), batchAxis, shape);
  info = TensorInfo(type, shape);
}

void InitOp::setup() { outInfo(0) = info; }

} // namespace popart
