#include "ops/DFTOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

namespace popart {

void DFTOp::setup() {
  const Shape x = inShape(0);
  if (x.size() < 2 || (x.back() != 1 && x.back() != 2))
    throw error("{}: input '{}' of shape {} does not end in a dimension of 1 "
                "(real) or 2 (complex)",
                str(), inTensor(0)->id, x);
  if (inInfo(0).dataType() != DataType::FLOAT)
    throw error("{}: input '{}' is {}, not FLOAT", str(), inTensor(0)->id,
                inInfo(0).data_type());
  axis = normaliseAxis(axis, int64_t(x.size()) - 1, *this);
  length = x[std::size_t(axis)];
  if (hasInput(1) && inInfo(1).nelms() > 0)
    length = constInputInts(1, "dft_length").at(0);
  if (length < 1)
    throw error("{}: dft_length {} must be positive", str(), length);
  if (onesided && x.back() == 2)
    throw error("{}: onesided needs a real input", str());
  frequencies = onesided ? length / 2 + 1 : length;
  Shape out = x;
  out[std::size_t(axis)] = frequencies;
  out.back() = 2;
  outInfo(0) = TensorInfo(DataType::FLOAT, out);
}

} // namespace popart
