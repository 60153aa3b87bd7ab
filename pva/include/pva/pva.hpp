// libpva: the report model of a profile.pop written by the Engine (the
// autoReport options): the target, the compilation (tiles and their
// memory, compute sets, programs, variables, liveness) and the execution
// (runs and their steps, cycles per tile).
//
//   auto report = pva::openReport("profile.pop");
//   report.compilation().target().numTiles();
//   for (const auto &tile : report.compilation().tiles())
//     tile.memory().total().includingGaps();
//
// Every object is a light handle on the report it came from (which it
// keeps alive), so they may be copied and kept freely. Sizes are bytes
// and times cycles of the tile clock.
#ifndef PVA_PVA_HPP
#define PVA_PVA_HPP

#include <pva/pva_export.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace pva {

namespace detail {
struct ReportData; // the report's tables, read from the profile
}
using ReportHandle = std::shared_ptr<const detail::ReportData>;

/// A profile that cannot be opened or read: the message names the file.
class PVA_API error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// "1.2.3": of the SDK that wrote a report, or of the report's format.
class PVA_API Version {
public:
  explicit Version(std::string text = "");
  unsigned major() const { return parts[0]; }
  unsigned minor() const { return parts[1]; }
  unsigned point() const { return parts[2]; }
  const std::string &string() const { return text; }

private:
  std::string text;
  unsigned parts[3] = {0, 0, 0};
};

// Memory.

/// A size with and without the gaps alignment leaves between allocations.
class PVA_API MemorySize {
public:
  MemorySize(std::uint64_t excluding = 0, std::uint64_t including = 0)
      : excluding(excluding), including(including) {}
  std::uint64_t includingGaps() const { return including; }
  std::uint64_t excludingGaps() const { return excluding; }

private:
  std::uint64_t excluding, including;
};

/// The bytes of one memory category in one region of a tile: always live
/// (non-overlapped), and not always live (overlapped: variables live in
/// some steps only, and buffers live during one step), which share memory.
class PVA_API MemoryCategoryRegion {
public:
  MemoryCategoryRegion(std::uint64_t nonOverlapped = 0, std::uint64_t overlapped = 0)
      : non(nonOverlapped), over(overlapped) {}
  std::uint64_t nonOverlapped() const { return non; }
  std::uint64_t overlapped() const { return over; }
  std::uint64_t total() const { return non + over; }

private:
  std::uint64_t non, over;
};

/// One memory category of a tile, by region.
class PVA_API MemoryCategory {
public:
  MemoryCategory(MemoryCategoryRegion nonInterleaved = {},
                 MemoryCategoryRegion interleaved = {},
                 MemoryCategoryRegion overflowed = {})
      : regions{nonInterleaved, interleaved, overflowed} {}
  const MemoryCategoryRegion &nonInterleaved() const { return regions[0]; }
  const MemoryCategoryRegion &interleaved() const { return regions[1]; }
  const MemoryCategoryRegion &overflowed() const { return regions[2]; }
  std::uint64_t total() const;

private:
  MemoryCategoryRegion regions[3];
};

/// The memory categories of a tile. The named accessors are the
/// categories the IPU Model has; byName takes any of names().
class PVA_API MemoryCategories {
public:
  MemoryCategories(ReportHandle report, unsigned tile);
  MemoryCategory byName(const std::string &name) const;
  std::vector<std::string> names() const;

  MemoryCategory variable() const { return byName("variable"); }
  MemoryCategory constant() const { return byName("constant"); }
  MemoryCategory message() const { return byName("message"); }
  MemoryCategory outputEdge() const { return byName("outputEdge"); }
  MemoryCategory rearrangement() const { return byName("rearrangement"); }
  MemoryCategory stack() const { return byName("stack"); }
  MemoryCategory vertexInstanceState() const { return byName("vertexInstanceState"); }
  MemoryCategory vertexFieldData() const { return byName("vertexFieldData"); }
  MemoryCategory vectorListDescriptor() const { return byName("vectorListDescriptor"); }
  MemoryCategory copyDescriptor() const { return byName("copyDescriptor"); }
  MemoryCategory vertexCode() const { return byName("vertexCode"); }
  MemoryCategory controlCode() const { return byName("controlCode"); }
  MemoryCategory internalExchangeCode() const { return byName("internalExchangeCode"); }
  MemoryCategory hostExchangeCode() const { return byName("hostExchangeCode"); }
  MemoryCategory globalExchangeCode() const { return byName("globalExchangeCode"); }

private:
  ReportHandle report;
  unsigned tile;
};

