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

std::string CompileProgress::bar(int progress, int total, double seconds,
                                 unsigned width) {
  const unsigned filled =
      total > 0 ? unsigned(std::lround(double(width) * progress / total)) : 0;
  std::string line = "Graph compilation: ";
  char percent[8];
  std::snprintf(percent, sizeof percent, "%3d%%",
                total > 0 ? progress * 100 / total : 0);
  line += percent;
  line += " [";
  line.append(std::min(filled, width), '#');
  line.append(width - std::min(filled, width), ' ');
  char tail[48];
  std::snprintf(tail, sizeof tail, "] %d/%d %.1f s", progress, total, seconds);
  return line + tail;
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
