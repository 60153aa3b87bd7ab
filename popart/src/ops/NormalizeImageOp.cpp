#include "ops/NormalizeImageOp.hpp"

#include <popart/error.hpp>

#include <cmath>
#include <limits>

namespace popart {

NormalizeImageOp::NormalizeImageOp(const OperatorIdentifier &id,
                                   const Op::Settings &settings,
                                   const Attributes &a)
    : Op(id, settings), scale(a.getFloat("scale", 1.0f)) {
  if (std::abs(scale) < std::numeric_limits<float>::epsilon())
    throw error("NormalizeImage '{}': scale should be greater than 0", name());
}

void NormalizeImageOp::setup() {
  if (inputs.size() != 3 || !hasInput(1) || !hasInput(2))
    throw error("{}: takes [image, offsets, scales]", str());
  Shape shape = inShape(0);
  if (shape.size() < 2 || shape.back() != 3)
    throw error("{}: image '{}' of shape {} requires the inner dimension to be "
                "3",
                str(), inTensor(0)->id, shape);
  const DataType in = inInfo(0).dataType();
  if (in != DataType::UINT8 && in != DataType::FLOAT16 && in != DataType::FLOAT)
    throw error("{}: image '{}' is {}; UINT8, FLOAT16 and FLOAT are supported",
                str(), inTensor(0)->id, inInfo(0).data_type());
  const DataType out = in == DataType::UINT8 ? DataType::FLOAT16 : in;
  for (int i = 1; i <= 2; ++i)
    if (inInfo(i).dataType() != out || inShape(i) != Shape{3})
      throw error("{}: '{}' is {} {}, not {} [3]", str(), inTensor(i)->id,
                  inInfo(i).data_type(), inShape(i),
                  TensorInfo(out, Shape{}).data_type());
  shape.back() = 4;
  outInfo(0) = TensorInfo(out, shape);
}

} // namespace popart
