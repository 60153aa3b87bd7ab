// Runs an ONNX model through a popart InferenceSession with host tensors in
// and out: the shared core of the conformance runner and popart_run.
#ifndef ONNX_IO_MODEL_RUNNER_HPP
#define ONNX_IO_MODEL_RUNNER_HPP

#include <onnx_io/HostTensor.hpp>

#include <popart/devicemanager.hpp>
#include <popart/names.hpp>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace popart {
class InferenceSession;
}

namespace onnx_io {

struct ModelInput {
  popart::TensorId id;
  popart::TensorInfo info;
};

class ModelRunner {
public:
  // Loads the model file. Graph inputs listed in `constants` are turned
  // into initializers holding the given values (for inputs that an op
  // needs to know at compile time, such as a Reshape's shape).
  ModelRunner(const std::string &modelPath,
              std::shared_ptr<popart::DeviceInfo> device,
              const std::map<popart::TensorId, HostTensor> &constants = {},
              int batchesPerStep = 1);
  ~ModelRunner();

  // The graph inputs streamed at run time, in model order.
  const std::vector<ModelInput> &inputs() const { return inputs_; }
  const std::vector<popart::TensorId> &outputs() const { return outputs_; }

  // Runs one step; inputs hold batchesPerStep batches each.
  std::map<popart::TensorId, HostTensor>
  run(const std::map<popart::TensorId, HostTensor> &inputs);

  popart::InferenceSession &session() { return *session_; }

private:
  std::vector<ModelInput> inputs_;
  std::vector<popart::TensorId> outputs_;
  int batchesPerStep_;
  std::unique_ptr<popart::InferenceSession> session_;
};

// The graph inputs of the model file that an op reads as a compile-time
// operand, directly or through the ops computing it (but not through ops
// that read only shapes, as Shape): a shape, axis, count or bound that
// fixes the shape of a result (Reshape's shape, Range's start, limit and
// delta, CumSum's axis, OneHot's depth, Compress's condition ...). A
// runner gives the values it has for them to ModelRunner as constants, so
// that the session is specialised on them.
std::set<popart::TensorId> compileTimeInputs(const std::string &modelPath);

// A model's given input values, split into those the session is
// specialised on (INT64 ones, which are shapes, axes or indices, and the
// compileTimeInputs) and those streamed at run time.
struct GivenInputs {
  std::map<popart::TensorId, HostTensor> constants;
  std::map<popart::TensorId, HostTensor> streamed;
};
GivenInputs splitGivenInputs(const std::string &modelPath,
                             std::map<popart::TensorId, HostTensor> values);

// Devices by the names the tools accept: "cpu", "ipumodel" (Mk2) or
// "ipumodel1" (Mk1).
std::shared_ptr<popart::DeviceInfo> createDevice(const std::string &name);

} // namespace onnx_io

#endif
