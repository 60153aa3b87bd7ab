// The state of a graph, shared by the top-level graph and its virtual
// graphs: variables with their mapping and initial values, streams, host
// handles, compute sets and functions.
#ifndef POPLAR_SRC_GRAPH_GRAPHIMPL_HPP
#define POPLAR_SRC_GRAPH_GRAPHIMPL_HPP

#include "core/HugePages.hpp"
#include "graph/TileMapping.hpp"

#include <poplar/DataStream.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/Graph.hpp>
#include <poplar/PerfEstimateFunc.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>

#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <memory_resource>
#include <string>
#include <vector>

namespace poplar {

struct VariableInfo {
  std::string name;
  Type type;
  std::vector<std::size_t> shape;
  std::size_t numElements = 0;
  bool isConstant = false;
  /// addReplicationIndexConstant: each replica holds its own index.
  bool isReplicationIndex = false;
  /// The random generator state (getHwSeeds): each replica starts from
  /// its own key.
  bool isHwSeedState = false;
  /// Device-format bytes; empty when the variable has no initial value.
  std::vector<unsigned char> initialValue;
  TileMapping mapping; // top-level tile numbers
  Tensor whole;
};

struct HostHandle {
  std::string name;
  Tensor tensor;
  bool rearrangeOnHost = false;
};

struct DataStream::Impl {
  std::uint64_t graphId = 0;
  std::size_t id = 0;
  std::string handle;
  Type elementType;
  std::size_t numElements = 0;
  DataStreamType type = DataStreamType::HostToDeviceFIFO;
  ReplicatedStreamMode replicatedMode = ReplicatedStreamMode::REPLICATE;
  unsigned replicationFactor = 1;
};

struct RemoteBuffer::Impl {
  std::uint64_t graphId = 0;
  std::size_t id = 0;
  std::string handle;
  Type elementType;
  std::size_t numElements = 0;
  std::size_t repeats = 1;
  bool rearrangeOnHost = false;
  bool optimiseMemory = false;
};

class CodeletLibrary;
namespace codelet_interface {
struct VertexInfo;
struct FieldInfo;
} // namespace codelet_interface

/// A vertex type added by addCodelets.
struct VertexType {
  std::string name;
  const codelet_interface::VertexInfo *info = nullptr;
  std::shared_ptr<const CodeletLibrary> library; // keeps `info` loaded
  std::vector<Type> fieldTypes;                  // element type per field
};

/// What one field of a vertex is connected to or holds.
struct VertexFieldValue {
  /// Scalar and Vector edges: the tensor connected or, for an element of a
  /// tensor (t[i], the edge of a vertex per element), that tensor with the
  /// element's index: a graph of a million such edges keeps no view node
  /// for each.
  Tensor tensor;
  static constexpr std::size_t notIndexed = ~std::size_t(0);
  std::size_t index = notIndexed;
  /// The tensor the edge is connected to (invalid if it is not).
  Tensor edge() const {
    return index == notIndexed ? tensor : tensor[index];
  }
  /// List edges (one tensor per item, invalid until connected) and state
  /// values (device bytes), with their sizes: kept apart, as most fields
  /// are edges (32 bytes a field).
  struct Extra {
    std::vector<Tensor> items;
    std::vector<unsigned char> state;
    std::size_t size = 0; // list items or state vector elements
    bool sizeSet = false;
    bool stateSet = false;
  };
  std::unique_ptr<Extra> extra;

  std::size_t size() const { return extra ? extra->size : 0; }
  bool sizeSet() const { return extra && extra->sizeSet; }
  bool stateSet() const { return extra && extra->stateSet; }

