// The autoReport engine options: which report files an Engine writes, and
// where (profiling/README.md describes the files).
#ifndef POPLAR_SRC_RUNTIME_AUTOREPORT_HPP
#define POPLAR_SRC_RUNTIME_AUTOREPORT_HPP

#include <poplar/Engine.hpp>
#include <poplar/OptionFlags.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace poplar {

namespace profiling {
class ProfileDatabase;
} // namespace profiling

/// What the autoReport.* options (already checked) ask for. Each output is
/// its own option when given, else autoReport.all; the execution profile
/// and the lowered variables are parts of profile.pop, so either turns the
/// graph profile on.
struct AutoReportOptions {
  bool graphProfile = false;     // profile.pop
  bool executionProfile = false; // its runs
  bool loweredVars = false;      // its variable_tile table
  bool debugInfo = false;        // debug.cbor
  bool archive = false;          // archive.a
  std::string directory = ".";
  unsigned programRunCount = 2; // runs whose steps are written

  bool any() const { return graphProfile || debugInfo || archive; }
};

AutoReportOptions autoReportOptions(const OptionFlags &options);

/// The reports of one engine: written when it is made (the graph part,
/// debug.cbor and archive.a), after each of its first programRunCount runs
/// (the execution part) and when it is destroyed (the run count and the
/// "complete" mark).
class AutoReport {
public:
  /// `engineName` names the subdirectory of the report directory (none
  /// when empty).
  AutoReport(const Engine::Impl &engine, AutoReportOptions options,
             const std::string &engineName);
  ~AutoReport();
  AutoReport(const AutoReport &) = delete;
  AutoReport &operator=(const AutoReport &) = delete;

  /// Around each Engine::run that completes: notes where the recorder
  /// is, then writes what the run added.
  void beginRun(const Engine::Impl &engine);
  void endRun(const Engine::Impl &engine, unsigned program,
              const std::string &name);

  /// The directory the files go to.
  const std::string &directory() const { return dir; }

private:
  AutoReportOptions opts;
  std::string dir;
  std::unique_ptr<profiling::ProfileDatabase> db;
  // The run under way.
  bool tracking = false;
  bool snapshot = false;
  std::size_t traceStart = 0;
  std::uint64_t cycleStart = 0;
  std::vector<std::uint64_t> countsBefore;
  // Totals over the engine's life.
  std::uint64_t runsTotal = 0;
  std::uint64_t cyclesTotal = 0;
};

} // namespace poplar

#endif // POPLAR_SRC_RUNTIME_AUTOREPORT_HPP
