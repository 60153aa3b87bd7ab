#ifndef POPART_SRC_CORE_LOGGINGSTATE_HPP
#define POPART_SRC_CORE_LOGGINGSTATE_HPP

#include <popart/logging.hpp>

#include <string>
#include <utility>
#include <vector>

namespace popart {
namespace logging {
/// Whether the loggers have been set up from the environment: errors
/// raised while that is still being done (a bad POPART_LOG_LEVEL) are not
/// logged.
bool isInitialised();

/// Reads a POPART_LOG_CONFIG file: a JSON object of module names and
/// levels. Throws popart::error naming the file and what is wrong with it.
std::vector<std::pair<Module, Level>> readLogConfig(const std::string &file);
} // namespace logging
} // namespace popart

#endif
