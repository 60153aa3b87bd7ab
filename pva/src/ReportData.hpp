// The tables of a profile.pop, read into memory when the report is opened
// (poplar/src/profiling/README.md documents them). Where each variable is
// on each tile can be large: it is read the first time it is asked for.
#ifndef PVA_SRC_REPORTDATA_HPP
#define PVA_SRC_REPORTDATA_HPP

#include "Database.hpp"

#include <pva/pva.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace pva {
namespace detail {

struct TargetRow {
  std::string type, architecture;
  unsigned numIpus = 0, tilesPerIpu = 0, numTiles = 0, numWorkerContexts = 0;
  std::uint64_t bytesPerTile = 0;
  double clockFrequency = 0;
};

struct VertexTypeRow {
  std::string name;
  std::uint64_t stateBytes = 0;
};

struct TileCycles {
  unsigned tile;
  std::uint64_t cycles, active;
};

struct ComputeSetVertexType {
  unsigned computeSet, vertexType;
  std::uint64_t count, activeCycles;
};

struct ComputeSetRow {
  std::string name;
  std::uint64_t cycles = 0, totalCycles = 0, totalActiveCycles = 0, numVertices = 0;
  std::vector<TileCycles> tiles;
  std::vector<std::size_t> vertexTypes; // rows of computeSetVertexTypes
};

struct ExchangeTile {
  unsigned tile;
  std::uint64_t sent, received, cycles;
};

struct ExchangeRow {
  std::string name;
  std::uint64_t cycles = 0, totalBytes = 0;
  std::vector<ExchangeTile> tiles;
};

struct ProgramRow {
  std::string typeName, name;
  Program::Type type = Program::Type::Unknown;
  long computeSet = -1, exchange = -1, function = -1;
  std::string exchangeKind, syncType;
  std::uint64_t repeatCount = 0;
  std::vector<unsigned> children;
};

/// A simulated BSP step.
struct StepRow {
  std::string kind; // OnTileExecute, DoExchange, GlobalExchange, StreamCopy, Sync, Control
  long program = -1, computeSet = -1, exchange = -1;
  std::string exchangeKind;
  std::uint64_t cycles = 0;
  std::vector<unsigned> ipus; // the IPUs it runs on, ascending
};

struct TileMemoryRow {
  unsigned ipu = 0;
  MemorySize total, regions[3];
};

struct VertexMemoryRow {
  unsigned vertexType, tile;
  std::uint64_t code, copyPointers, descriptors, edgePointers, padding, vertexData;
};

struct VariableRow {
  std::string name, type;
  std::uint64_t numElements = 0, elementBytes = 0;
  bool constant = false;
};

struct LivenessStepRow {
  std::string name;
  unsigned program = 0;
  std::uint64_t bytes = 0; // not always live, all tiles
  std::array<std::uint64_t, 3> buffers{}; // message, outputEdge, rearrangement
};

/// A variable that is not always live, live in steps [first, last].
struct LivenessVariableRow {
  unsigned variable = 0;
  std::uint64_t first = 0, last = 0, bytes = 0;
};

struct LoweredRow {
  unsigned variable, tile;
  std::uint64_t address, bytes;
};

struct RunStepRow {
  unsigned step;
  std::uint64_t startCycle, cycles;
};

struct RunRow {
  unsigned program = 0;
  std::string name;
  std::uint64_t startCycle = 0, cycles = 0;
  bool stepsTruncated = false;
  std::vector<RunStepRow> steps;
};

struct ReportData {
  explicit ReportData(const std::string &path);

  std::string path;
  std::map<std::string, std::string> meta;
  TargetRow target;
  std::map<std::string, std::uint64_t> graphStats;
  std::map<std::string, double> optimizationInfo;
  std::vector<VertexTypeRow> vertexTypes;
  std::vector<ComputeSetRow> computeSets;
  std::vector<ComputeSetVertexType> computeSetVertexTypes;
  std::map<std::string, std::vector<ExchangeRow>> exchanges; // by kind
  std::vector<ProgramRow> programs;
  std::vector<unsigned> controlPrograms, functionPrograms;
  std::vector<StepRow> steps;

  std::vector<std::string> categoryNames; // by category id
  std::vector<TileMemoryRow> tiles;
  /// [tile][category]: the category's bytes on the tile, by region.
  std::vector<std::vector<MemoryCategory>> tileCategories;
  std::vector<VertexMemoryRow> vertexMemory;
  std::vector<std::vector<std::size_t>> vertexMemoryByTile; // rows, by tile
  std::vector<std::pair<std::string, std::uint64_t>> alwaysLive;
  std::vector<LivenessStepRow> livenessSteps;
  std::vector<LivenessVariableRow> livenessVariables; // by first step
  std::vector<VariableRow> variables;
  bool hasLoweredVariables = false;

  std::vector<RunRow> runs;

  /// Where each variable is on each tile, read on first use.
  const std::vector<LoweredRow> &loweredVariables() const;

  /// A program row; pva::error for an id the profile lacks.
  const ProgramRow &program(std::size_t id) const;
  /// The exchange a program or step refers to.
  const ExchangeRow &exchange(const std::string &kind, long index) const;
  ExchangeRow &exchange(const std::string &kind, long index) {
    return const_cast<ExchangeRow &>(std::as_const(*this).exchange(kind, index));
  }
  /// What each tile did during one step (see ExecutionStep::cyclesByTile).
  std::vector<std::uint64_t> stepCyclesByTile(const StepRow &step) const;

private:
  void readGraph();
  void readMemory();
  void readRuns();
  /// pva::error naming the first reference to an entry the profile lacks.
  void checkReferences() const;

  std::unique_ptr<Database> db;
  mutable std::once_flag loweredOnce;
  mutable std::vector<LoweredRow> lowered;
};

/// The program of id `id` as an object of its type's class.
std::shared_ptr<Program> makeProgram(const ReportHandle &report, std::size_t id);

/// The handles T(report, i) for i in [0, n).
template <class T> std::vector<T> handles(const ReportHandle &report, std::size_t n) {
  std::vector<T> out;
  out.reserve(n);
  for (std::size_t i = 0; i != n; ++i)
    out.emplace_back(report, static_cast<unsigned>(i));
  return out;
}

/// The programs of the given ids.
template <class Ids>
std::vector<std::shared_ptr<Program>> programs(const ReportHandle &report, const Ids &ids) {
  std::vector<std::shared_ptr<Program>> out;
  for (auto id : ids)
    out.push_back(makeProgram(report, std::size_t(id)));
  return out;
}

} // namespace detail
} // namespace pva

#endif