class VertexType;

/// The memory the vertices of one type take on a tile.
class PVA_API VertexMemory {
public:
  VertexMemory(ReportHandle report, std::size_t row) : report(std::move(report)), row(row) {}
  VertexType type() const;
  std::uint64_t codeBytes() const;
  std::uint64_t copyPointerBytes() const;
  std::uint64_t descriptorBytes() const;
  std::uint64_t edgePointerBytes() const;
  std::uint64_t paddingBytes() const;
  std::uint64_t vertexDataBytes() const;

private:
  ReportHandle report;
  std::size_t row;
};

/// A tile's memory: totals by region, by category, and by vertex type.
class PVA_API TileMemory {
public:
  TileMemory(ReportHandle report, unsigned tile) : report(std::move(report)), tile(tile) {}
  MemorySize total() const;
  MemorySize nonInterleaved() const;
  MemorySize interleaved() const;
  MemorySize overflowed() const;
  MemoryCategories category() const { return MemoryCategories(report, tile); }
  /// Bytes allocated for the whole program (the non-overlapped ones).
  std::uint64_t alwaysLiveBytes() const;
  /// The most bytes of data that is not always live (the overlapped
  /// categories) live in one step on the tile: what it shares among them.
  std::uint64_t notAlwaysLiveBytes() const;
  std::vector<VertexMemory> vertices() const;

private:
  ReportHandle report;
  unsigned tile;
};

class PVA_API Tile {
public:
  Tile(ReportHandle report, unsigned number) : report(std::move(report)), num(number) {}
  /// The tile's number across all IPUs.
  unsigned number() const { return num; }
  unsigned ipu() const;
  TileMemory memory() const { return TileMemory(report, num); }

private:
  ReportHandle report;
  unsigned num;
};

class PVA_API IPU {
public:
  enum class Architecture { Ipu1, Ipu2, Ipu21, Unknown };
  IPU(ReportHandle report, unsigned id) : report(std::move(report)), number(id) {}
  unsigned id() const { return number; }
  std::vector<Tile> tiles() const;

private:
  ReportHandle report;
  unsigned number;
};

class PVA_API Target {
public:
  enum class Type { Cpu, IpuModel, Ipu, Unknown };
  explicit Target(ReportHandle report) : report(std::move(report)) {}
  Type type() const;
  IPU::Architecture architecture() const;
  unsigned numIPUs() const;
  unsigned tilesPerIpu() const;
  unsigned numTiles() const;
  /// A profile here is of one replica.
  unsigned numReplicas() const { return 1; }
  unsigned ipusPerReplica() const { return numIPUs(); }
  unsigned tilesPerReplica() const { return numTiles(); }
  std::uint64_t bytesPerTile() const;
  std::uint64_t bytesPerIPU() const { return bytesPerTile() * tilesPerIpu(); }
  std::uint64_t totalMemory() const { return bytesPerTile() * numTiles(); }
  std::uint64_t memoryPerReplica() const { return totalMemory(); }
  /// The tile clock, in Hz.
  double clockFrequency() const;
  unsigned numWorkerContexts() const;

private:
  ReportHandle report;
};

/// Counts of the graph.
class PVA_API Graph {
public:
  explicit Graph(ReportHandle report) : report(std::move(report)) {}
  std::uint64_t numVertices() const;
  std::uint64_t numEdges() const;
  std::uint64_t numVariables() const;
  std::uint64_t numComputeSets() const;

private:
  ReportHandle report;
};

// Vertices, compute sets and variables.

class PVA_API VertexType {
public:
  VertexType(ReportHandle report, unsigned id) : report(std::move(report)), id(id) {}
  const std::string &name() const;
  /// The state of one vertex of the type, in bytes.
  std::uint64_t size() const;
  unsigned _id() const { return id; }

private:
  ReportHandle report;
  unsigned id;
};

/// The vertices of one type in a compute set.
class PVA_API VertexInstances {
public:
  VertexInstances(ReportHandle report, std::size_t row) : report(std::move(report)), row(row) {}
  VertexType type() const;
  std::uint64_t count() const;

private:
  ReportHandle report;
  std::size_t row;
};

