// Sessions: an ONNX model prepared for a device, compiled into a poplar
// engine and run step by step.
#ifndef POPART_SESSION_HPP
#define POPART_SESSION_HPP

#include <popart/dataflow.hpp>
#include <popart/devicemanager.hpp>
#include <popart/inputshapeinfo.hpp>
#include <popart/istepio.hpp>
#include <popart/names.hpp>
#include <popart/patterns/patterns.hpp>
#include <popart/popart_export.hpp>
#include <popart/sessionoptions.hpp>
#include <popart/tensorinfo.hpp>

#include <memory>
#include <string>
#include <vector>

namespace popart {

class SessionImpl;

class POPART_API Session {
public:
  virtual ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  /// Compiles the IR for the device and loads the engine onto it.
  void prepareDevice(bool loadEngine = true);
  void loadEngineAndConnectStreams();
  /// Copies the weights (initializers that are variables) to the device.
  void weightsFromHost();
  /// Copies the weights back to the host copy.
  void weightsToHost();
  /// Runs one step: batchesPerStep batches, inputs and anchors through
  /// stepio.
  void run(IStepIO &stepio, std::string debugName = "");
  /// Writes the model with the host copy of the weights.
  void modelToHost(const std::string &fn);

  TensorInfo getInfo(TensorId id) const;
  bool hasInfo(TensorId id) const;
  std::vector<TensorId> getAllTensorIds() const;

  /// The profile summary of the compiled graph and its executions.
  std::string getSummaryReport(bool resetProfile = true) const;
  /// The cycles of the last run() (the IPU Model's estimate); needs
  /// SessionOptions::instrumentWithHardwareCycleCounter.
  uint64_t getCycleCount(std::string id = "") const;
  /// The graph profile, as JSON (or CBOR).
  std::string getGraphReport(bool useCbor = false) const;
  /// The execution profile since the last reset, as JSON (or CBOR).
  std::string getExecutionReport(bool useCbor = false,
                                 bool resetProfile = true) const;
  /// The IR, serialised (the form POPART_IR_DUMP writes).
  std::string serializeIr(IrSerializationFormat format = IrSerializationFormat::JSON) const;

  std::shared_ptr<DeviceInfo> getDevice() const;
  const DataFlow &getDataFlow() const;
  const SessionOptions &getSessionOptions() const;

protected:
  Session();
  std::unique_ptr<SessionImpl> impl;
};

class POPART_API InferenceSession : public Session {
public:
  ~InferenceSession() override;

  /// model: a file name, or the bytes of a serialised ModelProto.
  static std::unique_ptr<InferenceSession>
  createFromOnnxModel(const std::string &model, const DataFlow &dataFlow,
                      std::shared_ptr<DeviceInfo> deviceInfo,
                      const InputShapeInfo &inputShapeInfo = InputShapeInfo(),
                      const SessionOptions &userOptions = SessionOptions(),
                      const Patterns &patterns = Patterns(),
                      const std::string name = "inference");

private:
  InferenceSession();
};

} // namespace popart

#endif
