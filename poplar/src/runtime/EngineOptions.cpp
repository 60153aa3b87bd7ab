// The engine options this SDK knows, and how POPLAR_ENGINE_OPTIONS
// overrides those a program gives.
#include "runtime/EngineImpl.hpp"

#include "core/Logging.hpp"

#include <poplar/exceptions.hpp>

#include <cstdlib>
#include <map>

namespace poplar {
namespace {

enum class OptionKind {
  Bool,
  Unsigned,
  Text,
  Path,
  InstrumentationLevel,
  BufferOverlap
};

const std::map<std::string, OptionKind, std::less<>> &knownOptions() {
  static const std::map<std::string, OptionKind, std::less<>> options = {
      {"debug.allowOutOfMemory", OptionKind::Bool},
      {"debug.branchRecordTile", OptionKind::Unsigned},
      {"debug.computeInstrumentationLevel", OptionKind::InstrumentationLevel},
      {"debug.floatPointOpException", OptionKind::Bool},
      {"debug.graphReportDestination", OptionKind::Text},
      {"debug.instrument", OptionKind::Bool},
      {"debug.instrumentCompute", OptionKind::Bool},
      {"debug.instrumentControlFlow", OptionKind::Bool},
      {"debug.instrumentExternalExchange", OptionKind::Bool},
      {"debug.nanOverflowMode", OptionKind::Bool},
      {"debug.profilingTile", OptionKind::Unsigned},
      {"debug.retainDebugInformation", OptionKind::Bool},
      {"debug.verify", OptionKind::Bool},
      {"autoReport.all", OptionKind::Bool},
      {"autoReport.enable", OptionKind::Bool},
      {"autoReport.directory", OptionKind::Path},
      {"autoReport.outputArchive", OptionKind::Bool},
      {"autoReport.outputDebugInfo", OptionKind::Bool},
      {"autoReport.outputExecutionProfile", OptionKind::Bool},
      {"autoReport.outputGraphProfile", OptionKind::Bool},
      {"autoReport.outputLoweredVars", OptionKind::Bool},
      {"autoReport.outputSerializedGraph", OptionKind::Bool},
      {"autoReport.streamAtEachRun", OptionKind::Bool},
      {"autoReport.executionProfileProgramRunCount", OptionKind::Unsigned},
      {"profiler.includeCycleEstimates", OptionKind::Bool},
      {"profiler.includeFlopEstimates", OptionKind::Bool},
      {"profiler.replicaToProfile", OptionKind::Unsigned},
      {"exchange.enablePrefetch", OptionKind::Bool},
      {"exchange.streamBufferOverlap", OptionKind::BufferOverlap},
      {"opt.maxCompilationThreads", OptionKind::Unsigned},
      {"target.saveArchive", OptionKind::Text},
      {"target.supervisorStackSizeInBytes", OptionKind::Unsigned},
      {"target.workerStackSizeInBytes", OptionKind::Unsigned},
  };
  return options;
}

void checkValue(const std::string &key, const std::string &value,
                OptionKind kind) {
  auto bad = [&](const char *expected) {
    throw invalid_option("Invalid value '" + value + "' for engine option '" +
                         key + "': expected " + expected);
  };
  if (kind == OptionKind::Bool && value != "true" && value != "false")
    bad("true or false");
  if (kind == OptionKind::BufferOverlap && value != "none" &&
      value != "hostRearrangeOnly" && value != "any")
    bad("none, hostRearrangeOnly or any");
  if (kind == OptionKind::Path && value.empty())
    bad("a directory name");
  if (kind == OptionKind::InstrumentationLevel && value != "tile" &&
      value != "vertex" && value != "device" && value != "ipu")
    bad("tile, vertex, device or ipu");
  if (kind == OptionKind::Unsigned) {
    if (value.empty() || value.find_first_not_of("0123456789xabcdefABCDEF") !=
                             std::string::npos)
      bad("an unsigned integer");
    char *end = nullptr;
    std::strtoull(value.c_str(), &end, 0);
    if (*end != '\0')
      bad("an unsigned integer");
  }
}

} // namespace

bool engineOptionIs(const OptionFlags &options, const char *name,
                    bool fallback) {
  auto it = options.find(name);
  return it == options.end() ? fallback : it->second == "true";
}

OptionFlags resolveEngineOptions(const OptionFlags &options) {
  OptionFlags resolved = options;
  if (const char *env = std::getenv("POPLAR_ENGINE_OPTIONS"); env && *env) {
    OptionFlags overrides;
    try {
      readJSON(StringRef(env), overrides);
    } catch (const parse_error &e) {
      throw invalid_option(std::string("POPLAR_ENGINE_OPTIONS: ") + e.what());
    }
    for (const auto &[key, value] : overrides) {
      logging::debug(logging::Module::Engine,
                     "POPLAR_ENGINE_OPTIONS sets {}={}", key, value);
      resolved.set(key, value);
    }
  }
  for (const auto &[key, value] : resolved) {
    auto it = knownOptions().find(key);
    if (it == knownOptions().end())
      throw invalid_option("Unrecognised engine option '" + key + "'");
    checkValue(key, value, it->second);
  }
  return resolved;
}

bool streamPrefetchEnabled(const OptionFlags &options) {
  auto overlap = options.find("exchange.streamBufferOverlap");
  return engineOptionIs(options, "exchange.enablePrefetch", true) &&
         overlap != options.end() && overlap->second == "none";
}

} // namespace poplar
