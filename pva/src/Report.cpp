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

// A first pass over CBOR that refuses nesting deeper than the Engine
// writes and containers longer than the input could hold, which the JSON
// library would recurse into until the stack ran out, or allocate for.
class CborLimits : public nlohmann::json_sax<nlohmann::json> {
public:
  explicit CborLimits(std::size_t inputBytes) : inputBytes(inputBytes) {}
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t &) override { return true; }
  bool string(string_t &) override { return true; }
  bool binary(binary_t &) override { return true; }
  bool key(string_t &) override { return true; }
  bool start_object(std::size_t elements) override { return open(elements); }
  bool start_array(std::size_t elements) override { return open(elements); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string &,
                   const nlohmann::detail::exception &) override {
    return false;
  }

private:
  static constexpr std::size_t maxDepth = 64;
  std::size_t inputBytes, depth = 0;
  bool open(std::size_t elements) {
    const bool known = elements != std::size_t(-1); // -1: indefinite length
    return ++depth <= maxDepth && (!known || elements <= inputBytes);
  }
  bool close() {
    --depth;
    return true;
  }
};

// debug.cbor, as the Engine writes it beside profile.pop.
void checkDebugInfo(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw error("Cannot open the debug information '" + path + "'");
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  nlohmann::json info;
  try {
    CborLimits limits(bytes.size());
    if (!nlohmann::json::sax_parse(bytes, &limits, nlohmann::json::input_format_t::cbor))
      throw error("'" + path + "' is not a debug.cbor written by the Engine: it is "
                  "not CBOR, or nests or counts more than one can");
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
