// Values of every ONNX type the backend test data holds: a tensor, a
// sequence of tensors, or an optional of either, read from and written to
// TensorProto, SequenceProto and OptionalProto files.
#ifndef ONNX_IO_HOST_VALUE_HPP
#define ONNX_IO_HOST_VALUE_HPP

#include <onnx_io/HostTensor.hpp>

#include <string>
#include <vector>

namespace onnx {
class TypeProto;
}

namespace onnx_io {

struct HostValue {
  enum class Kind { Tensor, Sequence, Optional };
  Kind kind = Kind::Tensor;
  HostTensor tensor;               // Kind::Tensor
  std::vector<HostValue> elements; // a sequence's, or an optional's value
  // An optional's: whether its value (held or not) is a sequence.
  bool ofSequence = false;
  // ONNX element type of a sequence's tensors (for an empty sequence).
  int elementType = 0;

  static HostValue ofTensor(HostTensor t);
};

// The kind a value of the ONNX type has; popart::error naming `what` for
// types other than tensors, sequences of tensors and optionals of those.
HostValue formOf(const onnx::TypeProto &type, const std::string &what);

// Reads a value of `type` from a serialised TensorProto, SequenceProto or
// OptionalProto (popart::error naming the file if it is not one).
HostValue readValueFile(const std::string &path, const onnx::TypeProto &type);
void writeValueFile(const HostValue &value, const std::string &name,
                    const std::string &path);

// The tensors a value is made of, as ModelRunner names them: `name` for a
// tensor; `name[k]` for element k of a sequence, of an optional's
// sequence, or (k = 0) for an optional's tensor.
std::vector<std::pair<std::string, HostTensor>>
flatten(const HostValue &value, const std::string &name);

// Same kinds, as many elements, each element compared elementwise.
Comparison compareValues(const HostValue &actual, const HostValue &expected,
                         double rtol, double atol);

// "FLOAT [2 3]", "sequence of 3 (FLOAT [2] ...)", "optional (empty)".
std::string describe(const HostValue &value);

} // namespace onnx_io

#endif
