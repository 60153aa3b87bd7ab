#include "profiling/SummaryFormat.hpp"

#include <poplar/exceptions.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace poplar::profiling {

SummaryOptions parseSummaryOptions(const OptionFlags &opts, std::ostream &out) {
  SummaryOptions o;
  bool coloursSet = false;
  for (const auto &[key, value] : opts) {
    bool *flag = nullptr;
    if (key == "colours") {
      flag = &o.colours;
      coloursSet = true;
    } else if (key == "showVarStorage") {
      flag = &o.showVarStorage;
    } else if (key == "showOptimizations") {
      flag = &o.showOptimizations;
    } else if (key == "showExecutionSteps") {
      flag = &o.showExecutionSteps;
    } else if (key == "showPerIpuMemoryUsage") {
      flag = &o.showPerIpuMemoryUsage;
    } else if (key == "showExchangeInstructionBreakdown") {
      // Accepted and checked; the breakdown is not implemented.
      if (value != "true" && value != "false")
        throw invalid_option("Invalid value '" + value +
                             "' for profile summary option '" + key +
                             "': expected true or false");
      continue;
    } else {
      throw invalid_option("Unrecognised profile summary option '" + key +
                           "' (known: colours, showVarStorage, "
                           "showOptimizations, showExecutionSteps, "
                           "showPerIpuMemoryUsage, "
                           "showExchangeInstructionBreakdown)");
    }
    if (value != "true" && value != "false")
      throw invalid_option("Invalid value '" + value +
                           "' for profile summary option '" + key +
                           "': expected true or false");
    *flag = value == "true";
  }
  const char *force = std::getenv("CLICOLOR_FORCE");
  const char *cli = std::getenv("CLICOLOR");
  if (force && *force && std::string(force) != "0")
    o.colours = true;
  else if (cli && std::string(cli) == "0")
    o.colours = false;
  else if (!coloursSet)
    o.colours = (&out == &std::cout && ::isatty(STDOUT_FILENO)) ||
                ((&out == &std::cerr || &out == &std::clog) &&
                 ::isatty(STDERR_FILENO));
  return o;
}

std::string withCommas(std::uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  const std::size_t first = digits.size() % 3 == 0 ? 3 : digits.size() % 3;
  out = digits.substr(0, first);
  for (std::size_t i = first; i < digits.size(); i += 3)
    out += "," + digits.substr(i, 3);
  return out;
}

std::string withCommas1(double x) {
  const double rounded = std::round(x * 10) / 10;
  const auto whole = static_cast<std::uint64_t>(std::floor(rounded));
  const auto tenth = static_cast<unsigned>(std::llround((rounded - double(whole)) * 10)) % 10;
  return withCommas(whole) + "." + std::to_string(tenth);
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", fraction * 100);
  return buf;
}

void SummaryWriter::heading(const std::string &indent, const std::string &text) {
  out << indent;
  if (colours)
    out << "\033[1;36m" << text << "\033[0m";
  else
    out << text;
  out << '\n';
}

void SummaryWriter::right(const std::string &indent, const std::string &label,
                          const std::string &value, std::size_t column,
                          const std::string &suffix) {
  const std::size_t used = indent.size() + label.size();
  const std::size_t pad =
      used + value.size() + 1 > column ? 1 : column - used - value.size();
  out << indent << label << std::string(pad, ' ') << value << suffix << '\n';
}

void SummaryWriter::left(const std::string &indent, const std::string &label,
                         std::size_t width, const std::string &value) {
  out << indent << label;
  if (label.size() < width)
    out << std::string(width - label.size(), ' ');
  else
    out << ' ';
  out << value << '\n';
}

} // namespace poplar::profiling
