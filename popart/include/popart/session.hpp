// Sessions: an ONNX model prepared for a device, compiled into a poplar
// engine and run step by step.
#ifndef POPART_SESSION_HPP
#define POPART_SESSION_HPP

#include <popart/dataflow.hpp>
#include <popart/devicemanager.hpp>
#include <popart/inputshapeinfo.hpp>
#include <popart/istepio.hpp>
#include <popart/names.hpp>
#include <popart/optimizer.hpp>
#include <popart/patterns/patterns.hpp>
#include <popart/popart_export.hpp>
#include <popart/sessionoptions.hpp>
#include <popart/tensorinfo.hpp>

#include <iosfwd>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace popart {

class IWeightsIO;
class IrBuilder;
class Loss;
class SessionImpl;

class POPART_API Session {
public:
  virtual ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  /// Compiles the IR for the device (or loads the executable given by
  /// loadExecutableFromFile, or the cached one of enableEngineCaching) and
  /// loads the engine onto it.
  void prepareDevice(bool loadEngine = true);
  void loadEngineAndConnectStreams();

  /// Compiles (unless prepareDevice has) and writes the executable to a
  /// .popef file: `filename`, or <filename>/executable.popef for a
  /// directory; missing directories are made.
  void compileAndExport(const std::string &filename);
  void compileAndExport(std::ostream &out);
  /// Writes the compiled executable, with PopART's metadata (needed to
  /// load it again) and the variables' values unless told not to: the
  /// device's once weightsFromHost has given it values (they are read
  /// back into the host copies first), else the host copies.
  void saveExecutable(const std::string &path, bool savePopartMetadata = true,
                      bool saveVariables = true);
  void saveExecutableToFile(const std::string &filename);
  void saveExecutableToStream(std::ostream &out);
  /// Writes the variables' values alone, as saveExecutable takes them
  /// (<path>/variables.popef for a directory).
  void saveVariables(const std::string &path);
  /// The next prepareDevice uses this executable (written by
  /// saveExecutable or compileAndExport for the same model and device)
  /// instead of compiling, and its variables' values when it has them.
  /// popart::error naming the file when it cannot be used.
  void loadExecutableFromFile(const std::string &filename);
  void loadExecutableFromStream(std::shared_ptr<std::istream> in);
  /// Copies the weights (initializers that are variables) and the
  /// optimiser state to the device, with the optimiser's values and the
  /// random seed.
  void weightsFromHost();
  /// Copies the weights and optimiser state back to the host copy.
  void weightsToHost();
  /// Copies the host copy of each tensor weightsIO has a buffer for into
  /// that buffer (call weightsToHost first for the device's values).
  void readWeights(const IWeightsIO &weightsIO);
  /// Copies each buffer of weightsIO into the host copy of its tensor
  /// (call weightsFromHost after, to send them to the device).
  void writeWeights(const IWeightsIO &weightsIO);
  /// Replaces the host copy of the weights with the initializers of a
  /// model (a file or its bytes). Each initializer must be a weight of the
  /// session unless ignoreWeightsInModelWithoutCorrespondingHostWeight.
  void resetHostWeights(
      const std::string &model,
      const bool ignoreWeightsInModelWithoutCorrespondingHostWeight = false);
  /// The seed of the random numbers (dropout, random ops): the same seed
  /// gives the same numbers. Sent to the device before the next run.
  void setRandomSeed(uint64_t seedValue);
  uint64_t getRandomSeed() const;
  /// Runs one step: batchesPerStep batches, inputs and anchors through
  /// stepio.
  void run(IStepIO &stepio, std::string debugName = "");
  /// Writes the model with the host copy of the weights (and, for
  /// training, the optimiser state, so that training can resume from it).
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

  /// Replaces the callback of the engine's stream `streamHandle` (of
  /// replica `index`) for the runs that follow: the callback reads (a
  /// stream to the host) or writes (from the host) the stream's elements
  /// at the pointer it is given. Call after prepareDevice.
  void connectStreamToCallback(const std::string &streamHandle,
                               std::function<void(void *)> callback,
                               unsigned index = 0);

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

  /// The form of earlier releases: the loss objects' ops are added to the
  /// model, and their values can be anchored.
  static std::unique_ptr<InferenceSession>
  createFromOnnxModel(const std::string &model, const DataFlow &dataFlow,
                      std::shared_ptr<DeviceInfo> deviceInfo,
                      const std::vector<Loss *> &losses,
                      const InputShapeInfo &inputShapeInfo = InputShapeInfo(),
                      const SessionOptions &userOptions = SessionOptions(),
                      const Patterns &patterns = Patterns());

  /// A session of an IR built op by op (popart.ir), with the IrBuilder's
  /// DataFlow and SessionOptions (which must have useHostCopyOps and
  /// enableExplicitMainLoops: its HostLoad and HostStore ops are the host
  /// copies, and its main graph is the body of the step's loop). The IR
  /// cannot change after this.
  static std::unique_ptr<InferenceSession>
  createFromIr(IrBuilder &ir, std::shared_ptr<DeviceInfo> deviceInfo,
               const std::string name = "fromIr");

private:
  InferenceSession();
};

/// A session that trains: each step runs the forward pass, the backward
/// pass from the loss and the optimiser's weight update on the device.
class POPART_API TrainingSession : public Session {
public:
  ~TrainingSession() override;

  /// model: a file name, or the bytes of a serialised ModelProto; loss:
  /// the loss tensor (for example the output of aiGraphcoreOpset1
  /// nllloss, l1loss or identityloss).
  static std::unique_ptr<TrainingSession>
  createFromOnnxModel(const std::string &model, const DataFlow &dataFlow,
                      const TensorId &loss, const Optimizer &optimizer,
                      std::shared_ptr<DeviceInfo> deviceInfo,
                      const InputShapeInfo &inputShapeInfo = InputShapeInfo(),
                      const SessionOptions &userOptions = SessionOptions(),
                      const Patterns &patterns = Patterns(),
                      const std::string name = "training");
  /// The form of earlier releases: losses as objects (NllLoss, L1Loss,
  /// IdentityLoss), summed into the final loss.
  static std::unique_ptr<TrainingSession>
  createFromOnnxModel(const std::string &model, const DataFlow &dataFlow,
                      const std::vector<Loss *> &losses,
                      const Optimizer &optimizer,
                      std::shared_ptr<DeviceInfo> deviceInfo,
                      const InputShapeInfo &inputShapeInfo = InputShapeInfo(),
                      const SessionOptions &userOptions = SessionOptions(),
                      const Patterns &patterns = Patterns(),
                      const std::string name = "training");

  /// New values for the optimiser's non-constant hyper-parameters, used
  /// from the next run without recompiling. popart::error if `optimizer`
  /// is not a valid replacement (another type, or a constant changed).
  void updateOptimizerFromHost(const Optimizer *optimizer);

  /// With SessionOptions::hostAllReduce: the streams of the gradients
  /// reduced on the host, each gradient's gradientStore__<id> (to the
  /// host) then gradientLoad__<id> (back, reduced), gradients in the
  /// order of their ids. Empty before prepareDevice.
  const std::vector<std::string> &getHostReduceStreamIds() const;

private:
  TrainingSession();
};

} // namespace popart

#endif
