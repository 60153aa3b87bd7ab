// What compiling a graph produces: the variables' storage layout and
// initial values, the host handles and streams, and the programs lowered to
// steps whose data movement is planned in advance.
#ifndef POPLAR_SRC_COMPILE_EXECUTABLEIMPL_HPP
#define POPLAR_SRC_COMPILE_EXECUTABLEIMPL_HPP

#include "graph/TensorImpl.hpp"

#include <poplar/DataStream.hpp>
#include <poplar/Engine.hpp>
#include <poplar/SyncType.hpp>
#include <poplar/Target.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace poplar {

namespace exec {

/// The elements of a tensor in flattened order, as runs over storage.
struct TensorAccess {
  std::vector<layout::FlatRun> runs;
  std::size_t numElements = 0;
  Type type;
  std::size_t elementBytes = 0;
  std::vector<std::size_t> shape;
  std::string name;
};

/// One element, for predicates and controls.
struct ScalarRef {
  std::size_t var = 0;
  std::size_t element = 0;
  Type type;
};

/// Elements [0, length) of a strided source moved to a strided destination.
struct CopySegment {
  std::size_t srcVar = 0;
  std::size_t dstVar = 0;
  std::int64_t srcStart = 0;
  std::int64_t dstStart = 0;
  std::int64_t srcStride = 1;
  std::int64_t dstStride = 1;
  std::size_t length = 0;
};

struct Step {
  enum class Kind {
    Sequence,
    Execute,
    Repeat,
    RepeatWhile,
    If,
    Switch,
    CopyTensors,
    StreamToTensor,
    TensorToStream,
    RemoteToTensor,
    TensorToRemote,
    WriteUndef,
    Sync,
    Call,
    PrintTensor,
    Abort,
    AbortOnCondition
  };

  Kind kind = Kind::Sequence;
  std::string name;
  std::vector<Step> children;
  unsigned count = 0;
  bool whileTrue = true;
  ScalarRef scalar; // predicate or control
  std::vector<std::int32_t> caseValues;
  bool boundsChecked = false;

  // CopyTensors: segments no longer than a work chunk; staged when source
  // and destination share storage (all reads happen before any write).
  std::vector<CopySegment> segments;
  std::size_t elementBytes = 0;
  std::size_t copyElements = 0;
  bool staged = false;

  TensorAccess access;  // stream, remote and print steps
  std::size_t stream = 0;
  std::size_t remoteBuffer = 0;
  std::vector<ScalarRef> offsets; // remote: row index per row (scalar: one)
  unsigned computeSet = 0;
  std::size_t function = 0;
  SyncType syncType = SyncType::INTERNAL;
  std::string text;
};

struct Variable {
  std::string name;
  Type type;
  std::size_t numElements = 0;
  std::size_t elementBytes = 0;
  bool isConstant = false;
  std::vector<unsigned char> initialValue; // empty: zeros
};

struct Stream {
  std::string handle;
  Type type;
  std::size_t numElements = 0;
  std::size_t elementBytes = 0;
  DataStreamType direction = DataStreamType::HostToDeviceFIFO;
  std::size_t bytes() const { return numElements * elementBytes; }
};

struct RemoteBufferInfo {
  std::string handle;
  Type type;
  std::size_t numElements = 0;
  std::size_t repeats = 1;
  std::size_t elementBytes = 0;
};

} // namespace exec

struct Executable::Impl {
  Target target;
  std::vector<exec::Variable> variables;
  std::vector<exec::Stream> streams;
  std::vector<exec::RemoteBufferInfo> remoteBuffers;
  std::map<std::string, exec::TensorAccess, std::less<>> hostWrites;
  std::map<std::string, exec::TensorAccess, std::less<>> hostReads;
  std::vector<std::string> computeSetNames;
  std::vector<exec::Step> programs;
  std::vector<exec::Step> functions;
  /// The streams each program uses, directly or through functions.
  std::vector<std::set<std::size_t>> streamsUsed;
};

/// Validates a graph with its programs and lowers them (src/compile).
std::unique_ptr<Executable::Impl> compileToExecutable(
    const Graph &graph, ArrayRef<program::Program> progs,
    const OptionFlags &options, const ProgressFunc &progress);

} // namespace poplar

#endif // POPLAR_SRC_COMPILE_EXECUTABLEIMPL_HPP
