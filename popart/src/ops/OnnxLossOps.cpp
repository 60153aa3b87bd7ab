#include "ops/OnnxLossOps.hpp"

#include <popart/error.hpp>

namespace popart {

OnnxLossOp::OnnxLossOp(const OperatorIdentifier &id,
                       const Op::Settings &settings, const Attributes &a)
    : Op(id, settings), reduction(a.getString("reduction", "mean")),
      hasIgnoreIndex(a.has("ignore_index")),
      ignoreIndex(a.getInt("ignore_index", 0)) {
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    throw error("{} '{}': reduction '{}' is not supported", id.type,
                settings.name, reduction);
}

void OnnxLossOp::setup() {
  const Shape in = inShape(0), target = inShape(1);
  if (in.size() < 2)
    throw error("{}: the input has rank {}, not at least 2", str(), in.size());
  Shape expected = in;
  expected.erase(expected.begin() + 1);
  if (target != expected)
    throw error("{}: the target has shape {}, not {} for an input of {}", str(),
                target, expected, in);
  const auto tt = inInfo(1).dataType();
  if (tt != DataType::INT32 && tt != DataType::INT64)
    throw error("{}: the target must be INT32 or INT64, not {}", str(),
                inInfo(1).data_type());
  const auto dt = inInfo(0).dataType();
  if (dt != DataType::FLOAT && dt != DataType::FLOAT16 &&
      dt != DataType::DOUBLE)
    throw error("{}: the input must be floating point, not {}", str(),
                inInfo(0).data_type());
  if (hasInput(2) && inShape(2) != Shape{in[1]})
    throw error("{}: the weights have shape {}, not [{}]", str(), inShape(2),
                in[1]);
  outInfo(0) = TensorInfo(dt, reduction == "none" ? target : Shape{});
  if (hasOutput(1))
    outInfo(1) = inInfo(0);
}

} // namespace popart
