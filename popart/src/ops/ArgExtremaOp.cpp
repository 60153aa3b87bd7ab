#include "ops/ArgExtremaOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

namespace popart {

ArgExtremaOp::ArgExtremaOp(const OperatorIdentifier &id,
                           const std::string &name, const Attributes &a)
    : Op(id, name), axis(a.getInt("axis", 0)),
      keepdims(a.getInt("keepdims", 1) != 0) {
  if (id.version >= 12)
    selectLastIndex = a.getInt("select_last_index", 0) != 0;
}

void ArgExtremaOp::setup() {
  Shape shape = inShape(0);
  const auto type = inInfo(0).dataType();
  if (type != DataType::FLOAT && type != DataType::FLOAT16 &&
      type != DataType::INT32 && type != DataType::UINT32 &&
      type != DataType::INT64 && type != DataType::DOUBLE)
    throw error("{}: input '{}' of type {} is not supported", str(),
                inTensor(0).id, inInfo(0).data_type());
  if (shape.empty())
    throw error("{}: input '{}' is a scalar", str(), inTensor(0).id);
  axis = normaliseAxis(axis, static_cast<int64_t>(shape.size()), *this);
  if (keepdims)
    shape[axis] = 1;
  else
    shape.erase(shape.begin() + axis);
  outInfo(0) = TensorInfo(DataType::INT64, shape);
}

} // namespace popart
