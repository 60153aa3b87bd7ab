#include "ops/NonZeroOp.hpp"
#include "ir/HostData.hpp"

namespace popart {

void NonZeroOp::setup() {
  const auto values =
      constInputValues(0, "input (whose non-zero count is the output's shape)");
  nonZero.clear();
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] != 0)
      nonZero.push_back(static_cast<int64_t>(i));
  outInfo(0) = TensorInfo(DataType::INT64,
                          {std::max<int64_t>(inRank(0), 1),
                           static_cast<int64_t>(nonZero.size())});
}

std::vector<char> NonZeroOp::fold() const {
  const Shape in = inRank(0) == 0 ? Shape{1} : inShape(0);
  const std::size_t count = nonZero.size();
  std::vector<double> coords(in.size() * count);
  for (std::size_t j = 0; j < count; ++j) {
    int64_t rest = nonZero[j];
    for (std::size_t d = in.size(); d-- > 0;) {
      coords[d * count + j] = static_cast<double>(rest % in[d]);
      rest /= in[d];
    }
  }
  return fromDoubles(coords, DataType::INT64);
}

} // namespace popart
