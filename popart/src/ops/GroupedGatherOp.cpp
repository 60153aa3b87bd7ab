#include "ops/GroupedGatherOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

namespace popart {

void GroupedGatherOp::setup() {
  const Shape data = inShape(0), indices = inShape(1);
  axis = normaliseAxis(axis, int64_t(data.size()), *this);
  checkIndicesType(*this, 1);
  if (groupSize < 1)
    throw error("{}: group_size = {} is not valid: must be > 0", str(),
                groupSize);
  if (groupSize == 1) { // a plain Gather: no group dimension
    Shape out(data.begin(), data.begin() + axis);
    out.insert(out.end(), indices.begin(), indices.end());
    out.insert(out.end(), data.begin() + axis + 1, data.end());
    outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
    return;
  }
  if (axis == 0)
    throw error("{}: axis = {} indicates the dimension of the group", str(),
                axis);
  if (indices.empty() || data[0] != groupSize || indices[0] != groupSize)
    throw error("{}: data '{}' {} and indices '{}' {} must both have the {} "
                "groups in dimension 0",
                str(), inTensor(0)->id, data, inTensor(1)->id, indices,
                groupSize);
  Shape out(data.begin(), data.begin() + axis);
  out.insert(out.end(), indices.begin() + 1, indices.end());
  out.insert(out.end(), data.begin() + axis + 1, data.end());
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}

std::vector<std::unique_ptr<Op>> GroupedGatherOp::getGradOps() {
  return gradOps<GroupedGatherGradOp>(*this);
}

} // namespace popart
