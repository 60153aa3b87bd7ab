#include "ops/TriluOp.hpp"

#include <popart/error.hpp>

namespace popart {

void TriluOp::setup() {
  if (inRank(0) < 2)
    throw error("{}: the input has rank {}, not at least 2", str(), inRank(0));
  if (hasInput(1))
    triangle.k = constInputInts(1, "diagonal k").at(0);
  outInfo(0) = inInfo(0);
}

std::vector<std::unique_ptr<Op>> TriluOp::getGradOps() {
  return gradOps<TriluGradOp>(*this);
}

} // namespace popart
