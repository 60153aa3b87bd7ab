// What the IPU Model works out when a graph is compiled for an IPU target:
// the cycles of every compute set and exchange, the programs as the
// profile lists them, the simulated steps each lowered step runs, and the
// memory of every tile. The engine adds up simulated steps as it runs; the
// profiles and summaries are made from these.
#ifndef POPLAR_SRC_MODEL_ESTIMATES_HPP
#define POPLAR_SRC_MODEL_ESTIMATES_HPP

#include <poplar/Target.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace poplar::model {

// ----------------------------------------------------------------- compute

/// One tile's part of a compute set: cycles including idle threads (the
/// tile's time), and active cycles (those in which a vertex issues).
struct TileCompute {
  unsigned tile = 0;
  std::uint64_t cycles = 0;
  std::uint64_t active = 0;
};

struct ComputeSetEstimate {
  std::string name;
  std::vector<TileCompute> tiles; // tiles with vertices, ascending
  /// Per vertex type present (indices into Estimates::vertexTypes): the
  /// count of vertices and their active cycles.
  std::vector<unsigned> vertexTypes;
  std::vector<std::uint64_t> vertexCounts;
  std::vector<std::uint64_t> activeCyclesByType;
  std::uint64_t cycles = 0; // the slowest tile
  std::uint64_t totalCycles = 0;
  std::uint64_t totalActive = 0;
  std::uint64_t numVertices = 0;
};

// ---------------------------------------------------------------- exchange

/// One tile's part of an exchange: bytes out and in, and the cycles the
/// tile is busy exchanging (zero-traffic tiles are left out).
struct TileTraffic {
  unsigned tile = 0;
  std::uint64_t sent = 0;
  std::uint64_t received = 0;
  std::uint64_t cycles = 0;
  unsigned pieces = 0; // transfers the tile takes part in
};

struct ExchangeEstimate {
  std::string name;
  std::vector<TileTraffic> tiles; // ascending
  std::uint64_t cycles = 0;       // the slowest tile, with fixed costs
  std::uint64_t totalBytes = 0;   // bytes moved
};

// ---------------------------------------------------------------- programs

/// A program as the graph profile lists it: a tagged union whose tag
/// (`type`) is one of the guide's program types.
struct ProgramNode {
  std::string type;
  std::string name;
  std::vector<unsigned> children;
  long computeSet = -1; // OnTileExecute
  long exchange = -1;   // DoExchange, GlobalExchange, StreamCopy
  long target = -1;     // Call: index into the function programs
  unsigned count = 0;   // Repeat
  std::string syncType; // Sync
};

/// Cycles summed over tiles, by what the tiles do (the execution
/// profile's simulation.tileCycles). `sync` includes the time a tile waits
/// for the slowest one; `control` is the control flow between steps.
struct TileCycles {
  std::uint64_t activeCompute = 0;
  std::uint64_t compute = 0;
  std::uint64_t copySharedStructure = 0;
  std::uint64_t doExchange = 0;
  std::uint64_t globalExchange = 0;
  std::uint64_t streamCopy = 0;
  std::uint64_t sync = 0;
  std::uint64_t control = 0;

  void add(const TileCycles &o, std::uint64_t times = 1) {
    activeCompute += o.activeCompute * times;
    compute += o.compute * times;
    copySharedStructure += o.copySharedStructure * times;
    doExchange += o.doExchange * times;
    globalExchange += o.globalExchange * times;
    streamCopy += o.streamCopy * times;
    sync += o.sync * times;
    control += o.control * times;
  }
};

/// One step of the BSP simulation: what a lowered step runs each time.
struct SimStep {
  enum class Kind : std::uint8_t {
    OnTileExecute, // index: compute set
    DoExchange,    // index: internal exchange
    GlobalExchange, // index: external exchange
    StreamCopy,    // index: host exchange
    Sync,          // external or internal
    Control        // control flow on every tile
  };
  Kind kind = Kind::Sync;
  bool external = false; // Sync
  /// How the clocks of its IPUs (Estimates::ipuSets[ipus]) move: joined
  /// (the step starts when the last of them is ready and they all end it
  /// together), or each on its own (control code, which every IPU runs
  /// for itself, and syncs within each IPU).
  bool eachIpu = false;
  std::uint32_t ipus = 0; // 0: every IPU of the target
  unsigned program = 0;  // ProgramNode id
  unsigned index = 0;
  std::uint64_t cycles = 0;
  TileCycles tileCycles;
};

// ------------------------------------------------------------------ memory

enum class MemoryCategory : unsigned {
  Variable,
  Constant,
  Message,
  OutputEdge,
  Rearrangement,
  Stack,
  VertexInstanceState,
  VertexFieldData,
  VectorListDescriptor,
  CopyDescriptor,
  VertexCode,
  ControlCode,
  InternalExchangeCode,
  HostExchangeCode,
  GlobalExchangeCode,
};
constexpr unsigned numMemoryCategories = 15;

/// The name the graph profile's memory.byCategory uses.
const char *categoryName(MemoryCategory c);
/// Buffers live only during one step (exchange and rearrangement
/// buffers): they share a tile's memory with the variables that are not
/// always live.
bool isOverlapped(MemoryCategory c);

enum class MemoryRegion : unsigned { NonInterleaved, Interleaved, Overflowed };

