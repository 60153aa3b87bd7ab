#include "ops/ReduceMedianOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

#include <algorithm>

namespace popart {

ReduceMedianOp::ReduceMedianOp(const OperatorIdentifier &id,
                               const Op::Settings &settings,
                               const Attributes &a)
    : Op(id, settings), keepdims(a.getInt("keepdims", 1) != 0),
      allAxes(!a.has("axes")) {
  if (!allAxes)
    axes = a.getInts("axes");
}

void ReduceMedianOp::setup() {
  const Shape in = inShape(0);
  const int64_t rank = static_cast<int64_t>(in.size());
  if (allAxes) {
    axes.clear();
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  for (auto &d : axes)
    d = normaliseAxis(d, rank, *this);
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    throw error("{}: an axis is given more than once", str());
  Shape out;
  for (int64_t d = 0; d < rank; ++d) {
    const bool reduced = std::binary_search(axes.begin(), axes.end(), d);
    if (reduced && in[d] == 0)
      throw error("{}: the median of an empty dimension {}", str(), d);
    if (!reduced)
      out.push_back(in[d]);
    else if (keepdims)
      out.push_back(1);
  }
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
  if (hasOutput(1))
    outInfo(1) = TensorInfo(DataType::INT32, out);
}

std::vector<unsigned> ReduceMedianOp::order() const {
  std::vector<unsigned> kept, reduced;
  for (unsigned d = 0; d < static_cast<unsigned>(inRank(0)); ++d)
    (std::binary_search(axes.begin(), axes.end(), int64_t(d)) ? reduced : kept)
        .push_back(d);
  kept.insert(kept.end(), reduced.begin(), reduced.end());
  return kept;
}

std::vector<std::unique_ptr<Op>> ReduceMedianOp::getGradOps() {
  return gradOps<ReduceMedianGradOp>(*this);
}

} // namespace popart
