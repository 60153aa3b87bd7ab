// Text helpers of the profile summary: numbers with thousands separators,
// aligned label/value lines, optional colour, and the summary options.
#ifndef POPLAR_SRC_PROFILING_SUMMARYFORMAT_HPP
#define POPLAR_SRC_PROFILING_SUMMARYFORMAT_HPP

#include <poplar/OptionFlags.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>

namespace poplar::profiling {

/// The printProfileSummary options; throws poplar::invalid_option naming
/// an unknown option or a value other than true and false.
struct SummaryOptions {
  bool colours = false;
  bool showVarStorage = false;
  bool showOptimizations = false;
  bool showExecutionSteps = false;
  bool showPerIpuMemoryUsage = false;
};

/// Colours: CLICOLOR_FORCE (not "0") turns them on whatever else says;
/// otherwise CLICOLOR=0 turns them off; otherwise the colours option;
/// otherwise on when `out` is standard output or error on a terminal.
SummaryOptions parseSummaryOptions(const OptionFlags &opts, std::ostream &out);

/// 1234567 -> "1,234,567".
std::string withCommas(std::uint64_t n);
/// 1600.0 -> "1,600.0" (one decimal).
std::string withCommas1(double x);
/// 0.915 -> "91.5%".
std::string percent(double fraction);

/// Writes output for one summary, with headings in colour when enabled.
class SummaryWriter {
public:
  SummaryWriter(std::ostream &out, bool colours) : out(out), colours(colours) {}

  std::ostream &os() { return out; }
  /// A heading line (bold when colours are on).
  void heading(const std::string &indent, const std::string &text);
  /// indent + label, then the value right-aligned so it ends at `column`.
  void right(const std::string &indent, const std::string &label,
             const std::string &value, std::size_t column,
             const std::string &suffix = "");
  /// indent + label padded to `width`, then the value.
  void left(const std::string &indent, const std::string &label,
            std::size_t width, const std::string &value);

private:
  std::ostream &out;
  bool colours;
};

} // namespace poplar::profiling

#endif // POPLAR_SRC_PROFILING_SUMMARYFORMAT_HPP