/// Vertex state of one compute set or vertex type on one tile.
struct VertexMemory {
  std::uint64_t code = 0;
  std::uint64_t copyPointers = 0;
  std::uint64_t descriptors = 0;
  std::uint64_t edgePointers = 0;
  std::uint64_t padding = 0;
  std::uint64_t vertexData = 0; // internal state
  std::uint64_t total() const {
    return code + copyPointers + descriptors + edgePointers + padding +
           vertexData;
  }
  void add(const VertexMemory &o) {
    code += o.code;
    copyPointers += o.copyPointers;
    descriptors += o.descriptors;
    edgePointers += o.edgePointers;
    padding += o.padding;
    vertexData += o.vertexData;
  }
};

/// Where a variable's (or constant's) elements on one tile were placed:
/// the lowered variables of the profile.
struct VariablePlacement {
  std::size_t variable = 0; // index in the graph (and the executable)
  unsigned tile = 0;
  std::uint64_t address = 0; // from the start of the tile's memory
  std::uint64_t bytes = 0;
  MemoryRegion region = MemoryRegion::NonInterleaved;
};

/// A step of the liveness analysis (model/Liveness.hpp), over all tiles:
/// the bytes of what is live in it and not always live.
struct LiveStep {
  unsigned program = 0;            // ProgramNode
  std::uint64_t variableBytes = 0; // variables live in it
  /// Its buffers: message, outputEdge, rearrangement.
  std::array<std::uint64_t, 3> bufferBytes{};
  std::uint64_t bytes() const {
    return variableBytes + bufferBytes[0] + bufferBytes[1] + bufferBytes[2];
  }
};

/// A variable that is not always live: the steps it is live in (inclusive
/// ranges of LiveStep indices) and its bytes over all tiles.
struct LiveVariable {
  std::size_t variable = 0;
  std::string name; // its debug name, "<anon>" when none
  std::uint64_t bytes = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
};

struct MemoryReport {
  /// Bytes (without gaps) per category, region and tile: nonOverlapped is
  /// what is always live; overlapped counts each variable that is not
  /// always live once and each compute set's buffers once, though they
  /// share memory.
  using PerTile = std::vector<std::uint64_t>;
  std::array<std::array<PerTile, 3>, numMemoryCategories> nonOverlapped;
  std::array<std::array<PerTile, 3>, numMemoryCategories> overlapped;
  /// Per tile, without gaps: the always-live bytes and the most bytes of
  /// overlapped data live in one step.
  std::array<PerTile, 3> byRegion;
  PerTile total;
  /// Per tile, with alignment gaps: the extent used in each region, and
  /// the end of the highest allocation.
  std::array<PerTile, 3> byRegionIncludingGaps;
  PerTile totalIncludingGaps;
  /// Sparse [compute set][(tile, memory)] and [vertex type][(tile, memory)].
  std::vector<std::vector<std::pair<unsigned, VertexMemory>>> byComputeSet;
  std::vector<std::vector<std::pair<unsigned, VertexMemory>>> byVertexType;
  /// Every step of the liveness analysis, in program order.
  std::vector<LiveStep> liveSteps;
  /// The variables that are not always live, in the graph's order.
  std::vector<LiveVariable> liveVariables;
  /// Always-live data by name (variables and constants by debug name, the
  /// other non-overlapped categories by category), bytes on all tiles.
  std::vector<std::pair<std::string, std::uint64_t>> alwaysLive;
  /// Every variable and constant allocation, tile by tile. Variables that
  /// are not always live may share addresses when their lives do not
  /// overlap.
  std::vector<VariablePlacement> variablePlacements;
};

// -------------------------------------------------------------- everything

struct VertexTypeEstimate {
  std::string name;
  std::uint64_t stateBytes = 0; // device vertex state with no list items
};

struct GraphStats {
  std::uint64_t numVertices = 0;
  std::uint64_t numEdges = 0;
  std::uint64_t numVars = 0;
  std::uint64_t numComputeSets = 0;
};

struct Estimates {
  Target target; // of one replica
  unsigned replicationFactor = 1;
  GraphStats graph;
  std::vector<VertexTypeEstimate> vertexTypes; // those used, in profile order
  std::vector<ComputeSetEstimate> computeSets; // the graph's, then generated
  std::vector<ExchangeEstimate> exchanges;         // internal
  std::vector<ExchangeEstimate> externalExchanges; // between IPUs
  std::vector<ExchangeEstimate> hostExchanges;     // host and remote buffers
  std::vector<ProgramNode> programs;
  std::vector<unsigned> controlPrograms;  // per engine program
  std::vector<unsigned> functionPrograms; // per function
  std::vector<SimStep> steps;
  /// The sets of IPUs the steps run on, each ascending; set 0 is every IPU.
  std::vector<std::vector<unsigned>> ipuSets;
  MemoryReport memory;
  /// Per vertex of the graph: its estimate, compute set and profile type.
  std::vector<std::uint64_t> vertexCycles;
  std::vector<unsigned> vertexComputeSet;
  std::vector<unsigned> vertexType;
  /// Compile-time metrics (the profile's optimizationInfo).
  std::vector<std::pair<std::string, double>> optimizationInfo;
};

} // namespace poplar::model

#endif // POPLAR_SRC_MODEL_ESTIMATES_HPP
