#include "session/CompileProgress.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace popart {

CompileProgress::CompileProgress(const SessionOptions &options)
    : logger(options.compilationProgressLogger),
      total(options.compilationProgressTotal),
      terminal(::isatty(STDERR_FILENO) == 1),
      start(std::chrono::steady_clock::now()) {}

CompileProgress::~CompileProgress() {
  if (drawing)
    std::fputc('\n', stderr);
}

int CompileProgress::scaled(int from, int to, int done, int count) {
  if (count <= 0)
    return to;
  const double ratio = std::min(1.0, double(done) / double(count));
  return from + static_cast<int>(std::floor((to - from) * ratio));
}

void CompileProgress::report(int progress) {
  // Stages scale into a total that may be smaller than the original's
  // fixed points (3, 7, 40, 41): keep the reports in range and rising.
  progress = std::min(progress, total);
  if (progress <= last)
    return;
  last = progress;
  if (logger)
    logger(progress, total);
  else
    printDefault(progress);
}

namespace {

// Minutes and seconds, "MM:SS" ("H:MM:SS" from an hour).
std::string clock(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char text[32];
  if (s >= 3600)
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60,
                  s % 60);
  else
    std::snprintf(text, sizeof text, "%02ld:%02ld", s / 60, s % 60);
  return text;
}

} // namespace

std::string CompileProgress::bar(int progress, int total, double seconds,
                                 unsigned width) {
  // The line users of the original see:
  //   Graph compilation: 100%|██████████| 100/100 [00:27<00:00]
  // with eighths of a block for the partly filled cell.
  static const char *const eighths[] = {"",      "\u258f", "\u258e",
                                        "\u258d", "\u258c", "\u258b",
                                        "\u258a", "\u2589"};
  const double ratio =
      total > 0 ? std::clamp(double(progress) / double(total), 0.0, 1.0) : 0.0;
  const unsigned cells = unsigned(ratio * width * 8);
  std::string line = "Graph compilation: ";
  char percent[8];
  std::snprintf(percent, sizeof percent, "%3d%%",
                total > 0 ? std::clamp(progress, 0, total) * 100 / total : 0);
  line += percent;
  line += '|';
  unsigned drawn = 0;
  for (; drawn < cells / 8; ++drawn)
    line += "\u2588";
  if (drawn < width && cells % 8) {
    line += eighths[cells % 8];
    ++drawn;
  }
  line.append(width - drawn, ' ');
  const std::string remaining =
      progress > 0 ? clock(seconds * (total - progress) / progress) : "?";
  return line + "| " + std::to_string(progress) + "/" + std::to_string(total) +
         " [" + clock(seconds) + "<" + remaining + "]";
}

void CompileProgress::printDefault(int progress) {
  const int percent = progress * 100 / total;
  if (percent != lastPercent) {
    lastPercent = percent;
    logging::devicex::info("Compilation {}% complete", percent);
  }
  const double seconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count();
  // Only long preparations get a bar, and only on a terminal.
  if (!terminal || (!drawing && seconds < 1.0))
    return;
  drawing = true;
  std::fprintf(stderr, "\r%s", bar(progress, total, seconds).c_str());
  std::fflush(stderr);
}

} // namespace popart
