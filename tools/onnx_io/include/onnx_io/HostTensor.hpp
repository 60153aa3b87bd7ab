// Host-side tensors read from and written to ONNX TensorProto files, and the
// comparison the conformance runner applies to them.
#ifndef ONNX_IO_HOST_TENSOR_HPP
#define ONNX_IO_HOST_TENSOR_HPP

#include <popart/tensorinfo.hpp>

#include <string>
#include <vector>

namespace onnx {
class TensorProto;
}

namespace onnx_io {

struct HostTensor {
  popart::TensorInfo info;
  std::vector<char> bytes;

  void *data() { return bytes.data(); }
  const void *data() const { return bytes.data(); }
};

// Reads a serialised onnx::TensorProto (the backend test data's .pb files).
// Throws popart::error naming the file when it cannot be parsed.
HostTensor readTensorProtoFile(const std::string &path);
HostTensor fromTensorProto(const onnx::TensorProto &proto,
                           const std::string &origin);
void toTensorProto(const HostTensor &tensor, const std::string &name,
                   onnx::TensorProto &proto);

// A tensor of the given info filled with values drawn uniformly from
// [-1, 1) (floating point), [0, 10) (integers) or {false, true}.
HostTensor randomTensor(const popart::TensorInfo &info, unsigned seed);

// Element values widened to double, for comparisons and printing.
std::vector<double> toDoubles(const HostTensor &tensor);

struct Comparison {
  bool equal = false;
  std::string detail; // first mismatch, or the error measured
};

// ONNX backend rule: |actual - expected| <= atol + rtol * |expected| for
// every element, NaNs matching NaNs; shapes must have as many elements.
Comparison compareElementwise(const HostTensor &actual,
                              const HostTensor &expected, double rtol,
                              double atol);

// max |actual - expected| / max |expected| <= limit: the relative error of a
// whole output, used for models compared with the framework that exported
// them.
Comparison compareRelative(const HostTensor &actual,
                           const HostTensor &expected, double limit);

} // namespace onnx_io

#endif
