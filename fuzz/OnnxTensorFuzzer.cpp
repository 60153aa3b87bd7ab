// ONNX TensorProto files (the backend test data's input_N.pb and
// output_N.pb) read by onnx_io, as popart_run and the conformance runner
// read them. A file that reads must survive a round trip through
// toTensorProto unchanged and compare equal to itself (numbers as bytes,
// STRING elements as strings); one that does not must fail with
// popart::error.
#include <onnx_io/HostTensor.hpp>
#include <popart/error.hpp>

#include <onnx/onnx_pb.h>

#include "FuzzSupport.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

[[noreturn]] void mismatch(const char *what) {
  std::fprintf(stderr, "onnx tensor: %s\n", what);
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string path = fuzz::scratchFile("tensor.pb", data, size);
  onnx_io::HostTensor tensor;
  try {
    tensor = onnx_io::readTensorProtoFile(path);
  } catch (const popart::error &) {
    return 0;
  }
  if (tensor.isString()) {
    // STRING elements are held as strings, one per element.
    if (tensor.strings.size() != std::size_t(tensor.info.nelms()) ||
        !tensor.bytes.empty())
      mismatch("a STRING tensor holds a string per element and no bytes");
    onnx::TensorProto proto;
    onnx_io::toTensorProto(tensor, "t", proto);
    onnx_io::HostTensor again = onnx_io::fromTensorProto(proto, "round trip");
    if (again.info != tensor.info || again.strings != tensor.strings)
      mismatch("a round trip through toTensorProto changed the strings");
    if (!onnx_io::compareElementwise(tensor, tensor, 0, 0).equal)
      mismatch("a STRING tensor differs from itself");
    return 0;
  }
  if (tensor.bytes.size() != std::size_t(tensor.info.nbytes()))
    mismatch("the bytes read do not fill the tensor's shape");

  onnx::TensorProto proto;
  onnx_io::toTensorProto(tensor, "t", proto);
  onnx_io::HostTensor again = onnx_io::fromTensorProto(proto, "round trip");
  if (again.info != tensor.info || again.bytes != tensor.bytes)
    mismatch("a round trip through toTensorProto changed the tensor");

  const auto values = onnx_io::toDoubles(tensor);
  if (values.size() != std::size_t(tensor.info.nelms()))
    mismatch("toDoubles gives a value per element");
  bool infinite = false;
  for (double v : values)
    infinite = infinite || std::isinf(v);
  // inf - inf is NaN, so only finite tensors must equal themselves.
  if (!infinite && !onnx_io::compareElementwise(tensor, tensor, 0, 0).equal)
    mismatch("a tensor differs from itself");
  return 0;
}
