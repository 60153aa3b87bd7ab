// The execution part of a report: the runs the profile recorded, their
// steps, and cycles per tile.
#include "ReportData.hpp"

#include <algorithm>

namespace pva {

namespace {

const detail::RunRow &runOf(const detail::ReportData &r, unsigned run) {
  if (run >= r.runs.size())
    throw error("The profile '" + r.path + "' has no run " + std::to_string(run));
  return r.runs[run];
}

const detail::RunStepRow &runStepOf(const detail::ReportData &r, unsigned run,
                                    std::size_t position) {
  return runOf(r, run).steps.at(position);
}

} // namespace

std::shared_ptr<Program> ExecutionStep::program() const {
  const auto &s = report->steps.at(runStepOf(*report, run, position).step);
  if (s.program < 0)
    return nullptr; // a sync between programs
  return detail::makeProgram(report, std::size_t(s.program));
}

std::uint64_t ExecutionStep::cycles() const {
  return runStepOf(*report, run, position).cycles;
}

std::uint64_t ExecutionStep::startCycle() const {
  return runStepOf(*report, run, position).startCycle;
}

std::vector<std::uint64_t> ExecutionStep::cyclesByTile() const {
  return report->stepCyclesByTile(report->steps.at(runStepOf(*report, run, position).step));
}

std::vector<ExecutionStepIpu> ExecutionStep::ipus() const {
  const auto &r = *report;
  const auto byTile = cyclesByTile();
  const std::uint64_t cycles = this->cycles();
  // Positions are counted from the start of the execution; every tile of
  // the step's IPUs starts it together.
  const std::uint64_t start = runOf(r, run).startCycle + startCycle();
  const unsigned perIpu = r.target.tilesPerIpu;
  // A step runs only on its IPUs; meanwhile the others run steps of their
  // own, so on them it takes no cycles.
  const auto &on = r.steps.at(runStepOf(r, run, position).step).ipus;
  std::vector<ExecutionStepIpu> out;
  for (unsigned ipu = 0; ipu != r.target.numIpus; ++ipu) {
    if (!std::binary_search(on.begin(), on.end(), ipu)) {
      const CycleStats at(start, start, double(start));
      out.emplace_back(0, CycleInterval(at, at), 1.0, 1.0);
      continue;
    }
    auto first = byTile.begin() + std::ptrdiff_t(ipu * perIpu);
    auto last = first + std::ptrdiff_t(perIpu);
    std::uint64_t busiest = 0, busy = 0, active = 0, shortest = 0;
    for (auto it = first; it != last; ++it) {
      if (*it == 0)
        continue;
      shortest = active ? std::min(shortest, *it) : *it;
      busy += *it;
      busiest = std::max(busiest, *it);
      ++active;
    }
    const double mean = active ? double(busy) / double(active) : 0.0;
    const CycleStats from(start, start, double(start));
    const CycleStats to(start + shortest, start + busiest, double(start) + mean);
    // As the Engine's execution profile: busy cycles over what the step
    // took on every tile (or on the tiles taking part).
    const double balance = cycles == 0 ? 1.0 : double(busy) / (double(cycles) * perIpu);
    const double activeBalance = cycles == 0 || active == 0
                                     ? 1.0
                                     : double(busy) / (double(cycles) * double(active));
    out.emplace_back(cycles, CycleInterval(from, to), balance, activeBalance);
  }
  return out;
}

std::vector<ComputeSet> ExecutionStep::computeSets() const {
  const auto &s = report->steps.at(runStepOf(*report, run, position).step);
  if (s.kind != "OnTileExecute")
    return {};
  return {ComputeSet(report, unsigned(s.computeSet))};
}

const std::string &Run::name() const { return runOf(*report, id).name; }
unsigned Run::programIndex() const { return runOf(*report, id).program; }

std::shared_ptr<Program> Run::program() const {
  const auto index = programIndex();
  if (index >= report->controlPrograms.size())
    throw error("Run " + std::to_string(id) + " of the profile '" + report->path +
                "' ran program " + std::to_string(index) + ", which it does not list");
  return detail::makeProgram(report, report->controlPrograms[index]);
}

std::uint64_t Run::cycles() const { return runOf(*report, id).cycles; }
std::uint64_t Run::startCycle() const { return runOf(*report, id).startCycle; }
bool Run::stepsTruncated() const { return runOf(*report, id).stepsTruncated; }

TimeInterval Run::microseconds() const {
  const double perMicrosecond = report->target.clockFrequency / 1e6;
  const auto &r = runOf(*report, id);
  return TimeInterval(double(r.startCycle) / perMicrosecond,
                      double(r.startCycle + r.cycles) / perMicrosecond);
}

std::vector<ExecutionStep> Run::steps() const {
  std::vector<ExecutionStep> out;
  const auto n = runOf(*report, id).steps.size();
  for (std::size_t p = 0; p != n; ++p)
    out.emplace_back(report, id, p);
  return out;
}

std::vector<Run> Execution::runs() const {
  return detail::handles<Run>(report, report->runs.size());
}

std::vector<ExecutionStep> Execution::steps() const {
  std::vector<ExecutionStep> out;
  for (const auto &run : runs()) {
    auto s = run.steps();
    out.insert(out.end(), s.begin(), s.end());
  }
  return out;
}

std::uint64_t Execution::runsTotal() const {
  auto it = report->meta.find("runs_total");
  return it == report->meta.end() ? report->runs.size() : std::stoull(it->second);
}

std::vector<std::uint64_t> Execution::cyclesByTile() const {
  std::vector<std::uint64_t> total(report->target.numTiles, 0);
  for (const auto &run : report->runs)
    for (const auto &s : run.steps) {
      const auto c = report->stepCyclesByTile(report->steps.at(s.step));
      for (std::size_t t = 0; t != total.size(); ++t)
        total[t] += c[t];
    }
  return total;
}

} // namespace pva
