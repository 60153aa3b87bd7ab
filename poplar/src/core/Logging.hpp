// Poplar's log: spdlog loggers per module, configured from the environment.
//
//   POPLAR_LOG_LEVEL  OFF, ERR, WARN, INFO, DEBUG or TRACE (default OFF)
//   POPLAR_LOG_DEST   stdout, stderr (default) or a file name
//
// Lines look like "12:34:56.789 4242 PO:ENGINE [I] message": time, process
// id, "PO:" and the module, the level's letter, the message. Messages are
// formatted only when their level is enabled.
#ifndef POPLAR_SRC_CORE_LOGGING_HPP
#define POPLAR_SRC_CORE_LOGGING_HPP

#include <spdlog/spdlog.h>

#include <memory>

namespace poplar::logging {

/// Profiler is the log of the profiler's steps (report files written, runs
/// recorded), at POPLAR_PROFILER_LOG_LEVEL when that is set.
enum class Module { Graph, Engine, Device, Compiler, Profiler };

/// The logger of a module, created on first use.
spdlog::logger &logger(Module module);

template <class... Args>
void trace(Module m, fmt::format_string<Args...> f, Args &&...args) {
  logger(m).trace(f, std::forward<Args>(args)...);
}
template <class... Args>
void debug(Module m, fmt::format_string<Args...> f, Args &&...args) {
  logger(m).debug(f, std::forward<Args>(args)...);
}
template <class... Args>
void info(Module m, fmt::format_string<Args...> f, Args &&...args) {
  logger(m).info(f, std::forward<Args>(args)...);
}
template <class... Args>
void warn(Module m, fmt::format_string<Args...> f, Args &&...args) {
  logger(m).warn(f, std::forward<Args>(args)...);
}
template <class... Args>
void error(Module m, fmt::format_string<Args...> f, Args &&...args) {
  logger(m).error(f, std::forward<Args>(args)...);
}

/// Parses a level name of the guide (OFF, ERR, WARN, INFO, DEBUG, TRACE);
/// throws poplar::poplar_error naming the variable for anything else.
spdlog::level::level_enum parseLevel(const std::string &name,
                                     const char *variable);

} // namespace poplar::logging

#endif // POPLAR_SRC_CORE_LOGGING_HPP
