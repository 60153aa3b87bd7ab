#include "ops/ElementIndexOps.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

namespace popart {

void ElementIndexOp::checkIndices() {
  const Shape data = inShape(0), indices = inShape(1);
  axis = normaliseAxis(axis, static_cast<int64_t>(data.size()), *this);
  checkIndicesType(*this, 1);
  if (indices.size() != data.size())
    throw error("{}: the indices have rank {}, the data {}", str(),
                indices.size(), data.size());
  for (std::size_t d = 0; d < data.size(); ++d)
    if (static_cast<int64_t>(d) != axis && indices[d] > data[d])
      throw error("{}: the indices' shape {} exceeds the data's {}", str(),
                  indices, data);
}

void GatherElementsOp::setup() {
  checkIndices();
  outInfo(0) = TensorInfo(inInfo(0).dataType(), inShape(1));
}

std::vector<std::unique_ptr<Op>> GatherElementsOp::getGradOps() {
  return gradOps<GatherElementsGradOp>(*this);
}

ScatterElementsOp::ScatterElementsOp(const OperatorIdentifier &id,
                                     const Op::Settings &settings,
                                     const Attributes &a)
    : ElementIndexOp(id, settings, a),
      reduction(a.getString("reduction", "none")) {
  if (reduction != "none" && reduction != "add" && reduction != "mul")
    throw error("{} '{}': reduction '{}' is not supported", id.type,
                settings.name, reduction);
}

void ScatterElementsOp::setup() {
  checkIndices();
  if (inShape(2) != inShape(1))
    throw error("{}: the updates' shape {} is not the indices' {}", str(),
                inShape(2), inShape(1));
  if (inInfo(2).dataType() != inInfo(0).dataType())
    throw error("{}: the updates are {}, the data {}", str(),
                inInfo(2).data_type(), inInfo(0).data_type());
  outInfo(0) = inInfo(0);
}

} // namespace popart
