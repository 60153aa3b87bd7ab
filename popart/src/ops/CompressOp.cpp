#include "ops/CompressOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

namespace popart {

void CompressOp::setup() {
  Shape out = hasAxis ? inShape(0) : Shape{inInfo(0).nelms()};
  if (hasAxis)
    axis = normaliseAxis(axis, inRank(0), *this);
  else
    axis = 0;
  const auto condition = constInputValues(1, "condition");
  kept.clear();
  for (std::size_t i = 0; i < condition.size(); ++i)
    if (condition[i] != 0) {
      if (static_cast<int64_t>(i) >= out[axis])
        throw error("{}: the condition is true at {}, beyond the {} slices",
                    str(), i, out[axis]);
      kept.push_back(static_cast<unsigned>(i));
    }
  if (kept.empty())
    throw error("{}: the condition keeps no slice (an empty result is not "
                "supported)",
                str());
  out[axis] = static_cast<int64_t>(kept.size());
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}

} // namespace popart
