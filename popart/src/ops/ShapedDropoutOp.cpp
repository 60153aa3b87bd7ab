#include "ops/ShapedDropoutOp.hpp"
#include "ir/Graph.hpp"
#include "ir/Ir.hpp"

#include <popart/error.hpp>

#include <functional>

namespace popart {

ShapedDropoutOp::ShapedDropoutOp(const OperatorIdentifier &id,
                                 const Op::Settings &settings,
                                 const Attributes &a)
    : Op(id, settings), ratio(a.getFloat("ratio", 0.5f)),
      seedModifier(static_cast<uint32_t>(std::hash<std::string>()(settings.name))) {
  if (!a.has("shape"))
    throw error("ShapedDropout '{}': the attribute shape is missing", name());
  shape = a.getInts("shape");
  if (ratio < 0.0f || ratio >= 1.0f)
    throw error("ShapedDropout '{}': the ratio must be in [0, 1), not {}",
                name(), ratio);
}

void ShapedDropoutOp::setup() {
  const Shape in = inShape(0);
  const auto type = inInfo(0).dataType();
  if (type != DataType::FLOAT && type != DataType::FLOAT16)
    throw error("{}: input '{}' is {}; FLOAT and FLOAT16 are supported", str(),
                inTensor(0)->id, inInfo(0).data_type());
  bool broadcastable = shape.size() <= in.size();
  for (std::size_t i = 0; broadcastable && i < shape.size(); ++i) {
    const int64_t d = shape[shape.size() - 1 - i];
    broadcastable = d == 1 || d == in[in.size() - 1 - i];
  }
  if (!broadcastable)
    throw error("{}: incompatible input tensor and dropout shape: shape {} is "
                "not broadcastable to the input '{}' of shape {}",
                str(), shape, inTensor(0)->id, in);
  outInfo(0) = inInfo(0);
}

bool ShapedDropoutOp::isActive() const {
  const Ir &ir = getGraph().getIr();
  return (ir.isTraining() || ir.isBuiltOpByOp()) && ratio > 0.0f;
}

std::vector<std::unique_ptr<Op>> ShapedDropoutOp::getGradOps() {
  return gradOps<ShapedDropoutGradOp>(*this);
}

} // namespace popart
