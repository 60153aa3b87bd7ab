#include "ops/GatherOp.hpp"
#include "ir/HostData.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

namespace popart {

void GatherOp::setup() {
  const Shape data = inShape(0), indices = inShape(1);
  axis = normaliseAxis(axis, static_cast<int64_t>(data.size()), *this);
  checkIndicesType(*this, 1);
  Shape out(data.begin(), data.begin() + axis);
  out.insert(out.end(), indices.begin(), indices.end());
  out.insert(out.end(), data.begin() + axis + 1, data.end());
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}

std::vector<char> GatherOp::fold() const {
  const Shape data = inShape(0);
  const int bytes = getDataTypeInfo(inInfo(0).dataType()).nbytes();
  auto idx = toDoubles(inTensor(1)->data, inInfo(1).dataType());
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= data[d];
  for (std::size_t d = axis + 1; d < data.size(); ++d)
    inner *= data[d];
  std::vector<char> result;
  const auto &src = inTensor(0)->data;
  for (int64_t o = 0; o < outer; ++o)
    for (double v : idx) {
      int64_t i = static_cast<int64_t>(v);
      if (i < 0)
        i += data[axis];
      if (i < 0 || i >= data[axis])
        throw error("{}: index {} out of range", str(), v);
      auto begin = src.begin() + ((o * data[axis] + i) * inner) * bytes;
      result.insert(result.end(), begin, begin + inner * bytes);
    }
  return result;
}


std::vector<std::unique_ptr<Op>> GatherOp::getGradOps() {
  return gradOps<GatherGradOp>(*this);
}

} // namespace popart
