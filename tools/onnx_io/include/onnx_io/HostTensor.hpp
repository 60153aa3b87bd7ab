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

// Numbers are held as their bytes; STRING elements as std::string (the
// element type popart's StepIO takes for STRING arrays).
struct HostTensor {
  popart::TensorInfo info;
  std::vector<char> bytes;
  std::vector<std::string> strings;

  bool isString() const {
    return info.dataType() == popart::DataType::STRING;
  }
  void *data() {
    return isString() ? static_cast<void *>(strings.data()) : bytes.data();
  }
  const void *data() const {
    return isString() ? static_cast<const void *>(strings.data())
                      : bytes.data();
  }
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

// Element values widened to double, for comparisons and printing
// (popart::error for STRING tensors).
std::vector<double> toDoubles(const HostTensor &tensor);

struct Comparison {
  bool equal = false;
  std::string detail; // first mismatch, or the error measured
};

// ONNX backend rule: |actual - expected| <= atol + rtol * |expected| for
// every element, NaNs matching NaNs; shapes must have as many elements.
// STRING tensors must be equal element by element.
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
