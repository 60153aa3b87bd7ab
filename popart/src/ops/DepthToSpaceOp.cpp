#include "ops/DepthToSpaceOp.hpp"

#include <popart/error.hpp>

namespace popart {

DepthToSpaceOp::DepthToSpaceOp(const OperatorIdentifier &id,
                               const Op::Settings &settings,
                               const Attributes &a)
    : Op(id, settings), blocksize(a.getInt("blocksize")),
      mode(id.type == "DepthToSpace" ? a.getString("mode", "DCR") : "") {
  if (blocksize < 1)
    throw error("{} '{}': blocksize {} is not positive", id.type, name(),
                blocksize);
  if (id.type == "DepthToSpace" && mode != "DCR" && mode != "CRD")
    throw error("DepthToSpace '{}': mode '{}' is not DCR or CRD", name(), mode);
}

void DepthToSpaceOp::setup() {
  if (inRank(0) != 4)
    throw error("{}: the input has rank {}, not 4", str(), inRank(0));
  const Shape in = inShape(0);
  const int64_t n = in[0], c = in[1], h = in[2], w = in[3], b = blocksize;
  if (opid.type == "DepthToSpace") {
    if (c % (b * b) != 0)
      throw error("{}: {} channels are not a multiple of {}", str(), c, b * b);
    if (mode == "DCR")
      rearrangement = {{n, b, b, c / (b * b), h, w}, {0, 3, 4, 1, 5, 2}};
    else
      rearrangement = {{n, c / (b * b), b, b, h, w}, {0, 1, 4, 2, 5, 3}};
    outInfo(0) = TensorInfo(inInfo(0).dataType(), {n, c / (b * b), h * b, w * b});
  } else {
    if (h % b != 0 || w % b != 0)
      throw error("{}: height {} and width {} are not multiples of {}", str(),
                  h, w, b);
    rearrangement = {{n, c, h / b, b, w / b, b}, {0, 3, 5, 1, 2, 4}};
    outInfo(0) = TensorInfo(inInfo(0).dataType(), {n, c * b * b, h / b, w / b});
  }
}

std::vector<std::unique_ptr<Op>> DepthToSpaceOp::getGradOps() {
  return gradOps<DepthToSpaceGradOp>(*this);
}

} // namespace popart