class PVA_API ComputeSet {
public:
  ComputeSet(ReportHandle report, unsigned id) : report(std::move(report)), id(id) {}
  unsigned _id() const { return id; }
  const std::string &name() const;
  std::uint64_t numVertices() const;
  std::vector<VertexInstances> vertices() const;
  /// Cycles of each tile (0 for tiles without a vertex of the set). On
  /// the IPU Model what runs is the estimate: the two are the same.
  std::vector<std::uint64_t> cyclesByTile() const;
  std::vector<std::uint64_t> estimatedCyclesByTile() const { return cyclesByTile(); }
  /// Cycles with worker slots busy, by tile.
  std::vector<std::uint64_t> activeCyclesByTile() const;
  /// The slowest tile's cycles.
  std::uint64_t cycles() const;

private:
  ReportHandle report;
  unsigned id;
};

/// A variable (or constant) of the graph.
class PVA_API Variable {
public:
  Variable(ReportHandle report, unsigned id) : report(std::move(report)), id(id) {}
  unsigned _id() const { return id; }
  const std::string &name() const;
  /// The element type ("float", "half", ...).
  const std::string &type() const;
  std::uint64_t numElements() const;
  std::uint64_t elementBytes() const;
  std::uint64_t bytes() const { return numElements() * elementBytes(); }
  bool isConstant() const;

private:
  ReportHandle report;
  unsigned id;
};

/// The elements of a variable on one tile: one allocation.
class PVA_API LoweredVariable {
public:
  LoweredVariable(ReportHandle report, std::size_t row) : report(std::move(report)), row(row) {}
  /// The id of the variable.
  unsigned _id() const;
  const std::string &name() const;
  unsigned tile() const;
  /// From the start of the tile's memory.
  std::uint64_t address() const;
  std::uint64_t bytes() const;
  Variable variable() const;

private:
  ReportHandle report;
  std::size_t row;
};

/// Where each variable is on each tile (autoReport.outputLoweredVars).
class PVA_API LoweredVariables {
public:
  explicit LoweredVariables(ReportHandle report) : report(std::move(report)) {}
  /// False when the profile was written without them.
  bool present() const;
  std::vector<LoweredVariable> all() const;
  std::vector<LoweredVariable> forTile(unsigned tile) const;

private:
  ReportHandle report;
};

/// Always-live data, over all tiles: a variable by name, or a category.
class PVA_API LivenessVariable {
public:
  LivenessVariable(std::string name, std::uint64_t size) : label(std::move(name)), bytes(size) {}
  const std::string &name() const { return label; }
  std::uint64_t size() const { return bytes; }

private:
  std::string label;
  std::uint64_t bytes;
};

class Program;

/// What is live during a step and not always live, over all tiles: the
/// variables, and the step's exchange and rearrangement buffers (named
/// "<message>", "<outputEdge>", "<rearrangement>").
class PVA_API NotAlwaysLiveMemory {
public:
  NotAlwaysLiveMemory(std::uint64_t bytes, std::vector<LivenessVariable> variables)
      : size(bytes), live(std::move(variables)) {}
  std::uint64_t bytes() const { return size; }
  const std::vector<LivenessVariable> &variables() const { return live; }

private:
  std::uint64_t size;
  std::vector<LivenessVariable> live;
};

/// A step of the liveness analysis: a program that holds data while it
/// runs (a compute set, a copy, a host copy, the test of a control
/// program), in program order with functions inlined where called.
class PVA_API ProgramStep {
public:
  ProgramStep(ReportHandle report, std::size_t position)
      : report(std::move(report)), position(position) {}
  /// The program's name, or its type when it has none.
  const std::string &name() const;
  /// The program (OnTileExecute for a compute set).
  std::shared_ptr<Program> program() const;
  NotAlwaysLiveMemory notAlwaysLiveMemory() const;

private:
  ReportHandle report;
  std::size_t position;
};

// Programs.

class ProgramVisitor;

/// A node of the program tree the graph's programs compile to. accept
/// calls the visitor's method for this node's type (not its children's).
class PVA_API Program {
public:
  enum class Type {
    Unknown,
    Sequence,
    OnTileExecute,
    DoExchange,
    GlobalExchange,
    // A host copy is one program here, of type StreamCopyMid: profiles
    // have no StreamCopyBegin or StreamCopyEnd.
    StreamCopyBegin,
    StreamCopyMid,
    StreamCopyEnd,
    Repeat,
    RepeatWhileTrue,
    RepeatWhileFalse,
    SetLocalConsensusFromVar,
    IfElse,
    Switch,
    Sync,
    Call,
    WriteUndef,
    Abort,
    AbortOnCondition,
  };
  Program(ReportHandle report, unsigned id) : report(std::move(report)), id(id) {}
  virtual ~Program();
  Type type() const;
  const std::string &name() const;
  unsigned _id() const { return id; }
  std::vector<std::shared_ptr<Program>> children() const;
  virtual void accept(ProgramVisitor &visitor) const;

protected:
  ReportHandle report;
  unsigned id;
};

