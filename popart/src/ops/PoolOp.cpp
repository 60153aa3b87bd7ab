#include "ops/PoolOp.hpp"

#include <popart/error.hpp>

namespace popart {

PoolOp::PoolOp(const OperatorIdentifier &id, const Op::Settings &settings,
               const Attributes &a)
    : Op(id, settings) {
  if (isGlobal())
    return;
  const bool maxPool = id.type == "MaxPool";
  // ceil_mode from MaxPool 10 and AveragePool 10; dilations from MaxPool 10.
  spatial.read(a, name(), id.version >= 10, maxPool && id.version >= 10);
  if (spatial.kernelShape.empty())
    throw error("{} '{}': kernel_shape is required", id.type, name());
  for (auto d : spatial.dilations)
    if (d != 1)
      throw error("MaxPool '{}': dilations {} are not supported (only 1)",
                    name(), spatial.dilations);
  if (maxPool && id.version >= 8 && a.getInt("storage_order", 0) != 0)
    throw error("MaxPool '{}': storage_order 1 is not supported", name());
  if (!maxPool && id.version >= 7)
    countIncludePad = a.getInt("count_include_pad", 0) != 0;
}

void PoolOp::setup() {
  const Shape x = inShape(0);
  if (x.size() < 3 || x.size() > 5)
    throw error("{}: input '{}' has shape {}: 1 to 3 spatial dimensions are "
                "supported",
                str(), inTensor(0)->id, x);
  const auto type = inInfo(0).dataType();
  if (type != DataType::FLOAT && type != DataType::FLOAT16)
    throw error("{}: input '{}' is {}; pooling supports FLOAT and FLOAT16",
                str(), inTensor(0)->id, inInfo(0).data_type());
  if (outputs.size() > 1 && outputs[1])
    throw error("{}: the Indices output is not supported", str());
  const Shape field(x.begin() + 2, x.end());
  if (isGlobal()) {
    kernel = field;
    dims.assign(field.size(), SpatialDim{0, 0, 1});
  } else {
    kernel = spatial.kernelShape;
    dims = resolveSpatial(spatial, field, kernel, *this);
  }
  Shape out{x[0], x[1]};
  for (const auto &d : dims)
    out.push_back(d.outSize);
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}


std::vector<std::unique_ptr<Op>> PoolOp::getGradOps() {
  if (hasOutput(1))
    throw error("{}: the indices output has no gradient", str());
  return gradOps<PoolGradOp>(*this);
}

} // namespace popart
