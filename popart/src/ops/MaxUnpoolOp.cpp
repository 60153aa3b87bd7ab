#include "ops/MaxUnpoolOp.hpp"
#include "ops/Spatial.hpp"

#include <popart/error.hpp>

namespace popart {

void MaxUnpoolOp::setup() {
  const Shape x = inShape(0);
  const std::size_t n = kernelShape.size();
  if (x.size() != n + 2)
    throw error("{}: input '{}' of shape {} does not have the {} spatial "
                "dimensions of kernel_shape",
                str(), inTensor(0)->id, x, n);
  if (inShape(1) != x)
    throw error("{}: indices '{}' of shape {} differ from the input's {}",
                str(), inTensor(1)->id, inShape(1), x);
  const auto s = orDefault(strides, n, 1);
  const auto p = orDefault(pads, 2 * n, 0);
  if (s.size() != n || p.size() != 2 * n)
    throw error("{}: strides {} and pads {} do not match kernel_shape {}",
                str(), strides, pads, kernelShape);
  Shape out{x[0], x[1]};
  for (std::size_t d = 0; d < n; ++d)
    out.push_back((x[2 + d] - 1) * s[d] - p[d] - p[d + n] + kernelShape[d]);
  if (hasInput(2)) {
    const auto given = constInputInts(2, "output_shape");
    if (given.size() != out.size())
      throw error("{}: output_shape {} does not have rank {}", str(), given,
                  out.size());
    for (std::size_t d = 0; d < out.size(); ++d)
      if (given[d] < out[d])
        throw error("{}: output_shape {} is smaller than the unpooled shape "
                    "{}",
                    str(), given, out);
    unpooled = out;
    out = given;
  } else {
    unpooled = out;
  }
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}

} // namespace popart
