#include "ops/SplitOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

namespace popart {

SplitOp::SplitOp(const OperatorIdentifier &id, const Op::Settings &settings,
                 const Attributes &a)
    : Op(id, settings), axis(a.getInt("axis", 0)) {
  if (id.version < 13)
    attrSplit = a.getInts("split", {});
}

void SplitOp::setup() {
  const Shape in = inShape(0);
  axis = normaliseAxis(axis, static_cast<int64_t>(in.size()), *this);
  sizes = attrSplit;
  if (sizes.empty() && hasInput(1))
    sizes = constInputInts(1, "split");
  const int64_t n = static_cast<int64_t>(outputs.size());
  if (sizes.empty()) {
    if (in[axis] % n)
      throw error("{}: dimension {} of size {} does not split into {} equal "
                  "parts",
                  str(), axis, in[axis], n);
    sizes.assign(n, in[axis] / n);
  }
  if (static_cast<int64_t>(sizes.size()) != n)
    throw error("{}: {} sizes for {} outputs", str(), sizes.size(), n);
  int64_t total = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    Shape out = in;
    out[axis] = sizes[i];
    total += sizes[i];
    outInfo(static_cast<int>(i)) = TensorInfo(inInfo(0).dataType(), out);
  }
  if (total != in[axis])
    throw error("{}: the sizes add up to {}, not {}", str(), total, in[axis]);
}


std::vector<std::unique_ptr<Op>> SplitOp::getGradOps() {
  std::vector<GradInOutMapper> inInfo;
  for (int i = 0; i < outTensorCount(); ++i)
    inInfo.emplace_back(i, i, GradOpInType::GradOut);
  std::vector<std::unique_ptr<Op>> ops;
  ops.push_back(std::make_unique<SplitGradOp>(*this, inInfo));
  return ops;
}

} // namespace popart
