// The loggers of PopART's modules: one spdlog logger per module, named
// "popart:<module>", sharing one sink chosen by POPART_LOG_DEST.
#include <popart/error.hpp>
#include <popart/logging.hpp>

#include "core/LoggingState.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <array>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <fstream>

namespace popart {
namespace logging {
namespace {

constexpr std::size_t numModules = static_cast<std::size_t>(Module::none) + 1;

const char *const moduleNames[numModules] = {
    "popart", "session", "ir",  "devicex", "transform", "pattern",
    "builder", "op",     "opx", "ces",     "python",    "none"};

std::string environment(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

spdlog::level::level_enum toSpdlog(Level l) {
  switch (l) {
  case Level::Trace:
    return spdlog::level::trace;
  case Level::Debug:
    return spdlog::level::debug;
  case Level::Info:
    return spdlog::level::info;
  case Level::Warn:
    return spdlog::level::warn;
  case Level::Err:
    return spdlog::level::err;
  case Level::Critical:
    return spdlog::level::critical;
  default:
    return spdlog::level::off;
  }
}

spdlog::sink_ptr makeSink() {
  const std::string dest = environment("POPART_LOG_DEST");
  if (dest.empty() || dest == "stderr")
    return std::make_shared<spdlog::sinks::stderr_sink_mt>();
  if (dest == "stdout")
    return std::make_shared<spdlog::sinks::stdout_sink_mt>();
  try {
    return std::make_shared<spdlog::sinks::basic_file_sink_mt>(dest, true);
  } catch (const std::exception &e) {
    throw error("POPART_LOG_DEST: cannot write the log to '{}': {}", dest,
                e.what());
  }
}

struct Loggers {
  std::array<std::shared_ptr<spdlog::logger>, numModules> byModule;
  std::array<Level, numModules> levels;

  Loggers() {
    auto sink = makeSink();
    // The guide's line: [<timestamp>] [popart:<module>] [<level>] <text>
    sink->set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%n] [%l] %v");
    const std::string levelName = environment("POPART_LOG_LEVEL");
    Level level = Level::Off;
    try {
      if (!levelName.empty())
        level = levelFromString(levelName);
    } catch (const error &e) {
      throw error("POPART_LOG_LEVEL: {}", e.what());
    }
    for (std::size_t i = 0; i != numModules; ++i) {
      auto l = std::make_shared<spdlog::logger>(
          std::string("popart:") + moduleNames[i], sink);
      l->flush_on(spdlog::level::trace);
      byModule[i] = std::move(l);
      set(static_cast<Module>(i), level);
    }
    const std::string configFile = environment("POPART_LOG_CONFIG");
    if (!configFile.empty())
      readConfig(configFile);
  }

  void set(Module m, Level l) {
    auto i = static_cast<std::size_t>(m);
    levels[i] = l;
    byModule[i]->set_level(toSpdlog(l));
  }

  // A JSON object of module names and levels; it overrides POPART_LOG_LEVEL.
  void readConfig(const std::string &file) {
    for (const auto &[module, level] : readLogConfig(file))
      set(module, level);
  }
};

std::atomic<bool> initialised{false};

Loggers &loggers() {
  static Loggers instance; // throws popart::error for a bad environment
  initialised = true;
  return instance;
}

} // namespace

bool isInitialised() { return initialised; }

std::string moduleName(Module m) { return moduleNames[static_cast<std::size_t>(m)]; }

std::vector<std::pair<Module, Level>> readLogConfig(const std::string &file) {
  std::ifstream in(file);
  if (!in)
    throw error("POPART_LOG_CONFIG: cannot open '{}'", file);
  nlohmann::json config;
  try {
    in >> config;
  } catch (const std::exception &e) {
    throw error("POPART_LOG_CONFIG: '{}' is not JSON: {}", file, e.what());
  }
  if (!config.is_object())
    throw error("POPART_LOG_CONFIG: '{}' must hold a JSON object of "
                "module:level pairs",
                file);
  std::map<std::string, std::string> pairs;
  for (auto it = config.begin(); it != config.end(); ++it) {
    if (!it.value().is_string())
      throw error("POPART_LOG_CONFIG: the level of module '{}' in '{}' "
                  "must be a string",
                  it.key(), file);
    pairs[it.key()] = it.value().get<std::string>();
  }
  std::vector<std::pair<Module, Level>> levels;
  for (const auto &p : pairs) {
    try {
      levels.emplace_back(moduleFromString(p.first), levelFromString(p.second));
    } catch (const error &e) {
      throw error("POPART_LOG_CONFIG '{}': {}", file, e.what());
    }
  }
  return levels;
}

Module moduleFromString(const std::string &name) {
  for (std::size_t i = 0; i != numModules; ++i)
    if (name == moduleNames[i])
      return static_cast<Module>(i);
  throw error("Unknown logging module '{}'", name);
}

Level levelFromString(const std::string &name) {
  std::string upper = name;
  for (auto &c : upper)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "TRACE")
    return Level::Trace;
  if (upper == "DEBUG")
    return Level::Debug;
  if (upper == "INFO")
    return Level::Info;
  if (upper == "WARN")
    return Level::Warn;
  if (upper == "ERR")
    return Level::Err;
  if (upper == "CRITICAL")
    return Level::Critical;
  if (upper == "OFF")
    return Level::Off;
  throw error("Unknown logging level '{}': use TRACE, DEBUG, INFO, WARN, ERR, "
              "CRITICAL or OFF",
              name);
}

void setLogLevel(Module m, Level l) { loggers().set(m, l); }

Level getLogLevel(Module m) {
  return loggers().levels[static_cast<std::size_t>(m)];
}

bool shouldLog(Module m, Level l) {
  return l != Level::Off && l >= getLogLevel(m);
}

void flush(Module m) { loggers().byModule[static_cast<std::size_t>(m)]->flush(); }

void configure(const std::map<std::string, std::string> &config) {
  for (const auto &p : config) {
    Level l = levelFromString(p.second);
    if (p.first == "all") {
      for (std::size_t i = 0; i != numModules; ++i)
        setLogLevel(static_cast<Module>(i), l);
    } else {
      setLogLevel(moduleFromString(p.first), l);
    }
  }
}

void log(Module m, Level l, const std::string &msg) {
  if (shouldLog(m, l))
    loggers().byModule[static_cast<std::size_t>(m)]->log(toSpdlog(l), msg);
}

} // namespace logging

namespace logger {
void setLevel(const std::string &module, const std::string &level) {
  logging::configure({{module == "popart" ? "all" : module, level}});
}
} // namespace logger

} // namespace popart
