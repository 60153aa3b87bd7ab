#ifndef POPART_SRC_CORE_LOGGINGSTATE_HPP
#define POPART_SRC_CORE_LOGGINGSTATE_HPP

namespace popart {
namespace logging {
/// Whether the loggers have been set up from the environment: errors
/// raised while that is still being done (a bad POPART_LOG_LEVEL) are not
/// logged.
bool isInitialised();
} // namespace logging
} // namespace popart

#endif
