// What compiling a graph produces: the variables' storage layout and
// initial values, the host handles and streams, and the programs lowered to
// steps whose data movement is planned in advance.
#ifndef POPLAR_SRC_COMPILE_EXECUTABLEIMPL_HPP
#define POPLAR_SRC_COMPILE_EXECUTABLEIMPL_HPP

#include "core/HugePages.hpp"
#include "graph/TensorImpl.hpp"

#include <functional>
#include <poplar/ArrayRef.hpp>
#include <poplar/DataStream.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/SyncType.hpp>
#include <poplar/Target.hpp>
#include <poplar/detail/CrossReplica.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace poplar {

class CodeletLibrary;
namespace model {
struct Estimates;
} // namespace model
namespace codelet_interface {
struct VertexInfo;
} // namespace codelet_interface

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

/// A PrintTensorFmt as the executable stores it.
struct PrintFormat {
  std::uint32_t summariseThreshold = 1000;
  std::uint32_t edgeItems = 3;
  std::uint32_t maxLineWidth = 75;
  std::uint32_t digits = 8;
  std::uint32_t floatFormat = 0; // PrintTensorFmt::FloatFormat
  char separator = ' ';
  char openBracket = '[';
  char closeBracket = ']';
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
    AbortOnCondition,
    CrossReplicaCopy,
    CrossReplicaCollective
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
  /// PrintTensor: the values laid out by a PrintTensorFmt (else the
  /// braces of "title: {1,2}").
  bool formatted = false;
  PrintFormat printFormat;

  // Cross-replica steps: access is the source, dstAccess the destination.
  // CrossReplicaCopy: replicaMap[i] is the replica that receives replica
  // i's source, or noReplica.
  TensorAccess dstAccess;
  std::vector<unsigned> replicaMap;
  /// CrossReplicaCollective: the groups of replicas, each in ring order.
  std::vector<std::vector<unsigned>> replicaGroups;
  static constexpr unsigned noReplica = ~0u;
  detail::CrossReplicaCollective collective =
      detail::CrossReplicaCollective::AllReduce;
  detail::CrossReplicaOperator collectiveOp = detail::CrossReplicaOperator::ADD;

  // IPU targets: the simulated steps (model::Estimates::steps) this step
  // runs each time it runs (each iteration or test for control flow).
  std::uint32_t simBegin = 0;
  std::uint32_t simEnd = 0;
};

struct Variable {
  std::string name;
  Type type;
  std::size_t numElements = 0;
  std::size_t elementBytes = 0;
  bool isConstant = false;
  std::vector<unsigned char> initialValue; // empty: zeros
  /// Holds each replica's index (Graph::addReplicationIndexConstant).
  bool isReplicationIndex = false;
  /// The random generator state: replica r's key word 1 is offset by r.
  bool isHwSeedState = false;
};

struct Stream {
  std::string handle;
  Type type;
  std::size_t numElements = 0;
  std::size_t elementBytes = 0;
  DataStreamType direction = DataStreamType::HostToDeviceFIFO;
  /// ReplicatedStreamMode::BROADCAST: one transfer feeds every replica.
  bool broadcast = false;
  std::size_t bytes() const { return numElements * elementBytes; }
};

struct RemoteBufferInfo {
  std::string handle;
  Type type;
  std::size_t numElements = 0;
  std::size_t repeats = 1;
  std::size_t elementBytes = 0;
};

/// The runs of an edge that is not one contiguous piece of storage:
/// gathered into a buffer before compute and scattered back after.
struct GatheredEdge {
  std::vector<layout::FlatRun> runs;
  /// The storage the edge touches (layout::storageRanges), worked out
  /// once for the race check and the estimates; released when they are
  /// made.
  std::vector<layout::StorageRange> storage;
};

/// Where the elements of one edge are: one contiguous piece of a
/// variable's storage (bound by pointer), or gathered runs. 24 bytes: a
/// compute set of a million vertices has millions.
struct EdgeRegion {
  static constexpr std::uint32_t notGathered = ~std::uint32_t(0);
  std::size_t numElements = 0;
  std::size_t offset = 0; // direct: the first element
  std::uint32_t var = 0;  // direct
  /// In ComputeSetPlan::gathered; notGathered for a direct edge (most
  /// are), whose one piece needs no list.
  std::uint32_t gathered = notGathered;

  bool direct() const { return gathered == notGathered; }
};

/// The value of a vertex state field.
struct FieldState {
  std::vector<unsigned char> bytes; // device bytes
  std::size_t elements = 0;
};

/// One field of a vertex: its edges (an edge field has one region, a list
/// one per item) or, for a state field, its value. 8 bytes.
struct VertexFieldPlan {
  static constexpr std::uint32_t stateField = ~std::uint32_t(0);
  /// The first region (in ComputeSetPlan::regions) or, for a state
  /// field, its state (in ComputeSetPlan::states).
  std::uint32_t first = 0;
  /// How many regions, or stateField.
  std::uint32_t count = 0;

