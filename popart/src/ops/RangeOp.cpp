#include "ops/RangeOp.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

#include <algorithm>
#include <cmath>

namespace popart {

void RangeOp::setup() {
  auto scalar = [&](int i, const char *what) {
    return constInputValues(i, what).at(0);
  };
  start = scalar(0, "start");
  const double limit = scalar(1, "limit");
  delta = scalar(2, "delta");
  if (delta == 0)
    throw error("{}: delta must not be 0", str());
  count = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((limit - start) / delta)));
  outInfo(0) = TensorInfo(inInfo(0).dataType(), {count});
}

std::vector<char> RangeOp::fold() const {
  std::vector<double> values(static_cast<std::size_t>(count));
  for (int64_t i = 0; i < count; ++i)
    values[i] = start + static_cast<double>(i) * delta;
  return fromDoubles(values, outInfo(0).dataType());
}

} // namespace popart