class PVA_API OnTileExecuteProgram : public Program {
public:
  using Program::Program;
  ComputeSet computeset() const;
  void accept(ProgramVisitor &visitor) const override;
};

/// Data moved between tiles (DoExchange), IPUs (GlobalExchange) or the
/// host (StreamCopyMid).
class PVA_API ExchangeProgram : public Program {
public:
  using Program::Program;
  std::uint64_t totalBytes() const;
  std::vector<std::uint64_t> bytesSentByTile() const;
  std::vector<std::uint64_t> bytesReceivedByTile() const;
  std::vector<std::uint64_t> estimatedCyclesByTile() const;
};

class PVA_API DoExchangeProgram : public ExchangeProgram {
public:
  using ExchangeProgram::ExchangeProgram;
  void accept(ProgramVisitor &visitor) const override;
};
class PVA_API GlobalExchangeProgram : public ExchangeProgram {
public:
  using ExchangeProgram::ExchangeProgram;
  void accept(ProgramVisitor &visitor) const override;
};
class PVA_API StreamCopyMidProgram : public ExchangeProgram {
public:
  using ExchangeProgram::ExchangeProgram;
  void accept(ProgramVisitor &visitor) const override;
};

class PVA_API RepeatProgram : public Program {
public:
  using Program::Program;
  std::uint64_t repeatCount() const;
  void accept(ProgramVisitor &visitor) const override;
};

class PVA_API CallProgram : public Program {
public:
  using Program::Program;
  /// The program of the function called.
  std::shared_ptr<Program> target() const;
  void accept(ProgramVisitor &visitor) const override;
};

class PVA_API SyncProgram : public Program {
public:
  using Program::Program;
  /// "Internal", "External" or "Global".
  const std::string &syncType() const;
  void accept(ProgramVisitor &visitor) const override;
};

/// Override the methods of the program types of interest; the others do
/// nothing.
class PVA_API ProgramVisitor {
public:
  virtual ~ProgramVisitor();
  virtual void visitOnTileExecute(const OnTileExecuteProgram &) {}
  virtual void visitDoExchange(const DoExchangeProgram &) {}
  virtual void visitGlobalExchange(const GlobalExchangeProgram &) {}
  virtual void visitStreamCopyMid(const StreamCopyMidProgram &) {}
  virtual void visitRepeat(const RepeatProgram &) {}
  virtual void visitCall(const CallProgram &) {}
  virtual void visitSync(const SyncProgram &) {}
  virtual void visitSequence(const Program &) {}
  virtual void visitRepeatWhileTrue(const Program &) {}
  virtual void visitRepeatWhileFalse(const Program &) {}
  virtual void visitSetLocalConsensusFromVar(const Program &) {}
  virtual void visitIfElse(const Program &) {}
  virtual void visitSwitch(const Program &) {}
  virtual void visitWriteUndef(const Program &) {}
  virtual void visitAbort(const Program &) {}
  virtual void visitAbortOnCondition(const Program &) {}
};

// Execution.

/// Minimum, maximum and mean of a value over the tiles of an IPU.
class PVA_API CycleStats {
public:
  CycleStats(std::uint64_t min = 0, std::uint64_t max = 0, double mean = 0)
      : lo(min), hi(max), avg(mean) {}
  std::uint64_t min() const { return lo; }
  std::uint64_t max() const { return hi; }
  double mean() const { return avg; }

private:
  std::uint64_t lo, hi;
  double avg;
};

/// When the tiles of an IPU that were busy during a step started and
/// finished (cycles from the start of the execution).
class PVA_API CycleInterval {
public:
  CycleInterval(CycleStats from = {}, CycleStats to = {}) : from(from), to(to) {}
  const CycleStats &cyclesFrom() const { return from; }
  const CycleStats &cyclesTo() const { return to; }

private:
  CycleStats from, to;
};

/// One IPU during one execution step.
class PVA_API ExecutionStepIpu {
public:
  ExecutionStepIpu(std::uint64_t cycles, CycleInterval active, double tileBalance,
                   double activeTileBalance)
      : stepCycles(cycles), active(active), balance(tileBalance),
        activeBalance(activeTileBalance) {}
  /// The step's cycles.
  std::uint64_t cycles() const { return stepCycles; }
  /// When the tiles that took part started and finished.
  const CycleInterval &activeCycles() const { return active; }
  /// The cycles of the IPU's tiles summed, over (tiles x the step's
  /// cycles): 1 when every tile is busy for the whole step.
  double tileBalance() const { return balance; }
  /// The same over the tiles that took part.
  double activeTileBalance() const { return activeBalance; }

private:
  std::uint64_t stepCycles;
  CycleInterval active;
  double balance, activeBalance;
};

