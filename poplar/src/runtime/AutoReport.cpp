// The autoReport engine options: profile.pop, debug.cbor and archive.a in
// autoReport.directory, or in a subdirectory named after the engine.
#include "runtime/AutoReport.hpp"

#include "core/Logging.hpp"
#include "profiling/ReportFiles.hpp"
#include "runtime/EngineImpl.hpp"

#include <poplar/exceptions.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace poplar {
namespace {

namespace fs = std::filesystem;

bool output(const OptionFlags &options, const char *name, bool all) {
  return engineOptionIs(options, name, all);
}

// An engine name as one directory name: '/' (the separator of debug
// context paths) becomes '_', and "." and ".." are not directories of
// their own.
std::string directoryName(std::string name) {
  for (char &c : name)
    if (c == '/')
      c = '_';
  if (name == "." || name == "..")
    name = "_" + name;
  return name;
}

} // namespace

AutoReportOptions autoReportOptions(const OptionFlags &options) {
  AutoReportOptions o;
  // autoReport.enable, as the PopVision guide names it, is autoReport.all.
  const bool all = engineOptionIs(options, "autoReport.all",
                                  engineOptionIs(options, "autoReport.enable", false));
  o.graphProfile = output(options, "autoReport.outputGraphProfile", all);
  o.executionProfile = output(options, "autoReport.outputExecutionProfile", all);
  o.loweredVars = output(options, "autoReport.outputLoweredVars", all);
  o.debugInfo = output(options, "autoReport.outputDebugInfo", all);
  o.archive = output(options, "autoReport.outputArchive", all);
  // profile.pop cannot have an execution part or lowered variables
  // without its graph part.
  o.graphProfile = o.graphProfile || o.executionProfile || o.loweredVars;
  if (auto it = options.find("autoReport.directory"); it != options.end())
    o.directory = it->second;
  if (auto it = options.find("autoReport.executionProfileProgramRunCount");
      it != options.end())
    o.programRunCount =
        static_cast<unsigned>(std::strtoull(it->second.c_str(), nullptr, 0));
  return o;
}

AutoReport::AutoReport(const Engine::Impl &engine, AutoReportOptions options,
                       const std::string &engineName)
    : opts(std::move(options)) {
  const Executable::Impl &exe = *engine.exe;
  fs::path where(opts.directory);
  if (!engineName.empty())
    where /= directoryName(engineName);
  dir = where.string();

  bool graph = opts.graphProfile, archive = opts.archive, debug = opts.debugInfo;
  if (!engineOptionIs(engine.options, "debug.retainDebugInformation", true)) {
    logging::warn(logging::Module::Engine,
                  "autoReport: no reports are written because "
                  "debug.retainDebugInformation is \"false\"");
    graph = archive = debug = false;
  }
  if (!exe.estimates && (graph || archive)) {
    logging::warn(logging::Module::Engine,
                  "autoReport: the {} target has no profile: profile.pop and "
                  "archive.a are not written (use an IPU Model device)",
                  toString(exe.target.getTargetType()));
    graph = archive = false;
  }
  if (!graph && !archive && !debug)
    return;

  std::error_code error;
  fs::create_directories(where, error);
  if (error || !fs::is_directory(where))
    throw poplar_error("autoReport: cannot create the report directory '" + dir +
                       "'" + (error ? ": " + error.message() : std::string()));

  if (graph) {
    const bool execution = opts.executionProfile && engine.recorder;
    if (opts.executionProfile && !engine.recorder)
      logging::warn(logging::Module::Engine,
                    "autoReport: execution profiling is off (debug.instrument "
                    "is \"false\"): profile.pop has no runs");
    const std::string path = (where / "profile.pop").string();
    logging::info(logging::Module::Profiler, "autoReport: writing {}", path);
    db = std::make_unique<profiling::ProfileDatabase>(path);
    db->setMeta({
        {"format", "poplar-profile"},
        {"format_version", std::to_string(profiling::profileFormatVersion)},
        {"sdk_version", profiling::sdkVersion()},
        {"created", profiling::timestampUTC()},
        {"engine_name", engineName},
        {"profiler_mode", "IPU_MODEL"},
        {"graph_profile", "1"},
        {"execution_profile", execution ? "1" : "0"},
        {"lowered_vars", opts.loweredVars ? "1" : "0"},
        {"execution_profile_program_run_count",
         std::to_string(opts.programRunCount)},
        {"runs_total", "0"},
        {"runs_profiled", "0"},
        {"complete", "0"},
    });
    db->writeGraph(exe, *exe.estimates, opts.loweredVars);
    opts.executionProfile = execution;
  }
  if (debug) {
    const std::string path = (where / "debug.cbor").string();
    logging::info(logging::Module::Profiler, "autoReport: writing {}", path);
    const auto bytes = profiling::debugInfoCBOR(exe, engineName);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    out.close(); // a full disk may fail only the final flush
    if (!out) {
      std::remove(path.c_str()); // no half file for a reader to trip on
      throw poplar_error("autoReport: cannot write '" + path + "'");
    }
  }
  if (archive) {
    const std::string path = (where / "archive.a").string();
    logging::info(logging::Module::Profiler, "autoReport: writing {}", path);
    profiling::writeArchive(path, *exe.estimates);
  }
}

