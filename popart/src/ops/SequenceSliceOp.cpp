#include "ops/SequenceSliceOp.hpp"

#include <popart/error.hpp>

namespace popart {

void SequenceSliceOp::setup() {
  if (inputs.size() != 5)
    throw error("{}: takes [source, destination, N, sourceOffset, "
                "destinationOffset]",
                str());
  for (int i = 0; i < 5; ++i)
    if (!hasInput(i))
      throw error("{}: input {} is missing", str(), i);
  const Shape src = inShape(0), dst = inShape(1);
  const DataType type = inInfo(0).dataType();
  if (type != DataType::FLOAT && type != DataType::FLOAT16 &&
      type != DataType::INT32 && type != DataType::UINT32)
    throw error("{}: source '{}' is {}; FLOAT, FLOAT16, INT32 and UINT32 are "
                "supported",
                str(), inTensor(0)->id, inInfo(0).data_type());
  if (inInfo(1).dataType() != type)
    throw error("{}: destination '{}' is {}, not the source's {}", str(),
                inTensor(1)->id, inInfo(1).data_type(), inInfo(0).data_type());
  if (src.size() < 2 || dst.size() < 2 ||
      inInfo(0).nelms() / src[0] != inInfo(1).nelms() / dst[0])
    throw error("{}: source {} and destination {} must have rank >= 2 and "
                "rows (the outer dimension) of the same size",
                str(), src, dst);
  for (int i = 2; i < 5; ++i) {
    if (inInfo(i).dataType() != DataType::UINT32)
      throw error("{}: '{}' is {}, not UINT32", str(), inTensor(i)->id,
                  inInfo(i).data_type());
    if (inShape(i).size() != 1 || inShape(i) != inShape(2))
      throw error("{}: N, sourceOffset and destinationOffset must be 1-D of "
                  "one size; '{}' has shape {}",
                  str(), inTensor(i)->id, inShape(i));
  }
  outInfo(0) = inInfo(1);
}

} // namespace popart
