// Logging by module. Lines go through spdlog inside the library, in the
// format "[<timestamp>] [popart:<module>] [<level>] <message>". The level
// of every module comes from POPART_LOG_LEVEL (default OFF), per-module
// levels from the JSON file named by POPART_LOG_CONFIG, and the
// destination from POPART_LOG_DEST (stderr, stdout or a file name).
#ifndef POPART_LOGGING_HPP
#define POPART_LOGGING_HPP

#include <popart/popart_export.hpp>

#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace popart {
namespace logging {

enum class Level { Trace = 0, Debug, Info, Warn, Err, Critical, Off, N };

enum class Module {
  popart = 0,
  session,
  ir,
  devicex,
  transform,
  pattern,
  builder,
  op,
  opx,
  ces,
  python,
  none,
};

POPART_API void setLogLevel(Module m, Level l);
POPART_API Level getLogLevel(Module m);
POPART_API bool shouldLog(Module m, Level l);
POPART_API void flush(Module m);
/// Levels by module name ("session" -> "DEBUG"; "all" for every module).
POPART_API void configure(const std::map<std::string, std::string> &config);
/// Writes one line (already formatted) to the log of module m.
POPART_API void log(Module m, Level l, const std::string &msg);

POPART_API std::string moduleName(Module m);
POPART_API Module moduleFromString(const std::string &name);
/// TRACE, DEBUG, INFO, WARN, ERR, CRITICAL or OFF (any case).
POPART_API Level levelFromString(const std::string &name);

namespace detail {
template <typename T> void put(std::ostringstream &out, const T &v) { out << v; }
template <typename T>
void put(std::ostringstream &out, const std::vector<T> &v) {
  out << "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i)
      out << " ";
    put(out, v[i]);
  }
  out << "]";
}
inline void formatInto(std::ostringstream &out, const std::string &ref,
                       std::size_t pos) {
  out << ref.substr(pos);
}
template <typename T, typename... Args>
void formatInto(std::ostringstream &out, const std::string &ref,
                std::size_t pos, T &&first, Args &&...rest) {
  auto at = ref.find("{}", pos);
  if (at == std::string::npos) {
    out << ref.substr(pos);
    return;
  }
  out << ref.substr(pos, at - pos);
  put(out, first);
  formatInto(out, ref, at + 2, std::forward<Args>(rest)...);
}
} // namespace detail

/// Replaces each "{}" of ref by the next argument, written with <<.
template <typename... Args> std::string format(std::string ref, Args &&...args) {
  std::ostringstream out;
  detail::formatInto(out, ref, 0, std::forward<Args>(args)...);
  return out.str();
}

template <typename... Args>
void log(Module m, Level l, const std::string &fmt, Args &&...args) {
  if (shouldLog(m, l))
    log(m, l, format(fmt, std::forward<Args>(args)...));
}

// logging::<module>::debug(...) and friends; the plain ones log to the
// module "popart".
#define POPART_LOGGING_MODULE_FUNCTIONS(MODULE)                               \
  template <typename... Args> void trace(const std::string &f, Args &&...a) { \
    logging::log(MODULE, Level::Trace, f, std::forward<Args>(a)...);         \
  }                                                                           \
  template <typename... Args> void debug(const std::string &f, Args &&...a) { \
    logging::log(MODULE, Level::Debug, f, std::forward<Args>(a)...);         \
  }                                                                           \
  template <typename... Args> void info(const std::string &f, Args &&...a) {  \
    logging::log(MODULE, Level::Info, f, std::forward<Args>(a)...);          \
  }                                                                           \
  template <typename... Args> void warn(const std::string &f, Args &&...a) {  \
    logging::log(MODULE, Level::Warn, f, std::forward<Args>(a)...);          \
  }                                                                           \
  template <typename... Args> void err(const std::string &f, Args &&...a) {   \
    logging::log(MODULE, Level::Err, f, std::forward<Args>(a)...);           \
  }                                                                           \
  template <typename... Args> void crit(const std::string &f, Args &&...a) {  \
    logging::log(MODULE, Level::Critical, f, std::forward<Args>(a)...);      \
  }                                                                           \
  inline void setLogLevel(Level l) { logging::setLogLevel(MODULE, l); }       \
  inline bool isEnabled(Level l) { return logging::shouldLog(MODULE, l); }    \
  inline void flush() { logging::flush(MODULE); }

POPART_LOGGING_MODULE_FUNCTIONS(Module::popart)
namespace session { POPART_LOGGING_MODULE_FUNCTIONS(Module::session) }
namespace ir { POPART_LOGGING_MODULE_FUNCTIONS(Module::ir) }
namespace devicex { POPART_LOGGING_MODULE_FUNCTIONS(Module::devicex) }
namespace transform { POPART_LOGGING_MODULE_FUNCTIONS(Module::transform) }
namespace pattern { POPART_LOGGING_MODULE_FUNCTIONS(Module::pattern) }
namespace builder { POPART_LOGGING_MODULE_FUNCTIONS(Module::builder) }
namespace op { POPART_LOGGING_MODULE_FUNCTIONS(Module::op) }
namespace opx { POPART_LOGGING_MODULE_FUNCTIONS(Module::opx) }
namespace ces { POPART_LOGGING_MODULE_FUNCTIONS(Module::ces) }
#undef POPART_LOGGING_MODULE_FUNCTIONS

} // namespace logging

/// The spelling of the user guide's C++ example:
/// popart::logger::setLevel("session", "OFF"); "popart" (or "all") sets
/// every module.
namespace logger {
POPART_API void setLevel(const std::string &module, const std::string &level);
} // namespace logger

} // namespace popart

#endif
