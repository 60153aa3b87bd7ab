// The files the autoReport engine options write (README.md in this folder
// documents them): profile.pop, an SQLite database with the graph profile
// and the runs of the execution profile; debug.cbor, the names of what the
// graph holds; archive.a, an ar archive with the graph profile as JSON and
// the memory of each tile.
#ifndef POPLAR_SRC_PROFILING_REPORTFILES_HPP
#define POPLAR_SRC_PROFILING_REPORTFILES_HPP

#include "compile/ExecutableImpl.hpp"
#include "model/Estimates.hpp"
#include "model/Simulation.hpp"
#include "profiling/Profiles.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

struct sqlite3;

namespace poplar::profiling {

/// The version of the profile.pop schema (also its PRAGMA user_version).
constexpr int profileFormatVersion = 3;
/// The version of the layout of debug.cbor.
constexpr int debugInfoFormatVersion = 1;

/// The SDK's version ("0.1.0").
const char *sdkVersion();
/// Now, as ISO 8601 UTC ("2024-05-01T12:00:00Z").
std::string timestampUTC();

/// What one run of an engine program did, for the execution part.
struct RunRecord {
  unsigned program = 0;     // the engine's program index
  std::string name;         // Engine::run's debugName
  std::uint64_t startCycle = 0; // cycles of the runs recorded before it
  std::uint64_t cycles = 0;
  /// The simulated steps run, in order, with their start in the recorder's
  /// count of cycles (the run starts at `traceBase`).
  const model::ExecutionRecorder::Entry *traceBegin = nullptr;
  const model::ExecutionRecorder::Entry *traceEnd = nullptr;
  std::uint64_t traceBase = 0;
  bool stepsTruncated = false; // the recorder stopped tracing
  /// Times each simulated step ran in this run (all of them, traced or not).
  std::vector<std::uint64_t> stepCounts;
};

/// profile.pop: created (replacing any file of that name) with the schema
/// and the graph part; runs are added as they finish.
class ProfileDatabase {
public:
  ProfileDatabase(const std::string &path);
  ~ProfileDatabase();
  ProfileDatabase(const ProfileDatabase &) = delete;
  ProfileDatabase &operator=(const ProfileDatabase &) = delete;

  const std::string &path() const { return file; }

  /// The graph part: target, graph, vertex types, compute sets, exchanges,
  /// programs, simulated steps, memory, variables; with `loweredVars`,
  /// where each variable is on each tile.
  void writeGraph(const Executable::Impl &exe, const model::Estimates &est,
                  bool loweredVars);
  /// The execution part: one run (id = the number of runs written before).
  void writeRun(const model::Estimates &est, const RunRecord &run);
  /// Sets (or replaces) rows of the meta table, in one transaction.
  void setMeta(const std::vector<std::pair<std::string, std::string>> &rows);

  unsigned runsWritten() const { return runs; }

private:
  void exec(const char *sql);
  std::string file;
  sqlite3 *db = nullptr;
  unsigned runs = 0;
};

/// debug.cbor: the debug information of an executable as CBOR.
std::vector<std::uint8_t> debugInfoCBOR(const Executable::Impl &exe,
                                        const std::string &engineName);

/// archive.a: the graph profile as JSON (graph.json) and the memory of
/// every tile (tiles.csv), as an ar archive.
void writeArchive(const std::string &path, const model::Estimates &est);

/// Writes an ar archive of named members (names of at most 15 characters
/// without '/').
void writeArArchive(const std::string &path,
                    const std::vector<std::pair<std::string, std::string>> &members);

} // namespace poplar::profiling

#endif // POPLAR_SRC_PROFILING_REPORTFILES_HPP
