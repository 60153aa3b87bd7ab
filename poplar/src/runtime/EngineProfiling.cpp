// The Engine's profiles: the graph profile from the estimates made at
// compile time, the execution profile from the simulated steps recorded
// by run(), the summary, and the graph report written at construction.
#include "runtime/EngineImpl.hpp"

#include "core/Logging.hpp"
#include "profiling/Profiles.hpp"

#include <poplar/exceptions.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>

namespace poplar {
namespace {

profiling::Instrumentation instrumentation(const OptionFlags &options) {
  profiling::Instrumentation i;
  // Reports with an execution profile turn instrumentation on unless the
  // options say otherwise, as the original's autoReport does.
  const bool all = engineOptionIs(options, "debug.instrument",
                                  autoReportOptions(options).executionProfile);
  i.compute = engineOptionIs(options, "debug.instrumentCompute", all);
  i.externalExchange =
      engineOptionIs(options, "debug.instrumentExternalExchange", all);
  auto level = options.find("debug.computeInstrumentationLevel");
  if (level != options.end())
    i.level = level->second;
  return i;
}

void requireProfile(const Engine::Impl &e, const char *what) {
  if (!e.exe->estimates)
    throw profiling_disabled(
        std::string(what) + ": the " + toString(e.exe->target.getTargetType()) +
        " target has no profiling information (use an IPU Model device)");
}

} // namespace

namespace {

// The value of an unsigned option (checked by resolveEngineOptions), if set.
bool unsignedOption(const OptionFlags &options, const char *name,
                    unsigned long long &value) {
  auto it = options.find(name);
  if (it == options.end())
    return false;
  value = std::strtoull(it->second.c_str(), nullptr, 0);
  return true;
}

void checkCaptureOptions(Engine::Impl &e) {
  const Target &target = e.exe->target;
  unsigned long long value = 0;
  for (const char *tileOption : {"debug.profilingTile", "debug.branchRecordTile"}) {
    if (!unsignedOption(e.options, tileOption, value))
      continue;
    if (value >= target.getTilesPerIPU())
      throw invalid_option("Engine option '" + std::string(tileOption) +
                           "' is " + std::to_string(value) + ": an IPU of the " +
                           toString(target.getTargetType()) + " target has " +
                           std::to_string(target.getTilesPerIPU()) +
                           " tiles (0 to " +
                           std::to_string(target.getTilesPerIPU() - 1) + ")");
    logging::info(logging::Module::Profiler,
                  "{}={}: the simulation records cycles and branches without "
                  "tile memory, so no tile's memory is set aside for them "
                  "here",
                  tileOption, value);
  }
  if (unsignedOption(e.options, "profiler.replicaToProfile", value)) {
    const unsigned replicas = e.exe->replicationFactor;
    if (value >= replicas)
      throw invalid_option("Engine option 'profiler.replicaToProfile' is " +
                           std::to_string(value) + ": the graph has " +
                           std::to_string(replicas) + " replica(s)");
    e.profiledReplica = static_cast<unsigned>(value);
    logging::info(logging::Module::Profiler,
                  "profiler.replicaToProfile={}: the profile is replica {}'s",
                  value, value);
  }
}

} // namespace

void setUpProfiling(Engine::Impl &e) {
  checkCaptureOptions(e);
  if (!e.exe->estimates)
    return;
  // debug.instrument=false turns execution profiling off unless one of
  // the kinds of instrumentation is asked for explicitly.
  const bool off = !engineOptionIs(e.options, "debug.instrument", true) &&
                   !engineOptionIs(e.options, "debug.instrumentCompute", false) &&
                   !engineOptionIs(e.options, "debug.instrumentExternalExchange",
                                   false);
  if (!off) {
    e.recorder = std::make_unique<model::ExecutionRecorder>(e.exe->estimates);
    e.recorder->setSyncConfiguration(e.syncConfiguration);
    e.recording = true;
  }
}

void writeRequestedGraphReport(const Engine &engine) {
  const auto &e = engine.getImpl();
  std::string dest;
  auto opt = e.options.find("debug.graphReportDestination");
  if (opt != e.options.end())
    dest = opt->second;
  else if (const char *env = std::getenv("POPLAR_GRAPH_REPORT_DEST"))
    dest = env;
  if (dest.empty())
    return;
  if (!e.exe->estimates) {
    logging::info(logging::Module::Engine,
                  "No graph report for the {} target: it has no profile",
                  toString(e.exe->target.getTargetType()));
    return;
  }
  // The graph part only: nothing has run yet.
  const ProfileValue graph = engine.getGraphProfile();
  if (dest == "stdout") {
    poplar::printGraphSummary(std::cout, graph);
  } else if (dest == "stderr") {
    poplar::printGraphSummary(std::cerr, graph);
  } else {
    std::ofstream out(dest);
    if (!out)
      throw poplar_error("Cannot write the graph report to '" + dest + "'");
    poplar::printGraphSummary(out, graph);
  }
}

ProfileValue Engine::getGraphProfile() const {
  requireProfile(*impl, "Engine::getGraphProfile");
  if (!engineOptionIs(impl->options, "debug.retainDebugInformation", true))
    throw profiling_disabled(
        "Engine::getGraphProfile: debug.retainDebugInformation is \"false\", "
        "so the compilation information the graph profile needs was not kept");
  if (!impl->graphProfile)
    impl->graphProfile = std::make_shared<const ProfileValue>(
        profiling::graphProfile(*impl->exe->estimates));
  return *impl->graphProfile;
}

ProfileValue Engine::getExecutionProfile() const {
  requireProfile(*impl, "Engine::getExecutionProfile");
  if (!impl->recorder)
    throw profiling_disabled(
        "Engine::getExecutionProfile: execution profiling is disabled "
        "(debug.instrument is \"false\"); enable it with "
        "Engine::enableExecutionProfiling or the debug.instrument option");
  return profiling::executionProfile(*impl->recorder,
                                     instrumentation(impl->options));
}

void Engine::resetExecutionProfile() {
  if (impl->recorder)
    impl->recorder->reset();
}

void Engine::enableExecutionProfiling() {
  requireProfile(*impl, "Engine::enableExecutionProfiling");
  if (!impl->recorder) {
    impl->recorder = std::make_unique<model::ExecutionRecorder>(impl->exe->estimates);
    impl->recorder->setSyncConfiguration(impl->syncConfiguration);
  }
  impl->recording = true;
}

void Engine::disableExecutionProfiling() { impl->recording = false; }

void Engine::printProfileSummary(std::ostream &out, const OptionFlags &opts) const {
  const ProfileValue graph = getGraphProfile();
  if (impl->recorder)
    poplar::printProfileSummary(out, graph, getExecutionProfile(), opts);
  else
    poplar::printProfileSummary(out, graph, {}, opts);
}

} // namespace poplar
