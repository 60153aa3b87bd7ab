#include "ops/CumSumOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

namespace popart {

void CumSumOp::setup() {
  if (inInfo(1).nelms() != 1)
    throw error("{}: the axis has {} elements, not 1", str(), inInfo(1).nelms());
  axis = normaliseAxis(constInputInts(1, "axis").at(0), inRank(0), *this);
  outInfo(0) = inInfo(0);
}

std::vector<std::unique_ptr<Op>> CumSumOp::getGradOps() {
  const DataType t = inInfo(0).dataType();
  if (t != DataType::FLOAT && t != DataType::FLOAT16 && t != DataType::DOUBLE)
    return {};
  return gradOps<CumSumGradOp>(*this);
}

} // namespace popart
