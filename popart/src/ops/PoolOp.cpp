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
  if (maxPool && id.version >= 8) {
    storageOrder = a.getInt("storage_order", 0);
    if (storageOrder != 0 && storageOrder != 1)
      throw error("MaxPool '{}': storage_order {} is neither 0 nor 1", name(),
                  storageOrder);
  }
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
  const bool integerMax = opid.type == "MaxPool" &&
                          (type == DataType::INT8 || type == DataType::UINT8);
  if (type != DataType::FLOAT && type != DataType::FLOAT16 && !integerMax)
    throw error("{}: input '{}' is {}; pooling supports FLOAT and FLOAT16 "
                "(and MaxPool INT8 and UINT8)",
                str(), inTensor(0)->id, inInfo(0).data_type());
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
  if (hasOutput(1))
    outInfo(1) = TensorInfo(DataType::INT64, out);
}

bool PoolOp::scansWindows() const {
  if (opid.type != "MaxPool")
    return false;
  for (auto d : spatial.dilations)
    if (d != 1)
      return true;
  const auto type = inInfo(0).dataType();
  return hasOutput(1) || (type != DataType::FLOAT && type != DataType::FLOAT16);
}


std::vector<std::unique_ptr<Op>> PoolOp::getGradOps() {
  if (scansWindows())
    throw error("{}: a MaxPool with dilations, the Indices output or an "
                "integer input has no gradient",
                str());
  return gradOps<PoolGradOp>(*this);
}

} // namespace popart
