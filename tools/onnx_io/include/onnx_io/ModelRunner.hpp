// Runs an ONNX model through a popart InferenceSession with host tensors in
// and out: the shared core of the conformance runner and popart_run.
#ifndef ONNX_IO_MODEL_RUNNER_HPP
#define ONNX_IO_MODEL_RUNNER_HPP

#include <onnx_io/HostTensor.hpp>
#include <onnx_io/HostValue.hpp>

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

// A model's given input values, split into those the session is
// specialised on (INT64 ones, which are shapes, axes or indices, and the
// compileTimeInputs) and those streamed at run time. A sequence or
// optional input is given as its element tensors (onnx_io::flatten names
// them `name[k]`), each constant or streamed by the same rule, and its
// structure (how many elements, whether an optional holds a value) is
// kept in `sequences`: the session is specialised on it.
struct GivenInputs {
  std::map<popart::TensorId, HostTensor> constants;
  std::map<popart::TensorId, HostTensor> streamed;
  std::map<popart::TensorId, HostValue> sequences;
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
  // As above; each sequence or optional graph input becomes tensor inputs
  // `name[k]` (constant or streamed as `given` says) gathered by a
  // SequenceConstruct, SequenceEmpty or Optional node, so the IR knows its
  // structure when it is prepared.
  ModelRunner(const std::string &modelPath,
              std::shared_ptr<popart::DeviceInfo> device,
              const GivenInputs &given, int batchesPerStep = 1);
  ~ModelRunner();

  // The graph inputs streamed at run time, in model order.
  const std::vector<ModelInput> &inputs() const { return inputs_; }
  const std::vector<popart::TensorId> &outputs() const { return outputs_; }

  // Runs one step; inputs hold batchesPerStep batches each. A sequence or
  // optional output is returned as its element tensors `name[k]`.
  std::map<popart::TensorId, HostTensor>
  run(const std::map<popart::TensorId, HostTensor> &inputs);

  // The value of a model output from run()'s results.
  HostValue
  outputValue(const std::map<popart::TensorId, HostTensor> &results,
              const popart::TensorId &output) const;

  popart::InferenceSession &session() { return *session_; }

private:
  std::vector<ModelInput> inputs_;
  std::vector<popart::TensorId> outputs_;
  // Sequence and optional outputs: their form and element tensors.
  std::map<popart::TensorId, HostValue> outputForms_;
  std::map<popart::TensorId, std::vector<popart::TensorId>> outputElements_;
  int batchesPerStep_;
  std::unique_ptr<popart::InferenceSession> session_;
  // Each output's info before the first run (the largest a StringNormalizer
  // output can have; the session gives the last value's shape after it).
  std::map<popart::TensorId, popart::TensorInfo> largestInfos_;
};

// The graph inputs of the model file that an op reads as a compile-time
// operand, directly or through the ops computing it (but not through ops
// that read only shapes, as Shape): a shape, axis, count or bound that
// fixes the shape of a result (Reshape's shape, Range's start, limit and
// delta, CumSum's axis, OneHot's depth, Compress's condition ...). A
// runner gives the values it has for them to ModelRunner as constants, so
// that the session is specialised on them.
std::set<popart::TensorId> compileTimeInputs(const std::string &modelPath);

GivenInputs splitGivenInputs(const std::string &modelPath,
                             std::map<popart::TensorId, HostTensor> values);
GivenInputs splitGivenInputs(const std::string &modelPath,
                             std::map<popart::TensorId, HostValue> values);

// Reads the value of each named model input from its file (a TensorProto,
// SequenceProto or OptionalProto, as the input's type says); popart::error
// for a name that is not an input of the model.
std::map<popart::TensorId, HostValue>
readInputFiles(const std::string &modelPath,
               const std::map<popart::TensorId, std::string> &files);

// Devices by the names the tools accept: "cpu", "ipumodel" (Mk2) or
// "ipumodel1" (Mk1).
std::shared_ptr<popart::DeviceInfo> createDevice(const std::string &name);

} // namespace onnx_io

#endif
