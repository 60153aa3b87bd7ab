#include "ops/ShapeOp.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

namespace popart {

void ShapeOp::setup() {
  outInfo(0) = TensorInfo(DataType::INT64, {inInfo(0).rank()});
}

std::vector<char> ShapeOp::fold() const {
  std::vector<double> dims;
  for (auto d : inShape(0))
    dims.push_back(static_cast<double>(d));
  return fromDoubles(dims, DataType::INT64);
}

} // namespace popart
