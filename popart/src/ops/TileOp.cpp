#include "ops/TileOp.hpp"

#include <popart/error.hpp>

namespace popart {

void TileOp::setup() {
  repeats = constInputInts(1, "repeats");
  Shape out = inShape(0);
  if (repeats.size() != out.size())
    throw error("{}: {} repeats for an input of rank {}", str(), repeats.size(),
                out.size());
  for (std::size_t d = 0; d < out.size(); ++d) {
    if (repeats[d] < 0)
      throw error("{}: repeat {} is negative", str(), repeats[d]);
    out[d] *= repeats[d];
  }
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}


std::vector<std::unique_ptr<Op>> TileOp::getGradOps() {
  return gradOps<TileGradOp>(*this);
}

} // namespace popart
