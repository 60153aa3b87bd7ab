#include "ops/SplineOps.hpp"

#include <popart/error.hpp>
#include <popart/opserialiser.hpp>

namespace popart {
namespace {

bool isFloatType(DataType t) {
  return t == DataType::FLOAT || t == DataType::FLOAT16;
}

} // namespace

SplineBasisOp::SplineBasisOp(const OperatorIdentifier &id,
                             const Op::Settings &settings, const Attributes &a)
    : Op(id, settings), degree(0) {
  const int64_t d = a.getInt("degree", 1);
  // Degree 0 is refused too: poplibs has no basis of that degree.
  if (d < 1 || d > 3)
    throw error("SplineBasis: degree {} is not valid; it must be 1, 2 or 3",
                d);
  degree = static_cast<unsigned>(d);
}

void SplineBasisOp::setup() {
  const TensorInfo &pseudo = inInfo(0);
  if (pseudo.rank() != 2 || pseudo.dim(1) < 1)
    throw error("{}: pseudo '{}' has shape {}; [numEdges, numDims] is needed",
                str(), inId(0), pseudo.shape());
  if (!isFloatType(pseudo.dataType()))
    throw error("{}: pseudo '{}' is {}; FLOAT or FLOAT16 is needed", str(),
                inId(0), pseudo.data_type());
  const int64_t E = pseudo.dim(0), D = pseudo.dim(1);
  const char *names[] = {"pseudo", "kernel_size", "is_open_spline"};
  const DataType types[] = {DataType::FLOAT, DataType::INT32, DataType::UINT8};
  for (int i = 1; i < 3; ++i) {
    if (inShape(i) != Shape{D})
      throw error("{}: {} '{}' has shape {}; [{}] (one per dimension of "
                  "pseudo) is needed",
                  str(), names[i], inId(i), inShape(i), D);
    if (inInfo(i).dataType() != types[i])
      throw error("{}: {} '{}' is {}; {} is needed", str(), names[i], inId(i),
                  inInfo(i).data_type(), getDataTypeInfo(types[i]).name());
  }
  int64_t splines = 1;
  for (int64_t d = 0; d < D; ++d)
    splines *= degree + 1;
  outInfo(0) = TensorInfo(pseudo.dataType(), Shape{E, splines});
  if (hasOutput(1))
    outInfo(1) = TensorInfo(DataType::INT32, Shape{E, splines});
}

void SplineBasisOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  os.appendAttribute("degree", int64_t(degree));
}

void SplineWeightingOp::setup() {
  const TensorInfo &input = inInfo(0), &weight = inInfo(1), &basis = inInfo(2),
                   &index = inInfo(3);
  if (input.rank() != 2)
    throw error("{}: input '{}' has shape {}; [numEdges, inChannels] is "
                "needed",
                str(), inId(0), input.shape());
  if (!isFloatType(input.dataType()))
    throw error("{}: input '{}' is {}; FLOAT or FLOAT16 is needed", str(),
                inId(0), input.data_type());
  const int64_t E = input.dim(0), I = input.dim(1);
  if (weight.rank() != 3 || weight.dim(1) != I)
    throw error("{}: weight '{}' has shape {}; [numWeights, {}, outChannels] "
                "is needed",
                str(), inId(1), weight.shape(), I);
  if (basis.rank() != 2 || basis.dim(0) != E || basis.dim(1) < 1)
    throw error("{}: basis '{}' has shape {}; [{}, numSplines] is needed",
                str(), inId(2), basis.shape(), E);
  for (int i = 1; i < 3; ++i)
    if (inInfo(i).dataType() != input.dataType())
      throw error("{}: '{}' is {}, not the input's {}", str(), inId(i),
                  inInfo(i).data_type(), input.data_type());
  if (index.shape() != basis.shape() || index.dataType() != DataType::INT32)
    throw error("{}: weightIndex '{}' is {} {}; INT32 {} (basis's shape) is "
                "needed",
                str(), inId(3), index.data_type(), index.shape(),
                basis.shape());
  outInfo(0) = TensorInfo(input.dataType(), Shape{E, weight.dim(2)});
}

} // namespace popart
