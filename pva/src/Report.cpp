// Opening a report, and what it says about itself.
#include "ReportData.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>
#include <sstream>

namespace pva {

Version::Version(std::string version) : text(std::move(version)) {
  std::istringstream in(text);
  for (unsigned &part : parts) {
    if (!(in >> part))
      break;
    if (in.peek() == '.')
      in.get();
  }
}

namespace {

const std::string &metaValue(const detail::ReportData &r, const std::string &key) {
  static const std::string none;
  auto it = r.meta.find(key);
  return it == r.meta.end() ? none : it->second;
}

// debug.cbor, as the Engine writes it beside profile.pop.
void checkDebugInfo(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw error("Cannot open the debug information '" + path + "'");
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  nlohmann::json info;
  try {
    info = nlohmann::json::from_cbor(bytes, true, false);
  } catch (const nlohmann::json::exception &e) {
    // Some malformed input throws even when exceptions are not asked for.
    throw error("'" + path + "' is not a debug.cbor written by the Engine: " +
                e.what());
  }
  const auto format = info.is_object() ? info.find("format") : info.end();
  if (info.is_discarded() || !info.is_object() || format == info.end() ||
      *format != "poplar-debug-info")
    throw error("'" + path + "' is not a debug.cbor written by the Engine");
}

} // namespace

Version Report::poplarVersion() const { return Version(metaValue(*report, "sdk_version")); }
Version Report::version() const { return Version(metaValue(*report, "format_version")); }
const std::string &Report::engineName() const { return metaValue(*report, "engine_name"); }
bool Report::complete() const { return metaValue(*report, "complete") == "1"; }
const std::string &Report::path() const { return report->path; }

Report openReport(const std::string &profilePath, const std::string &debugPath) {
  if (!debugPath.empty())
    checkDebugInfo(debugPath);
  return Report(std::make_shared<const detail::ReportData>(profilePath));
}

} // namespace pva
