#include "ops/ShapeOp.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

#include <algorithm>

namespace popart {

Shape ShapeOp::dims() const {
  const Shape in = inShape(0);
  const int64_t r = static_cast<int64_t>(in.size());
  auto clampIndex = [r](int64_t i) {
    if (i < 0)
      i += r;
    return std::min(std::max<int64_t>(i, 0), r);
  };
  const int64_t b = clampIndex(start), e = clampIndex(end);
  return b < e ? Shape(in.begin() + b, in.begin() + e) : Shape();
}

void ShapeOp::setup() {
  outInfo(0) = TensorInfo(DataType::INT64, {int64_t(dims().size())});
}

std::vector<char> ShapeOp::fold() const {
  std::vector<double> values;
  for (auto d : dims())
    values.push_back(static_cast<double>(d));
  return fromDoubles(values, DataType::INT64);
}

} // namespace popart
