#include "ops/SliceOp.hpp"
#include "ops/Axis.hpp"
#include "ops/RuntimeSliceBounds.hpp"

#include <popart/error.hpp>

#include <algorithm>

namespace popart {

SliceOp::SliceOp(const OperatorIdentifier &id, const Op::Settings &settings,
                 const Attributes &a)
    : Op(id, settings) {
  if (id.version < 10) {
    attrStarts = a.getInts("starts");
    attrEnds = a.getInts("ends");
    attrAxes = a.getInts("axes", {});
  }
}

void SliceOp::setup() {
  const Shape in = inShape(0);
  const int64_t r = static_cast<int64_t>(in.size());
  std::vector<int64_t> starts = attrStarts, ends = attrEnds, axes = attrAxes,
                       stepv;
  runtimeAxes.clear();
  runtimeLengths.clear();
  if (opid.version >= 10 && !(hasConstInput(1) && hasConstInput(2))) {
    setupRuntimeSlice(*this);
    return;
  }
  if (opid.version >= 10) {
    starts = constInputInts(1, "starts");
    ends = constInputInts(2, "ends");
    if (hasInput(3))
      axes = constInputInts(3, "axes");
    if (hasInput(4))
      stepv = constInputInts(4, "steps");
  }
  if (axes.empty())
    for (std::size_t i = 0; i < starts.size(); ++i)
      axes.push_back(static_cast<int64_t>(i));
  if (starts.size() != axes.size() || ends.size() != axes.size() ||
      (!stepv.empty() && stepv.size() != axes.size()))
    throw error("{}: starts, ends, axes and steps must have one entry per "
                "sliced axis, not {}, {}, {} and {}",
                str(), starts.size(), ends.size(), axes.size(), stepv.size());
  begins.assign(r, 0);
  reversed.assign(r, false);
  steps.assign(r, 1);
  this->ends = in;
  Shape out = in;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const int64_t d = normaliseAxis(axes[i], r, *this);
    const int64_t step = stepv.empty() ? 1 : stepv[i];
    if (step == 0)
      throw error("{}: a step must not be 0", str());
    auto clampIndex = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0)
        v += in[d];
      return std::min(std::max<int64_t>(v, lo), hi);
    };
    if (step > 0) {
      begins[d] = clampIndex(starts[i], 0, in[d]);
      this->ends[d] = std::max(begins[d], clampIndex(ends[i], 0, in[d]));
    } else {
      // Backwards: the same slice of the reversed dimension, forwards.
      const int64_t first = clampIndex(starts[i], 0, in[d] - 1);
      const int64_t last = clampIndex(ends[i], -1, in[d] - 1);
      begins[d] = in[d] - 1 - first;
      this->ends[d] = std::max(begins[d], in[d] - 1 - last);
      reversed[d] = true;
    }
    steps[d] = step > 0 ? step : -step;
    out[d] = (this->ends[d] - begins[d] + steps[d] - 1) / steps[d];
  }
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}

std::vector<char> SliceOp::fold() const {
  // Each output element's input index, dimension by dimension (a reversed
  // dimension counts from its end).
  const Shape in = inShape(0), out = outShape(0);
  const std::size_t bytes = getDataTypeInfo(inInfo(0).dataType()).nbytes();
  const auto &data = inTensor(0)->data;
  std::vector<char> result(static_cast<std::size_t>(outInfo(0).nelms()) * bytes);
  std::vector<int64_t> index(out.size(), 0);
  for (int64_t o = 0; o < outInfo(0).nelms(); ++o) {
    int64_t flat = 0;
    for (std::size_t d = 0; d < out.size(); ++d) {
      int64_t i = begins[d] + index[d] * steps[d];
      if (reversed[d])
        i = in[d] - 1 - i;
      flat = flat * in[d] + i;
    }
    std::copy_n(data.begin() + flat * static_cast<int64_t>(bytes), bytes,
                result.begin() + o * static_cast<int64_t>(bytes));
    for (std::size_t d = out.size(); d-- > 0;)
      if (++index[d] < out[d])
        break;
      else
        index[d] = 0;
  }
  return result;
}

std::vector<std::unique_ptr<Op>> SliceOp::getGradOps() {
  if (hasRuntimeStarts())
    throw error("{}: a slice whose starts are read at run time has no "
                "gradient",
                str());
  return gradOps<SliceGradOp>(*this);
}

} // namespace popart
