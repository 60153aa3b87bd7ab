// PopLibs' log: one spdlog logger per library, configured from the
// environment as the user guide describes.
//
//   POPLIBS_LOG_LEVEL           OFF, ERR, WARN, INFO, DEBUG or TRACE
//                               (default OFF)
//   POPLIBS_<LIBRARY>_LOG_LEVEL the same for one library, overriding it
//                               (POPLIBS_POPLIN_LOG_LEVEL, ...)
//   POPLIBS_LOG_DEST            stdout, stderr (default) or a file name
//
// Lines look like "12:34:56.789 4242 PL:POPLIN [I] message": as Poplar's
// (PO:...), with "PL:" and the library. Messages are formatted only when
// their level is enabled. The loggers live in libpoputil, which every
// PopLibs library links; this header is private to PopLibs.
#ifndef POPLIBS_SUPPORT_LOGGING_HPP
#define POPLIBS_SUPPORT_LOGGING_HPP

#include <poputil/poputil_export.hpp>

#include <spdlog/spdlog.h>

#include <utility>

namespace poplibs_support {
namespace logging {

enum class Module { poplin, popnn, popops, poprand, popsolver, poputil };

/// The logger of a library, created on first use.
POPUTIL_API spdlog::logger &logger(Module module);

#define POPLIBS_LOG_FUNCTIONS(MODULE)                                          \
  namespace MODULE {                                                           \
  template <class... Args>                                                     \
  void trace(fmt::format_string<Args...> f, Args &&...args) {                  \
    logger(Module::MODULE).trace(f, std::forward<Args>(args)...);              \
  }                                                                            \
  template <class... Args>                                                     \
  void debug(fmt::format_string<Args...> f, Args &&...args) {                  \
    logger(Module::MODULE).debug(f, std::forward<Args>(args)...);              \
  }                                                                            \
  template <class... Args>                                                     \
  void info(fmt::format_string<Args...> f, Args &&...args) {                   \
    logger(Module::MODULE).info(f, std::forward<Args>(args)...);               \
  }                                                                            \
  template <class... Args>                                                     \
  void warn(fmt::format_string<Args...> f, Args &&...args) {                   \
    logger(Module::MODULE).warn(f, std::forward<Args>(args)...);               \
  }                                                                            \
  template <class... Args>                                                     \
  void err(fmt::format_string<Args...> f, Args &&...args) {                    \
    logger(Module::MODULE).error(f, std::forward<Args>(args)...);              \
  }                                                                            \
  inline bool shouldLog(spdlog::level::level_enum level) {                     \
    return logger(Module::MODULE).should_log(level);                           \
  }                                                                            \
  }
POPLIBS_LOG_FUNCTIONS(poplin)
POPLIBS_LOG_FUNCTIONS(popnn)
POPLIBS_LOG_FUNCTIONS(popops)
POPLIBS_LOG_FUNCTIONS(poprand)
POPLIBS_LOG_FUNCTIONS(poputil)
#undef POPLIBS_LOG_FUNCTIONS

} // namespace logging
} // namespace poplibs_support

#endif // POPLIBS_SUPPORT_LOGGING_HPP
