#include "ops/ReverseSubsampleOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

namespace popart {

ReverseOp::ReverseOp(const OperatorIdentifier &id, const Op::Settings &settings,
                     const Attributes &a)
    : SliceOp(id, settings), dimensions(a.getInts("dimensions", {})) {}

void ReverseOp::setup() {
  const Shape in = inShape(0);
  const int64_t r = static_cast<int64_t>(in.size());
  begins.assign(in.size(), 0);
  ends = in;
  steps.assign(in.size(), 1);
  reversed.assign(in.size(), false);
  for (int64_t d : dimensions) {
    if (d < -r || d >= r)
      throw error("{}: dimension {} is out of range for an input of rank {}",
                  str(), d, r);
    const int64_t n = normaliseAxis(d, r, *this);
    if (reversed[n])
      throw error("{}: dimension {} is given more than once", str(), d);
    reversed[n] = true;
  }
  outInfo(0) = inInfo(0);
}

SubsampleOp::SubsampleOp(const OperatorIdentifier &id,
                         const Op::Settings &settings, const Attributes &a)
    : SliceOp(id, settings), strides(a.getInts("strides")) {
  for (std::size_t i = 0; i < strides.size(); ++i)
    if (strides[i] <= 0)
      throw error("Subsample '{}': stride {} at index {} is not positive",
                  name(), strides[i], i);
}

void SubsampleOp::setup() {
  const Shape in = inShape(0);
  if (strides.size() != in.size())
    throw error("{}: {} strides for an input of rank {}", str(),
                strides.size(), in.size());
  begins.assign(in.size(), 0);
  ends = in;
  steps = strides;
  reversed.assign(in.size(), false);
  Shape out = in;
  for (std::size_t d = 0; d < in.size(); ++d)
    out[d] = (in[d] + strides[d] - 1) / strides[d];
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}

} // namespace popart
