#include "ops/MeanVarianceNormOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

#include <algorithm>

namespace popart {

void MeanVarianceNormOp::setup() {
  for (auto &axis : axes)
    axis = normaliseAxis(axis, inRank(0), *this);
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    throw error("{}: an axis is repeated", str());
  const auto t = inInfo(0).dataType();
  if (t != DataType::FLOAT && t != DataType::FLOAT16 && t != DataType::DOUBLE)
    throw error("{}: the input must be floating point, not {}", str(),
                inInfo(0).data_type());
  outInfo(0) = inInfo(0);
}

} // namespace popart
