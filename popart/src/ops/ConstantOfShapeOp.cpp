#include "ops/ConstantOfShapeOp.hpp"
#include "onnx/OnnxUtil.hpp"

#include <popart/error.hpp>

namespace popart {

ConstantOfShapeOp::ConstantOfShapeOp(const OperatorIdentifier &id,
                                     const Op::Settings &settings,
                                     const Attributes &a)
    : Op(id, settings), valueInfo(DataType::FLOAT, {1}), value(sizeof(float), 0) {
  if (a.has("value")) {
    const auto &tp = a.getTensor("value");
    valueInfo = TensorInfo(tp);
    value = onnxutil::tensorData(tp);
    if (valueInfo.nelms() != 1)
      throw error("ConstantOfShape '{}': the value must have one element, not {}",
                  name(), valueInfo.nelms());
  }
}

void ConstantOfShapeOp::setup() {
  outInfo(0) = TensorInfo(valueInfo.dataType(), constInputInts(0, "shape"));
}

std::vector<char> ConstantOfShapeOp::fold() const {
  std::vector<char> data;
  data.reserve(outInfo(0).nbytes());
  for (int64_t i = 0; i < outInfo(0).nelms(); ++i)
    data.insert(data.end(), value.begin(), value.end());
  return data;
}

} // namespace popart
