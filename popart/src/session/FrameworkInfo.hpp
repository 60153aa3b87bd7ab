// framework.json: what PopART tells the PopVision tools about a session,
// written beside the reports of its engine.
#ifndef POPART_SRC_SESSION_FRAMEWORKINFO_HPP
#define POPART_SRC_SESSION_FRAMEWORKINFO_HPP

#include <popart/sessionoptions.hpp>

#include <poplar/Target.hpp>

#include <map>
#include <string>

namespace popart {

class Ir;

/// The directory the engine named `engineName` writes its reports to
/// under these engine options (POPLAR_ENGINE_OPTIONS winning, as in
/// Poplar), or "" when it writes none.
std::string engineReportDirectory(const std::map<std::string, std::string> &engineOptions,
                                  const std::string &engineName);

/// Writes <report directory>/framework.json for the session's engine once
/// Poplar has made its reports; nothing when it writes none. A file that
/// cannot be written is a warning: the session runs without it.
/// `executable` says where the engine's executable came from.
void writeFrameworkInfo(const Ir &ir, const poplar::Target &target,
                        const std::string &sessionName,
                        const std::string &executable);

} // namespace popart

#endif // POPART_SRC_SESSION_FRAMEWORKINFO_HPP
