#include "ops/ReverseSequenceOp.hpp"

#include <popart/error.hpp>

namespace popart {

void ReverseSequenceOp::setup() {
  const Shape x = inShape(0);
  if (x.size() < 2)
    throw error("{}: input '{}' of shape {} has fewer than 2 dimensions",
                str(), inTensor(0)->id, x);
  if ((batchAxis != 0 && batchAxis != 1) || (timeAxis != 0 && timeAxis != 1) ||
      batchAxis == timeAxis)
    throw error("{}: batch_axis {} and time_axis {} must be 0 and 1, or 1 "
                "and 0",
                str(), batchAxis, timeAxis);
  lengths = constInputInts(1, "sequence_lens");
  if (int64_t(lengths.size()) != x[std::size_t(batchAxis)])
    throw error("{}: {} sequence_lens for a batch of {}", str(),
                lengths.size(), x[std::size_t(batchAxis)]);
  for (auto l : lengths)
    if (l < 0 || l > x[std::size_t(timeAxis)])
      throw error("{}: sequence length {} is outside [0, {}]", str(), l,
                  x[std::size_t(timeAxis)]);
  outInfo(0) = inInfo(0);
}

} // namespace popart