  Extra &getExtra() {
    if (!extra)
      extra = std::make_unique<Extra>();
    return *extra;
  }
};

/// A vertex: 40 bytes, with its fields in the graph's vertexArena (a
/// graph may have millions of vertices).
struct VertexData {
  /// Default values for the type's `numFields` fields, from `arena`.
  VertexData(std::pmr::memory_resource &arena, unsigned type,
             unsigned computeSet, std::uint32_t numFields)
      : type(type), computeSet(computeSet), numFields(numFields),
        hasPerfEstimate(0),
        fieldData(static_cast<VertexFieldValue *>(arena.allocate(
            numFields * sizeof(VertexFieldValue), alignof(VertexFieldValue)))) {
    std::uninitialized_value_construct_n(fieldData, numFields);
  }
  /// The fields' storage stays in the arena, which frees it with the graph.
  ~VertexData() { std::destroy_n(fieldData, numFields); }
  VertexData(const VertexData &) = delete;
  VertexData &operator=(const VertexData &) = delete;

  VertexFieldValue &field(std::size_t f) { return fieldData[f]; }
  const VertexFieldValue &field(std::size_t f) const { return fieldData[f]; }

  unsigned type;
  unsigned computeSet;
  unsigned tile = std::numeric_limits<unsigned>::max(); // top-level tile
  std::uint32_t numFields : 31;
  std::uint32_t hasPerfEstimate : 1;
  VertexFieldValue *fieldData; // in the order of the type's fields
  std::uint64_t cycles = 0;
  std::uint64_t flops = 0;
};
static_assert(sizeof(VertexData) <= 40, "a graph may have millions");

struct ComputeSetInfo {
  std::string name;
  std::vector<unsigned> vertices;
};

struct Graph::Impl {
  std::uint64_t id = 0;
  Target target; // of one replica
  /// Replicas of the graph that run side by side, and the target of the
  /// device they run on together (target when there is one replica).
  unsigned replicationFactor = 1;
  Target deviceTarget;
  std::vector<VariableInfo> variables;
  std::vector<std::shared_ptr<const DataStream::Impl>> streams;
  std::vector<std::shared_ptr<const RemoteBuffer::Impl>> remoteBuffers;
  std::map<std::string, HostHandle, std::less<>> hostWrites;
  std::map<std::string, HostHandle, std::less<>> hostReads;
  std::vector<ComputeSetInfo> computeSets;
  std::vector<program::Program> functions;
  std::vector<std::shared_ptr<const CodeletLibrary>> codeletLibraries;
  std::vector<VertexType> vertexTypes;
  std::map<std::string, unsigned, std::less<>> vertexTypeIndex;
  /// Where the vertices and their fields are kept: they are not moved
  /// when more are added (a million vertices are not copied twenty times
  /// over), and a vertex's fields, sized once by addVertex, take no heap
  /// allocation of their own. Declared before what it holds.
  std::pmr::monotonic_buffer_resource vertexArena{largeArrayResource()};
  std::pmr::deque<VertexData> vertices{&vertexArena};
  std::map<std::string, PerfEstimateFunc, std::less<>> perfEstimators;

  /// Throws poplar::poplar_error if t is invalid or has a variable of
  /// another graph; `what` says where t was used.
  void checkOwnership(const Tensor &t, const std::string &what) const;
  bool hasStreamHandle(const std::string &handle) const;
  /// "vertex 3 (SumVertex) in compute set 'cs'", for messages.
  std::string describeVertex(unsigned id) const;
};

/// Registers the vertex types of `library` (from `src`) on the graph; false
/// if the same codelets were registered before. link_error on a clash.
bool registerCodeletLibrary(Graph::Impl &impl,
                            std::shared_ptr<const CodeletLibrary> library,
                            const std::string &src);

/// The tiles a Graph object sees: tile i of the graph is top-level tile
/// tiles[i].
struct Graph::View {
  Target target;
  std::vector<unsigned> tiles;
  std::vector<unsigned> topLevelToLocal; // NoTile where not in the view
};

} // namespace poplar

#endif // POPLAR_SRC_GRAPH_GRAPHIMPL_HPP
