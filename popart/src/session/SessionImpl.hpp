// The state behind a Session: its IR, device, engine and the streams the
// engine's programs use. Session.cpp runs it; SessionExecutable.cpp
// prepares the engine (compiling, or loading a file or the cache) and
// saves executables.
#ifndef POPART_SRC_SESSION_SESSIONIMPL_HPP
#define POPART_SRC_SESSION_SESSIONIMPL_HPP

#include "ir/Ir.hpp"
#include "lowering/IrLowering.hpp"
#include "session/ExecutableCache.hpp"
#include "session/StringBoundary.hpp"

#include <popart/istepio.hpp>

#include <poplar/Engine.hpp>

#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace popart {

class CompileProgress;

class SessionImpl {
public:
  explicit SessionImpl(std::shared_ptr<Ir> ir_ = std::make_shared<Ir>())
      : irHolder(std::move(ir_)), ir(*irHolder) {}
  // The IR: prepared from a model here, or built op by op (IrBuilder).
  std::shared_ptr<Ir> irHolder;
  Ir &ir;
  std::string name;
  std::shared_ptr<DeviceInfo> device;
  /// Kept only with compileEngine false (the graph without an engine).
  std::unique_ptr<IrLowering> lowering;
  std::unique_ptr<poplar::Engine> engine;
  /// The streams the engine's programs use (from the lowering, or from
  /// the file the executable was loaded from).
  LoweredInterface io;
  /// An executable given by loadExecutableFromFile/Stream, used by the
  /// next prepareDevice.
  std::unique_ptr<popef::Reader> executableToLoad;
  std::exception_ptr callbackError;
  IStepIO *stepio = nullptr;
  /// The host's part of a model with STRING tensors (null without them).
  std::unique_ptr<StringBoundary> strings;
  bool prepared = false;
  bool engineLoaded = false;
  /// weightsFromHost has run: the device's variables are the session's
  /// (saveExecutable and saveVariables save those).
  bool weightsOnDevice = false;
  uint64_t randomSeed = 0;
  // Values the device does not have yet.
  bool seedPending = true, optimizerPending = true;
  // Simulated cycles of the last run, kept when
  // SessionOptions::instrumentWithHardwareCycleCounter is set.
  uint64_t lastRunCycles = 0;

  /// SessionOptions::hostAllReduce: the gradient streams, and the values
  /// each gradientStore__ stream left for its gradientLoad__ stream.
  std::vector<std::string> hostReduceStreamIds;
  std::map<TensorId, std::vector<char>> hostReduceBuffers;
  /// With enableDistributedReplicatedGraphs: the MPI rank of the process
  /// holding global replica 0, whose weights weightsFromHost broadcasts.
  int distributedRoot = 0;

  void prepare(const IrBundle &bundle, const std::string &kind);
  /// The IPUs of each replica of the device (all of them without
  /// replication); popart::error when the device cannot hold the replicas.
  int64_t ipusPerReplica(const SessionOptions &o) const;
  /// enableDistributedReplicatedGraphs: the job started by mpirun must
  /// hold globalReplicationFactor replicas, each process's offset its own
  /// (Distributed.cpp).
  void checkDistribution();
  /// The host reduction of the gradients: summed over the processes by
  /// MPI (and divided by globalReplicationFactor for a Mean reduction)
  /// when distributed, else given back as they are.
  void connectHostReduceStreams();
  /// Every process's variables become those of distributedRoot.
  void broadcastVariables();
  /// The checks of a prepared IR: placement, lowerings, device types.
  void checkPrepared();
  /// Makes the engine: from executableToLoad, else from the cache, else
  /// by lowering and compiling (and then into the cache). With
  /// compile false, only the poplar graph is built.
  void prepareEngine(bool compile);
  void connectStreams();
  /// The streams of a variable sharded over the replicas: each replica's
  /// part to and from its place in the host's whole tensor.
  void connectShardStreams(const TensorId &id);
  /// Off-chip variables (io.remoteVariables): the host copies into each
  /// replica's remote buffer (its part when sharded), and back from them
  /// (replica 0's, or every replica's part).
  void remoteVariablesFromHost();
  void remoteVariablesToHost();
  /// One step on the device, with `stepio` connected to the streams.
  void runStep(IStepIO &given, const std::string &debugName);
  void runProgram(ProgramIndex p, const std::string &debugName = "");
  void sendPending();
  const SessionOptions &options() const { return ir.getSessionOptions(); }
  poplar::OptionFlags engineOptions() const;
  /// The host copies of the variables made the device's, when it has
  /// been given them (before saving them).
  void syncVariablesFromDevice();

private:
  bool loadFromCache(std::uint64_t key, CompileProgress &progress);
  void useLoaded(LoadedExecutable loaded);
  void compile(bool makeEngine, CompileProgress &progress);
};

} // namespace popart

#endif // POPART_SRC_SESSION_SESSIONIMPL_HPP