  bool hasState() const { return count == stateField; }
  std::uint32_t numRegions() const { return hasState() ? 0 : count; }
};

struct VertexPlan {
  std::uint64_t cycles = 0;
  std::uint64_t flops = 0;
  unsigned id = 0; // in the graph, for messages
  unsigned type = 0;
  unsigned tile = 0;
  std::uint32_t firstField = 0; // in ComputeSetPlan::fields
  std::uint32_t numFields = 0;
  bool hasPerfEstimate = false;
};

/// The vertices of a compute set with their fields and edges, each kind in
/// one array (a vertex refers to its fields, a field to its regions, by
/// index): a million vertices need a handful of allocations, not millions.
struct ComputeSetPlan {
  std::string name;
  LargeVector<VertexPlan> vertices;
  LargeVector<VertexFieldPlan> fields;
  LargeVector<EdgeRegion> regions;
  std::vector<GatheredEdge> gathered;
  std::vector<FieldState> states;

  ArrayRef<VertexFieldPlan> fieldsOf(const VertexPlan &v) const {
    return {fields.data() + v.firstField, v.numFields};
  }
  ArrayRef<EdgeRegion> regionsOf(const VertexFieldPlan &f) const {
    return {regions.data() + (f.hasState() ? 0 : f.first), f.numRegions()};
  }
  /// The runs of a gathered edge.
  const std::vector<layout::FlatRun> &runsOf(const EdgeRegion &r) const {
    return gathered[r.gathered].runs;
  }
  /// Calls f(range) for each storage range the edge touches: sorted and
  /// disjoint, as layout::storageRanges gives them.
  template <class F>
  void forEachStorageRange(const EdgeRegion &r, F &&f) const {
    if (!r.direct()) {
      for (const auto &range : gathered[r.gathered].storage)
        f(range);
    } else if (r.numElements != 0) {
      f(layout::StorageRange{r.var, r.offset, r.offset + r.numElements});
    }
  }
  /// How many ranges forEachStorageRange gives.
  std::size_t numStorageRanges(const EdgeRegion &r) const {
    return !r.direct() ? gathered[r.gathered].storage.size()
                       : (r.numElements != 0 ? 1 : 0);
  }
  /// The field's state (empty if it has none).
  const FieldState &stateOf(const VertexFieldPlan &f) const {
    static const FieldState none;
    return f.hasState() ? states[f.first] : none;
  }
};

struct VertexTypePlan {
  std::string name;
  const codelet_interface::VertexInfo *info = nullptr;
  std::shared_ptr<const CodeletLibrary> library; // keeps `info` loaded
  std::vector<std::size_t> elementBytes;          // per field
};

} // namespace exec

struct Executable::Impl {
  Target target; // of one replica
  /// Replicas that run the programs side by side, on a device of
  /// deviceTarget.
  unsigned replicationFactor = 1;
  Target deviceTarget;
  /// The name of compileGraph's debug context: the engine's name (the
  /// autoReport subdirectory) when the Engine is made from the executable.
  std::string name;
  /// Where it was deserialised from ("'file'" or "from the stream"); empty
  /// when compiled in this process. Errors about it name it.
  std::string source;
  std::vector<exec::Variable> variables;
  std::vector<exec::Stream> streams;
  std::vector<exec::RemoteBufferInfo> remoteBuffers;
  std::map<std::string, exec::TensorAccess, std::less<>> hostWrites;
  std::map<std::string, exec::TensorAccess, std::less<>> hostReads;
  std::vector<exec::VertexTypePlan> vertexTypes;
  std::vector<exec::ComputeSetPlan> computeSets;
  std::vector<exec::Step> programs;
  std::vector<exec::Step> functions;
  /// The streams each program uses, directly or through functions.
  std::vector<std::set<std::size_t>> streamsUsed;
  /// The IPU Model's cycle and memory estimates; null for the CPU target.
  std::shared_ptr<const model::Estimates> estimates;
};

/// Checks every compute set's vertices (types, connections, tiles, races)
/// and plans where their fields point (compile/ComputeSetLowering.cpp).
/// onComputeSet() is called after each compute set is lowered (for the
/// compile's progress).
void lowerComputeSets(const Graph::Impl &graph, Executable::Impl &exe,
                      const std::function<void()> &onComputeSet = {});

/// Validates a graph with its programs and lowers them (src/compile).
std::unique_ptr<Executable::Impl> compileToExecutable(
    const Graph &graph, ArrayRef<program::Program> progs,
    const OptionFlags &options, const ProgressFunc &progress);

} // namespace poplar

#endif // POPLAR_SRC_COMPILE_EXECUTABLEIMPL_HPP