AutoReport::~AutoReport() {
  if (!db)
    return;
  try {
    db->setMeta({{"runs_total", std::to_string(runsTotal)},
                 {"runs_profiled", std::to_string(db->runsWritten())},
                 {"closed", profiling::timestampUTC()},
                 {"complete", "1"}});
  } catch (const std::exception &e) {
    logging::error(logging::Module::Profiler, "autoReport: {}", e.what());
  }
}

void AutoReport::beginRun(const Engine::Impl &engine) {
  tracking = db && opts.executionProfile && engine.recorder && engine.recording;
  snapshot = tracking && db->runsWritten() < opts.programRunCount;
  if (!tracking)
    return;
  const auto &rec = *engine.recorder;
  traceStart = rec.trace.size();
  cycleStart = rec.cycles;
  if (snapshot)
    countsBefore = rec.counts;
}

void AutoReport::endRun(const Engine::Impl &engine, unsigned program,
                        const std::string &name) {
  ++runsTotal;
  if (!tracking)
    return;
  tracking = false;
  const auto &rec = *engine.recorder;
  const std::uint64_t cycles = rec.cycles - cycleStart;
  const std::uint64_t start = cyclesTotal;
  cyclesTotal += cycles;
  if (snapshot) {
    profiling::RunRecord run;
    run.program = program;
    run.name = name;
    run.startCycle = start;
    run.cycles = cycles;
    run.traceBegin = rec.trace.data() + std::min(traceStart, rec.trace.size());
    run.traceEnd = rec.trace.data() + rec.trace.size();
    run.traceBase = cycleStart;
    run.stepsTruncated = rec.truncated;
    run.stepCounts.resize(rec.counts.size());
    for (std::size_t k = 0; k != rec.counts.size(); ++k)
      run.stepCounts[k] = rec.counts[k] - countsBefore[k];
    countsBefore.clear();
    countsBefore.shrink_to_fit();
    db->writeRun(rec.estimates(), run);
    db->setMeta({{"runs_total", std::to_string(runsTotal)},
                 {"runs_profiled", std::to_string(db->runsWritten())}});
    logging::debug(logging::Module::Profiler,
                   "autoReport: run {} (program {}{}) written to {}: {} cycles, "
                   "{} steps",
                   db->runsWritten(), program, name.empty() ? "" : " '" + name + "'",
                   dir, cycles, rec.trace.size() - std::min(traceStart, rec.trace.size()));
  } else {
    logging::debug(logging::Module::Profiler,
                   "autoReport: run {} (program {}) not written: the first {} "
                   "runs are (autoReport.executionProfileProgramRunCount)",
                   runsTotal, program, opts.programRunCount);
  }
}

} // namespace poplar
