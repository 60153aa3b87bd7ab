#include "ops/NdIndexOps.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

namespace popart {

void NdIndexOp::checkIndices() {
  const Shape data = inShape(0), indices = inShape(1);
  checkIndicesType(*this, 1);
  const auto b = static_cast<std::size_t>(batchDims);
  if (indices.empty() || batchDims < 0 || b >= indices.size() ||
      b >= data.size())
    throw error("{}: batch_dims {} does not fit indices of rank {} and data "
                "of rank {}",
                str(), batchDims, indices.size(), data.size());
  for (std::size_t d = 0; d < b; ++d)
    if (indices[d] != data[d])
      throw error("{}: the batch dimensions of the indices {} and the data {} "
                  "differ",
                  str(), indices, data);
  if (indexDepth() < 1 || b + static_cast<std::size_t>(indexDepth()) > data.size())
    throw error("{}: index vectors of {} values do not fit data of rank {}",
                str(), indexDepth(), data.size());
}

namespace {
// indices.shape[:-1] + data.shape[batch_dims + m:]
Shape gatheredShape(const Shape &data, const Shape &indices, int64_t b,
                    int64_t m) {
  Shape out(indices.begin(), indices.end() - 1);
  out.insert(out.end(), data.begin() + b + m, data.end());
  return out;
}
} // namespace

void GatherNDOp::setup() {
  checkIndices();
  outInfo(0) = TensorInfo(inInfo(0).dataType(),
                          gatheredShape(inShape(0), inShape(1), batchDims,
                                        indexDepth()));
}

std::vector<std::unique_ptr<Op>> GatherNDOp::getGradOps() {
  return gradOps<GatherNDGradOp>(*this);
}

ScatterNDOp::ScatterNDOp(const OperatorIdentifier &id,
                         const Op::Settings &settings, const Attributes &a)
    : NdIndexOp(id, settings, a), reduction(a.getString("reduction", "none")) {
  if (reduction != "none" && reduction != "add" && reduction != "mul")
    throw error("{} '{}': reduction '{}' is not supported", id.type,
                settings.name, reduction);
}

void ScatterNDOp::setup() {
  checkIndices();
  const Shape expected =
      gatheredShape(inShape(0), inShape(1), batchDims, indexDepth());
  if (inShape(2) != expected)
    throw error("{}: the updates have shape {}, not {}", str(), inShape(2),
                expected);
  if (inInfo(2).dataType() != inInfo(0).dataType())
    throw error("{}: the updates are {}, the data {}", str(),
                inInfo(2).data_type(), inInfo(0).data_type());
  outInfo(0) = inInfo(0);
}

} // namespace popart
