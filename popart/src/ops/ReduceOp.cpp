#include "ops/ReduceOp.hpp"

#include <popart/error.hpp>

#include <algorithm>

namespace popart {

ReduceOp::ReduceOp(const OperatorIdentifier &id, const Op::Settings &settings,
                   const Attributes &a)
    : Op(id, settings), keepdims(a.getInt("keepdims", 1) != 0) {
  // ReduceSum takes its axes as an input from opset 13.
  const bool axesInput = id.type == "ReduceSum" && id.version >= 13;
  if (!axesInput && a.has("axes")) {
    attrAxes = a.getInts("axes");
    axesAttr = true;
  }
  if (axesInput)
    noopWithEmptyAxes = a.getInt("noop_with_empty_axes", 0) != 0;
}

void ReduceOp::setup() {
  const Shape in = inShape(0);
  const int64_t r = static_cast<int64_t>(in.size());
  std::vector<int64_t> axes = attrAxes;
  if (!axesAttr && hasInput(1))
    axes = constInputInts(1, "axes");
  reducedAxes.clear();
  if (axes.empty() && !noopWithEmptyAxes)
    for (int64_t d = 0; d < r; ++d)
      reducedAxes.push_back(d);
  for (auto a : axes) {
    if (a < -r || a >= r)
      throw error("{}: axis {} out of range for rank {}", str(), a, r);
    reducedAxes.push_back(a < 0 ? a + r : a);
  }
  std::sort(reducedAxes.begin(), reducedAxes.end());
  reducedAxes.erase(std::unique(reducedAxes.begin(), reducedAxes.end()),
                    reducedAxes.end());
  Shape out;
  for (int64_t d = 0; d < r; ++d) {
    bool reduced = std::binary_search(reducedAxes.begin(), reducedAxes.end(), d);
    if (!reduced)
      out.push_back(in[d]);
    else if (keepdims)
      out.push_back(1);
  }
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}


std::vector<std::unique_ptr<Op>> ReduceOp::getGradOps() {
  return gradOps<ReduceGradOp>(*this);
}

} // namespace popart
