#include "ops/DetOp.hpp"

#include <popart/error.hpp>

namespace popart {

void DetOp::setup() {
  const Shape in = inShape(0);
  if (in.size() < 2 || in[in.size() - 1] != in[in.size() - 2])
    throw error("{}: the input's shape {} does not end in square matrices",
                str(), in);
  const auto t = inInfo(0).dataType();
  if (t != DataType::FLOAT && t != DataType::FLOAT16 && t != DataType::DOUBLE)
    throw error("{}: the input must be floating point, not {}", str(),
                inInfo(0).data_type());
  outInfo(0) = TensorInfo(t, Shape(in.begin(), in.end() - 2));
}

} // namespace popart
