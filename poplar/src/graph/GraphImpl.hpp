// The state of a graph, shared by the top-level graph and its virtual
// graphs: variables with their mapping and initial values, streams, host
// handles, compute sets and functions.
#ifndef POPLAR_SRC_GRAPH_GRAPHIMPL_HPP
#define POPLAR_SRC_GRAPH_GRAPHIMPL_HPP

#include "graph/TileMapping.hpp"

#include <poplar/DataStream.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace poplar {

struct VariableInfo {
  std::string name;
  Type type;
  std::vector<std::size_t> shape;
  std::size_t numElements = 0;
  bool isConstant = false;
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

struct ComputeSetInfo {
  std::string name;
};

struct Graph::Impl {
  std::uint64_t id = 0;
  Target target;
  std::vector<VariableInfo> variables;
  std::vector<std::shared_ptr<const DataStream::Impl>> streams;
  std::vector<std::shared_ptr<const RemoteBuffer::Impl>> remoteBuffers;
  std::map<std::string, HostHandle, std::less<>> hostWrites;
  std::map<std::string, HostHandle, std::less<>> hostReads;
  std::vector<ComputeSetInfo> computeSets;
  std::vector<program::Program> functions;

  /// Throws poplar::poplar_error if t is invalid or has a variable of
  /// another graph; `what` says where t was used.
  void checkOwnership(const Tensor &t, const std::string &what) const;
  bool hasStreamHandle(const std::string &handle) const;
};

/// The tiles a Graph object sees: tile i of the graph is top-level tile
/// tiles[i].
struct Graph::View {
  Target target;
  std::vector<unsigned> tiles;
  std::vector<unsigned> topLevelToLocal; // NoTile where not in the view
};

} // namespace poplar

#endif // POPLAR_SRC_GRAPH_GRAPHIMPL_HPP
