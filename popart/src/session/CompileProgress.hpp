// The progress of preparing a session's device, reported to
// SessionOptions::compilationProgressLogger as (progress, total) with
// total = compilationProgressTotal, in the original's stages: 0 when the
// session starts, 3 at lowering, 7 to 40 while the ops are lowered, 41 to
// total while Poplar compiles, total when done (at once for an executable
// loaded from a file or the cache).
//
// Without a logger, each new percentage is an info line of the devicex log
// ("Compilation 41% complete", as the original), and a progress bar is
// drawn on standard error when it is a terminal and the preparation has
// taken more than a second; nothing is drawn otherwise.
#ifndef POPART_SRC_SESSION_COMPILEPROGRESS_HPP
#define POPART_SRC_SESSION_COMPILEPROGRESS_HPP

#include <popart/sessionoptions.hpp>

#include <chrono>
#include <functional>
#include <string>

namespace popart {

class CompileProgress {
public:
  /// compilationProgressTotal is positive (checkSessionOptions).
  explicit CompileProgress(const SessionOptions &options);
  ~CompileProgress();
  CompileProgress(const CompileProgress &) = delete;
  CompileProgress &operator=(const CompileProgress &) = delete;

  void started() { report(0); }
  void loweringStarted() { report(3); }
  void opLowered(int done, int count) { report(scaled(7, 40, done, count)); }
  /// Poplar's compile progress (step, steps), as a poplar::ProgressFunc.
  void compiling(int step, int steps) {
    report(scaled(41, total, step, steps));
  }
  void complete() { report(total); }

  /// One line of the terminal bar, for `progress` of `total` after
  /// `seconds`, as the original's users see it ("Graph compilation:
  /// 41%|████ ...| 41/100 [00:02<00:03]": elapsed, then the time left at
  /// this rate); what the default printer draws, tested on its own.
  static std::string bar(int progress, int total, double seconds,
                         unsigned width = 10);

private:
  static int scaled(int from, int to, int done, int count);
  void report(int progress);
  void printDefault(int progress);

  std::function<void(int, int)> logger;
  int total = 100;
  int last = -1;
  int lastPercent = -1;
  bool drawing = false;
  bool terminal = false;
  std::chrono::steady_clock::time_point start;
};

} // namespace popart

#endif // POPART_SRC_SESSION_COMPILEPROGRESS_HPP
