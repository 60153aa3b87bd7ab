#include "core/Logging.hpp"

#include <poplar/exceptions.hpp>

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <array>
#include <cstdlib>
#include <mutex>
#include <string>

namespace poplar::logging {
namespace {

const char *moduleName(Module m) {
  switch (m) {
  case Module::Graph:
    return "PO:GRAPH";
  case Module::Engine:
    return "PO:ENGINE";
  case Module::Device:
    return "PO:DEVICE";
  case Module::Compiler:
    return "PO:COMPILER";
  case Module::Profiler:
    return "PO:PROFILER";
  }
  return "PO";
}

std::string environment(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

spdlog::sink_ptr makeSink() {
  const std::string dest = environment("POPLAR_LOG_DEST");
  if (dest.empty() || dest == "stderr")
    return std::make_shared<spdlog::sinks::stderr_sink_mt>();
  if (dest == "stdout")
    return std::make_shared<spdlog::sinks::stdout_sink_mt>();
  return std::make_shared<spdlog::sinks::basic_file_sink_mt>(dest, true);
}

struct Loggers {
  std::array<std::shared_ptr<spdlog::logger>, 5> byModule;

  Loggers() {
    const auto level =
        parseLevel(environment("POPLAR_LOG_LEVEL"), "POPLAR_LOG_LEVEL");
    const std::string profilerLevel = environment("POPLAR_PROFILER_LOG_LEVEL");
    auto sink = makeSink();
    sink->set_pattern("%H:%M:%S.%e %P %-11n [%L] %v");
    for (unsigned i = 0; i != byModule.size(); ++i) {
      auto l = std::make_shared<spdlog::logger>(
          moduleName(static_cast<Module>(i)), sink);
      l->set_level(static_cast<Module>(i) == Module::Profiler &&
                           !profilerLevel.empty()
                       ? parseLevel(profilerLevel, "POPLAR_PROFILER_LOG_LEVEL")
                       : level);
      l->flush_on(spdlog::level::trace); // lines are written as they happen
      byModule[i] = std::move(l);
    }
  }
};

} // namespace

spdlog::level::level_enum parseLevel(const std::string &name,
                                     const char *variable) {
  if (name.empty() || name == "OFF")
    return spdlog::level::off;
  if (name == "ERR")
    return spdlog::level::err;
  if (name == "WARN")
    return spdlog::level::warn;
  if (name == "INFO")
    return spdlog::level::info;
  if (name == "DEBUG")
    return spdlog::level::debug;
  if (name == "TRACE")
    return spdlog::level::trace;
  throw poplar_error(std::string(variable) + "='" + name +
                     "' is not a log level: use OFF, ERR, WARN, INFO, DEBUG "
                     "or TRACE");
}

spdlog::logger &logger(Module module) {
  static Loggers loggers;
  return *loggers.byModule[static_cast<unsigned>(module)];
}

} // namespace poplar::logging