/// One BSP step of a run: a compute set, an exchange, a sync or control
/// flow, with its program.
class PVA_API ExecutionStep {
public:
  ExecutionStep(ReportHandle report, unsigned run, std::size_t position)
      : report(std::move(report)), run(run), position(position) {}
  std::shared_ptr<Program> program() const;
  std::uint64_t cycles() const;
  /// Cycles from the start of the run.
  std::uint64_t startCycle() const;
  /// What each tile did during the step: its compute or exchange cycles,
  /// or the step's cycles on every tile for syncs and control flow.
  std::vector<std::uint64_t> cyclesByTile() const;
  std::vector<ExecutionStepIpu> ipus() const;
  /// The compute set an OnTileExecute step ran (empty for others).
  std::vector<ComputeSet> computeSets() const;

private:
  ReportHandle report;
  unsigned run;
  std::size_t position;
};

/// A time span in microseconds at the target's clock.
class PVA_API TimeInterval {
public:
  TimeInterval(double start, double end) : from(start), to(end) {}
  double start() const { return from; }
  double end() const { return to; }

private:
  double from, to;
};

/// One Engine::run recorded in the profile.
class PVA_API Run {
public:
  Run(ReportHandle report, unsigned id) : report(std::move(report)), id(id) {}
  unsigned _id() const { return id; }
  /// The run's debug name (Engine::run's second argument).
  const std::string &name() const;
  /// The control program run, and its index.
  std::shared_ptr<Program> program() const;
  unsigned programIndex() const;
  std::uint64_t cycles() const;
  /// Cycles of the runs before this one.
  std::uint64_t startCycle() const;
  TimeInterval microseconds() const;
  std::vector<ExecutionStep> steps() const;
  /// True when the run had more steps than the profile traces.
  bool stepsTruncated() const;

private:
  ReportHandle report;
  unsigned id;
};

class PVA_API Execution {
public:
  explicit Execution(ReportHandle report) : report(std::move(report)) {}
  std::vector<Run> runs() const;
  /// The steps of every run, in order.
  std::vector<ExecutionStep> steps() const;
  /// Runs of the Engine, recorded or not.
  std::uint64_t runsTotal() const;
  /// Cycles of each tile summed over the recorded runs.
  std::vector<std::uint64_t> cyclesByTile() const;

private:
  ReportHandle report;
};

class PVA_API Compilation {
public:
  explicit Compilation(ReportHandle report) : report(std::move(report)) {}
  Target target() const { return Target(report); }
  Graph graph() const { return Graph(report); }
  std::vector<Tile> tiles() const;
  std::vector<IPU> ipus() const;
  std::vector<VertexType> vertexTypes() const;
  std::vector<ComputeSet> computeSets() const;
  std::vector<Variable> variables() const;
  std::vector<std::shared_ptr<Program>> programs() const;
  /// The Engine's programs (the index given to Engine::run) and functions.
  std::vector<std::shared_ptr<Program>> controlPrograms() const;
  std::vector<std::shared_ptr<Program>> functionPrograms() const;
  std::vector<ProgramStep> livenessProgramSteps() const;
  std::vector<LivenessVariable> alwaysLiveVariables() const;
  LoweredVariables loweredVariables() const { return LoweredVariables(report); }
  std::map<std::string, double> optimizationInfo() const;

private:
  ReportHandle report;
};

class PVA_API Report {
public:
  explicit Report(ReportHandle report) : report(std::move(report)) {}
  Compilation compilation() const { return Compilation(report); }
  Execution execution() const { return Execution(report); }
  /// The SDK that wrote the profile.
  Version poplarVersion() const;
  /// The profile's format.
  Version version() const;
  /// The Engine's name (empty when it had none).
  const std::string &engineName() const;
  /// False while the Engine that writes it is alive.
  bool complete() const;
  const std::string &path() const;

private:
  ReportHandle report;
};

/// Opens a profile.pop. debugPath names the debug.cbor beside it; this
/// library reads no more from it than profile.pop holds, so it is only
/// checked to exist when given.
PVA_API Report openReport(const std::string &profilePath,
                          const std::string &debugPath = "");

} // namespace pva

#endif
