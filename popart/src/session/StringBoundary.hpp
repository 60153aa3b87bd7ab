// STRING tensors at a session's boundary. Poplar has no string type, so
// the ops that take or give STRING tensors (Cast and CastLike to and from
// STRING, StringNormalizer: ops/StringOps.hpp) are split off the model
// before its IR is prepared, and run on the host around each step:
//  - before the step, on the STRING inputs the user's IStepIO gives (and on
//    STRING constants): a Cast from STRING gives a number tensor that the
//    device reads as an input stream;
//  - after the step, on number tensors the device returns as extra anchors:
//    a Cast to STRING gives a STRING output the user's IStepIO receives.
// A Cast from a STRING constant is folded into a number constant. A STRING
// tensor that any other op would read, or a number computed from the
// device's results that the device would read back, is a popart::error
// naming the tensor and the op.
#ifndef POPART_SRC_SESSION_STRINGBOUNDARY_HPP
#define POPART_SRC_SESSION_STRINGBOUNDARY_HPP

#include "ops/StringOps.hpp"

#include <popart/dataflow.hpp>
#include <popart/inputshapeinfo.hpp>
#include <popart/istepio.hpp>
#include <popart/tensorinfo.hpp>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace onnx {
class GraphProto;
class ModelProto;
class NodeProto;
} // namespace onnx

namespace popart {

class StringBoundary {
public:
  /// Splits the host's part off `model` and `dataFlow`, which keep the
  /// device's. `active()` is false for a model without STRING tensors
  /// (both are then left as they were).
  StringBoundary(onnx::ModelProto &model, DataFlow &dataFlow,
                 const InputShapeInfo &shapes);
  ~StringBoundary();

  bool active() const { return active_; }
  /// The DataFlow the user gave (its STRING anchors included).
  const DataFlow &userDataFlow() const { return userFlow; }
  /// STRING inputs and the tensors the host computes.
  bool hasTensor(const TensorId &id) const { return infos.count(id) != 0; }
  /// A StringNormalizer's output has the shape of its last run's value
  /// (before any run, the largest it can have).
  TensorInfo info(const TensorId &id) const { return infos.at(id); }

  /// The shapes of the host's tensors computed from the device's, once
  /// the IR is prepared.
  void resolveInfos(
      const std::function<TensorInfo(const TensorId &)> &deviceInfo);

  /// One step of `valuesPerStep` values (batchesPerStep x accumulation x
  /// replicas): the host's work before, `device` with an IStepIO serving
  /// the host's inputs to the device and taking its extra anchors, the
  /// host's work after. `deviceInfo` gives the device tensors' infos.
  void run(IStepIO &user, int64_t valuesPerStep,
           const std::function<void(IStepIO &)> &device,
           const std::function<TensorInfo(const TensorId &)> &deviceInfo);

  /// A host value: STRING elements, or the bytes of numbers.
  struct Value {
    TensorInfo info;
    std::vector<std::string> strings;
    std::vector<char> bytes;
  };

private:
  struct HostNode {
    enum class Kind { FromString, ToString, StringToString, Normalize };
    Kind kind;
    std::string name; // "Cast 'n'", for errors
    TensorId in, out;
    DataType to = DataType::UNDEFINED;
    bool afterStep = false;
    std::shared_ptr<stringops::StringNormalizer> normalizer;
  };
  class DeviceIO;
  struct Analysis;

  // The steps of the split, in order.
  void readGraphTensors(const onnx::GraphProto &graph,
                        const InputShapeInfo &shapes, Analysis &a);
  void placeNode(const onnx::NodeProto &node, const onnx::GraphProto &graph,
                 Analysis &a);
  bool takeStringConstant(const onnx::NodeProto &node, Analysis &a);
  void placeDeviceInputs(const Analysis &a);
  void splitAnchors(const onnx::GraphProto &graph, DataFlow &dataFlow,
                    Analysis &a);
  void rewriteModel(onnx::GraphProto &graph, const Analysis &a) const;
  Value compute(const HostNode &node, const Value &in) const;
  void writeAnchor(IStepIO &user, const TensorId &id, const Value &v);

  bool active_ = false;
  DataFlow userFlow;
  std::vector<HostNode> nodes; // in the model's order
  std::map<TensorId, TensorInfo> infos;
  std::map<TensorId, Value> constants;
  std::vector<TensorId> stringInputs; // read from the user each value
  std::set<TensorId> deviceInputs;    // computed here, streamed to the device
  std::set<TensorId> deviceAnchors;   // returned by the device for the host
  std::set<TensorId> sharedAnchors;   // ... which the user anchors too
  std::vector<TensorId> hostAnchors;  // STRING anchors written here
  std::set<TensorId> dataDependent;   // StringNormalizer outputs
};

} // namespace popart

#endif
