#include "ops/GeneratorOps.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

#include <cmath>

namespace popart {

EyeLikeOp::EyeLikeOp(const OperatorIdentifier &id, const Op::Settings &settings,
                     const Attributes &a)
    : Op(id, settings), k(a.getInt("k", 0)) {
  if (a.has("dtype"))
    dtype = onnxToPopartType(static_cast<int>(a.getInt("dtype")));
}

void EyeLikeOp::setup() {
  if (inRank(0) != 2)
    throw error("{}: the input has rank {}, not 2", str(), inRank(0));
  outInfo(0) = TensorInfo(
      dtype == DataType::UNDEFINED ? inInfo(0).dataType() : dtype, inShape(0));
}

std::vector<char> EyeLikeOp::fold() const {
  const int64_t rows = outShape(0)[0], cols = outShape(0)[1];
  std::vector<double> values(static_cast<std::size_t>(rows * cols), 0.0);
  for (int64_t i = 0; i < rows; ++i)
    if (i + k >= 0 && i + k < cols)
      values[i * cols + i + k] = 1.0;
  return fromDoubles(values, outInfo(0).dataType());
}

WindowOp::WindowOp(const OperatorIdentifier &id, const Op::Settings &settings,
                   const Attributes &a)
    : Op(id, settings),
      dtype(onnxToPopartType(static_cast<int>(a.getInt("output_datatype", 1)))),
      periodic(a.getInt("periodic", 1) != 0) {}

void WindowOp::setup() {
  if (inInfo(0).nelms() != 1)
    throw error("{}: the size has {} elements, not 1", str(), inInfo(0).nelms());
  size = constInputInts(0, "size").at(0);
  if (size < 0)
    throw error("{}: the size {} is negative", str(), size);
  outInfo(0) = TensorInfo(dtype, {size});
}

std::vector<char> WindowOp::fold() const {
  // a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N), N the size when periodic,
  // else size - 1.
  double a0 = 0.5, a1 = 0.5, a2 = 0.0;
  if (opid.type == "HammingWindow") {
    a0 = 25.0 / 46.0;
    a1 = 1.0 - a0;
  } else if (opid.type == "BlackmanWindow") {
    a0 = 0.42;
    a2 = 0.08;
  }
  const double pi = std::acos(-1.0);
  const double n = static_cast<double>(periodic ? size : size - 1);
  std::vector<double> values(static_cast<std::size_t>(size));
  for (int64_t i = 0; i < size; ++i) {
    const double x = static_cast<double>(i) / n;
    values[i] = a0 - a1 * std::cos(2 * pi * x) + a2 * std::cos(4 * pi * x);
  }
  return fromDoubles(values, dtype);
}

} // namespace popart
