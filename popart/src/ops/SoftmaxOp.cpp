#include "ops/SoftmaxOp.hpp"

#include <popart/error.hpp>

#include <algorithm>

namespace popart {

SoftmaxOp::SoftmaxOp(const OperatorIdentifier &id, const Op::Settings &settings,
                     const Attributes &a)
    : Op(id, settings), axis(a.getInt("axis", id.version < 13 ? 1 : -1)) {}

void SoftmaxOp::setup() {
  const int64_t r = inInfo(0).rank();
  if (axis < -r || axis >= std::max<int64_t>(r, 1))
    throw error("{}: axis {} out of range for rank {}", str(), axis, r);
  if (axis < 0)
    axis += r;
  outInfo(0) = inInfo(0);
}


std::vector<std::unique_ptr<Op>> SoftmaxOp::getGradOps() {
  // Hardmax is piecewise constant: no gradient flows through it.
  if (opid.type == "Hardmax")
    return {};
  return gradOps<SoftmaxGradOp>(*this);
}

} // namespace popart
