#include <poplibs_support/logging.hpp>
#include <poputil/exceptions.hpp>

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <array>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <string>

namespace poplibs_support::logging {
namespace {

constexpr std::array<const char *, 6> moduleNames = {
    "POPLIN", "POPNN", "POPOPS", "POPRAND", "POPSOLVER", "POPUTIL"};

std::string environment(const std::string &name) {
  const char *value = std::getenv(name.c_str());
  return value ? value : "";
}

spdlog::level::level_enum parseLevel(const std::string &name,
                                     const std::string &variable,
                                     spdlog::level::level_enum fallback) {
  if (name.empty())
    return fallback;
  if (name == "OFF")
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
  throw ::poputil::poplibs_error(variable + "='" + name +
                               "' is not a log level: use OFF, ERR, WARN, "
                               "INFO, DEBUG or TRACE");
}

spdlog::sink_ptr makeSink() {
  const std::string dest = environment("POPLIBS_LOG_DEST");
  if (dest.empty() || dest == "stderr")
    return std::make_shared<spdlog::sinks::stderr_sink_mt>();
  if (dest == "stdout")
    return std::make_shared<spdlog::sinks::stdout_sink_mt>();
  return std::make_shared<spdlog::sinks::basic_file_sink_mt>(dest, true);
}

struct Loggers {
  std::array<std::shared_ptr<spdlog::logger>, moduleNames.size()> byModule;

  Loggers() {
    const auto level = parseLevel(environment("POPLIBS_LOG_LEVEL"),
                                  "POPLIBS_LOG_LEVEL", spdlog::level::off);
    auto sink = makeSink();
    sink->set_pattern("%H:%M:%S.%e %P %-12n [%L] %v");
    for (std::size_t i = 0; i != byModule.size(); ++i) {
      const std::string variable =
          std::string("POPLIBS_") + moduleNames[i] + "_LOG_LEVEL";
      auto l = std::make_shared<spdlog::logger>(
          std::string("PL:") + moduleNames[i], sink);
      l->set_level(parseLevel(environment(variable), variable, level));
      l->flush_on(spdlog::level::trace); // lines are written as they happen
      byModule[i] = std::move(l);
    }
  }
};

} // namespace

spdlog::logger &logger(Module module) {
  static Loggers loggers;
  return *loggers.byModule[static_cast<std::size_t>(module)];
}

} // namespace poplibs_support::logging
