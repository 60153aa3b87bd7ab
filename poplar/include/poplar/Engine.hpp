#ifndef POPLAR_ENGINE_HPP
#define POPLAR_ENGINE_HPP

#include <poplar/ArrayRef.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Device.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/ProfileValue.hpp>
#include <poplar/Program.hpp>
#include <poplar/StreamCallback.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/poplar_export.hpp>

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace poplar {

/// Reports compilation progress: (step, total steps).
using ProgressFunc = std::function<void(int, int)>;

/// A compiled graph and its programs, ready to be loaded by an Engine.
class POPLAR_API Executable {
public:
  struct Impl;

  explicit Executable(std::unique_ptr<Impl> impl);
  Executable(Executable &&) noexcept;
  Executable &operator=(Executable &&) noexcept;
  ~Executable();

  /// Writes the executable, for any target (IPU, IPU Model or CPU), in a
  /// versioned format that records the SDK version, the target and a
  /// checksum, with the codelets its vertices run.
  void serialize(std::ostream &out) const;
  /// Writes the executable to a file (as serialize(std::ostream &)).
  void serialize(const std::string &filename) const;
  /// Reads an executable. A stream that is not an executable, or is of
  /// another format version, truncated or damaged, or (when
  /// checkPackageHash) made by another SDK version, is a
  /// poplar::file_load_error saying which. Engine::load refuses a device
  /// whose target is not the executable's.
  static Executable deserialize(std::istream &in, bool checkPackageHash = true);
  static Executable deserialize(std::unique_ptr<std::istream> in,
                                bool checkPackageHash = true);
  /// Reads an executable from a file; errors name the file.
  static Executable deserialize(const std::string &filename,
                                bool checkPackageHash = true);

  const Impl &getImpl() const { return *impl; }
  std::unique_ptr<Impl> releaseImpl();

private:
  std::unique_ptr<Impl> impl;
};

/// Checks and compiles a graph with its programs (program i of the engine
/// is progs[i]). Throws the poplar exception that names what is wrong.
POPLAR_API Executable compileGraph(const Graph &graph,
                                   ArrayRef<program::Program> progs,
                                   const OptionFlags &opt = {},
                                   ProgressFunc progressCallBack = ProgressFunc(),
                                   const DebugContext &debugContext = {});
POPLAR_API Executable compileGraph(Graph &&graph,
                                   ArrayRef<program::Program> progs,
                                   const OptionFlags &opt = {},
                                   ProgressFunc progressCallBack = ProgressFunc(),
                                   const DebugContext &debugContext = {});

/// Runs compiled programs on a device. Construct it from a graph and its
/// programs (or an Executable), load() it onto a device, connect the
/// streams, then run() programs by index.
///
/// Options (also settable with the environment variable
/// POPLAR_ENGINE_OPTIONS as a JSON object, which takes precedence) are
/// checked: an unknown one, or a bad value, is a poplar::invalid_option.
///
/// On IPU targets the IPU Model estimates cycles and memory when the graph
/// is compiled; a graph that does not fit in a tile's memory is a
/// poplar::graph_memory_allocation_error unless debug.allowOutOfMemory is
/// "true". Each run adds its simulated steps to the execution profile.
///
/// The autoReport.* options write report files when the engine is made,
/// after its first runs and when it is destroyed: profile.pop (SQLite),
/// debug.cbor and archive.a, in autoReport.directory or in its
/// subdirectory named after the engine (the debugContext's name).
class POPLAR_API Engine {
public:
  struct Impl;

  Engine(const Graph &graph, const program::Program &prog,
         const OptionFlags &options = {},
         ProgressFunc progressCallBack = ProgressFunc(),
         const DebugContext &debugContext = {});
  Engine(const Graph &graph, ArrayRef<program::Program> progs,
         const OptionFlags &options = {},
         ProgressFunc progressCallBack = ProgressFunc(),
         const DebugContext &debugContext = {});
  Engine(Executable &&exe, const OptionFlags &options = {});
  Engine(Engine &&) noexcept;
  Engine &operator=(Engine &&) noexcept;
  ~Engine();

  /// Loads the programs and the initial values of the graph's variables
  /// onto the device, whose target must be the graph's.
  void load(const Device &device);
  /// Runs program prog. Every stream the program uses must be connected.
  void run(unsigned prog = 0, const std::string &debugName = "");
  void loadAndRun(const Device &device, unsigned prog = 0);
  bool isLoaded() const;

  /// Writes the tensor named by createHostWrite from host memory holding
  /// its elements in device-type format (HALF as 16-bit values).
  void writeTensor(StringRef handle, const void *buf, const void *bufEnd);
  void writeTensor(StringRef handle, const void *buf);
  /// Reads the tensor named by createHostRead into host memory.
  void readTensor(StringRef handle, void *buf, void *bufEnd);
  void readTensor(StringRef handle, void *buf);

  /// Connects a stream to host memory [begin, end), used as a circular
  /// buffer: each copy moves the next numElements of the stream and wraps
  /// around at the end. The size must be a multiple of one copy.
  void connectStream(StringRef handle, void *begin, void *end);
  /// Connects a stream to a buffer of exactly one copy's data.
  void connectStream(StringRef handle, void *p);
  void connectStream(const DataStream &stream, void *p);
  void connectStream(const DataStream &stream, void *begin, void *end);
  void connectStreamToCallback(StringRef handle, StreamCallbackHandle f);
  void connectStreamToCallback(StringRef handle, unsigned replicaId,
                               StreamCallbackHandle f);
  /// The handles of all streams of the executable.
  std::vector<std::string> listStreams() const;

  void copyToRemoteBuffer(const void *data, StringRef handle,
                          std::uint64_t repeatIndex,
                          unsigned replicationIndex = 0);
  void copyFromRemoteBuffer(StringRef handle, void *data,
                            std::uint64_t repeatIndex,
                            unsigned replicationIndex = 0);

  /// Where PrintTensor programs print (standard output by default).
  void setPrintStream(std::ostream &stream);
  void setPrintTensorStream(std::ostream &stream) { setPrintStream(stream); }

  /// Writes the executable the engine runs (as Executable::serialize), so
  /// that a later Engine can be made from it without compiling.
  void serializeExecutable(std::ostream &out) const;

  const OptionFlags &getEngineOptions() const;
  const Target &getTarget() const;

  /// The graph profile: target, graph, vertex types, compute sets with
  /// cycle estimates, exchanges, programs and memory. Throws
  /// poplar::profiling_disabled on the CPU target (which has no profile)
  /// or when debug.retainDebugInformation is "false".
  ProfileValue getGraphProfile() const;
  /// What the runs since the last reset did (program trace and simulated
  /// steps). Throws poplar::profiling_disabled on the CPU target or when
  /// debug.instrument is "false" (or execution profiling is disabled).
  ProfileValue getExecutionProfile() const;
  void resetExecutionProfile();
  /// Turns the recording of runs for the execution profile on and off.
  void enableExecutionProfiling();
  void disableExecutionProfiling();
  /// Prints the graph and execution summary (printProfileSummary); only
  /// the graph part when execution profiling is disabled.
  void printProfileSummary(std::ostream &out, const OptionFlags &opts = {}) const;

  Impl &getImpl() { return *impl; }
  const Impl &getImpl() const { return *impl; }

private:
  std::unique_ptr<Impl> impl;
};

/// Prints a readable summary of a graph profile and, when executionProfile
/// is not empty, of an execution profile, in the layout of the guide's
/// "Profile summary output". Options ("true" or "false"): colours,
/// showVarStorage, showOptimizations, showExecutionSteps,
/// showPerIpuMemoryUsage, showExchangeInstructionBreakdown. The
/// environment variables CLICOLOR=0 and CLICOLOR_FORCE=1 turn colours off
/// and on whatever the option says (CLICOLOR_FORCE wins).
POPLAR_API void printProfileSummary(std::ostream &out,
                                    const ProfileValue &graphProfile,
                                    const ProfileValue &executionProfile = {},
                                    const OptionFlags &opts = {});
POPLAR_API void printGraphSummary(std::ostream &out,
                                  const ProfileValue &graphProfile,
                                  const OptionFlags &opts = {});
POPLAR_API void printExecutionSummary(std::ostream &out,
                                      const ProfileValue &graphProfile,
                                      const ProfileValue &executionProfile,
                                      const OptionFlags &opts = {});

} // namespace poplar

#endif // POPLAR_ENGINE_HPP
