// The state of a loaded engine: per replica, the storage of every variable
// and remote buffer, and what each stream is connected to.
#ifndef POPLAR_SRC_RUNTIME_ENGINEIMPL_HPP
#define POPLAR_SRC_RUNTIME_ENGINEIMPL_HPP

#include "compile/ExecutableImpl.hpp"
#include "model/Simulation.hpp"
#include "runtime/AutoReport.hpp"
#include "runtime/VertexExecution.hpp"

#include <poplar/Engine.hpp>
#include <poplar/StreamCallback.hpp>

#include <iostream>
#include <memory>
#include <vector>

namespace poplar {

/// A host buffer (used circularly) or a callback behind a stream.
struct StreamConnection {
  bool connected = false;
  unsigned char *begin = nullptr;
  unsigned char *end = nullptr;
  std::size_t position = 0; // bytes from begin of the next transfer
  std::shared_ptr<StreamCallback> callback;
  /// The callback serves every replica in turn: it is never asked to
  /// prefetch (its next data belongs to the next replica).
  bool sharedCallback = false;
  /// A host-to-device callback's data for the next transfer, filled by
  /// StreamCallback::prefetch after the previous one.
  std::vector<unsigned char> prefetchBuffer;
  bool prefetched = false;

  /// Tells the callback that its prefetched data will not be used.
  void dropPrefetched() {
    if (prefetched && callback)
      callback->invalidatePrefetched();
    prefetched = false;
  }
};

/// What one replica of the graph holds on the device.
struct ReplicaState {
  std::vector<std::vector<unsigned char>> storage;       // per variable
  std::vector<std::vector<unsigned char>> remoteStorage; // per buffer
  /// Per stream. A BROADCAST stream is connected in replica 0 only.
  std::vector<StreamConnection> streams;
  /// Per tile: the floating-point behaviour (CSRFunctions.hpp), set on
  /// load from debug.floatPointOpException and debug.nanOverflowMode.
  std::vector<std::uint32_t> tileBehaviour;
  /// Built when the engine is loaded (prepareRun), or on a compute set's
  /// first Execute after resetStorage; bound to this replica's storage.
  std::vector<std::unique_ptr<ComputeSetInstance>> computeSets;
};

struct Engine::Impl {
  std::shared_ptr<const Executable::Impl> exe;
  OptionFlags options;
  /// One per replica, made with the engine (never resized: compute sets
  /// point into them).
  std::vector<ReplicaState> replicas;
  std::vector<unsigned char> transferBuffer; // staging for callbacks
  std::ostream *printStream = &std::cout;
  bool loaded = false;
  /// Whether host-to-device callbacks are asked to prefetch
  /// (exchange.enablePrefetch with exchange.streamBufferOverlap "none").
  bool prefetch = false;
  /// IPU targets with execution profiling: the simulated steps run.
  std::unique_ptr<model::ExecutionRecorder> recorder;
  bool recording = false;
  /// The loaded device's syncConfiguration (the recorder's host syncs).
  std::string syncConfiguration = "default";
  /// The replica whose steps are recorded (profiler.replicaToProfile).
  unsigned profiledReplica = 0;
  /// Built on the first getGraphProfile.
  mutable std::shared_ptr<const ProfileValue> graphProfile;
  /// The files the autoReport options ask for; last, so that it is
  /// finished before the rest goes.
  std::unique_ptr<AutoReport> autoReport;

  /// Sets every variable to its initial value (zero when it has none) and
  /// every vertex to its initial state. `storageIsZero` says the storage
  /// was just allocated zeroed, so variables without one are left alone.
  void resetStorage(bool storageIsZero = false);
  ComputeSetInstance &computeSet(unsigned replica, unsigned id);
  unsigned numReplicas() const { return static_cast<unsigned>(replicas.size()); }
  /// The connection replica r uses for stream s (replica 0's for a
  /// BROADCAST stream).
  StreamConnection &connection(std::size_t s, unsigned r) {
    return replicas[exe->streams[s].broadcast ? 0 : r].streams[s];
  }
  /// Pays the one-off costs of running here rather than in the first run:
  /// every compute set's vertices are built and bound to storage, and the
  /// host's worker threads are started.
  void prepareRun();
  std::size_t streamIndex(StringRef handle, const char *what) const;
};

/// Runs lowered programs on an engine's storage (runtime/Interpreter.cpp).
void runProgram(Engine::Impl &engine, const exec::Step &program);

/// Gathers a tensor's elements (in flattened order) into dst, and the
/// reverse. Both use the host's threads for large tensors.
void gatherElements(const ReplicaState &replica, const exec::TensorAccess &a,
                    unsigned char *dst);
void scatterElements(ReplicaState &replica, const exec::TensorAccess &a,
                     const unsigned char *src);

/// Runs a collective over every replica's storage (runtime/Collectives.cpp).
void runCollective(Engine::Impl &engine, const exec::Step &step);

/// Prints "title: {…}" in the format of the guide (runtime/TensorPrinter.cpp).
void printTensor(std::ostream &out, const std::string &title,
                 const exec::TensorAccess &a, const unsigned char *data);
/// Prints "title: [...]" laid out by a PrintTensorFmt
/// (runtime/TensorFormatter.cpp).
void printFormattedTensor(std::ostream &out, const std::string &title,
                          const exec::PrintFormat &format,
                          const exec::TensorAccess &a,
                          const unsigned char *data);

/// Checks engine options and merges POPLAR_ENGINE_OPTIONS over them
/// (runtime/EngineOptions.cpp).
OptionFlags resolveEngineOptions(const OptionFlags &options);
/// Whether resolved options let the engine prefetch from stream callbacks:
/// exchange.enablePrefetch (default true) and stream buffers that overlap
/// no other buffer (exchange.streamBufferOverlap "none"), so the buffer is
/// free for the next transfer as soon as the previous one is done.
bool streamPrefetchEnabled(const OptionFlags &options);

/// Prepares the execution profile and writes the graph report that
/// POPLAR_GRAPH_REPORT_DEST or debug.graphReportDestination ask for
/// (runtime/EngineProfiling.cpp).
/// Also checks the capture options that name a tile or a replica
/// (debug.profilingTile, debug.branchRecordTile, profiler.replicaToProfile):
/// invalid_option when there is no such tile or replica.
void setUpProfiling(Engine::Impl &engine);
void writeRequestedGraphReport(const Engine &engine);

/// Whether a boolean engine option (already checked) is set to "true";
/// `fallback` when it is not given.
bool engineOptionIs(const OptionFlags &options, const char *name, bool fallback);

} // namespace poplar

#endif // POPLAR_SRC_RUNTIME_ENGINEIMPL_HPP
