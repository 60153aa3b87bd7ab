// The execution half of the profile summary: totals over the simulated
// steps, cycles by vertex type and the steps themselves; and the public
// print functions.
#include "profiling/SummaryFormat.hpp"
#include "profiling/SummaryPrinting.hpp"

#include <poplar/Engine.hpp>
#include <poplar/exceptions.hpp>

#include <algorithm>
#include <map>
#include <ostream>

namespace poplar::profiling {
namespace {

std::uint64_t u(const ProfileValue &map, const char *key) {
  const ProfileValue *v = map.getOrNull(key);
  return v && v->type() == ProfileValue::Type::NUMBER ? v->asUint() : 0;
}

double d(const ProfileValue &map, const char *key) {
  const ProfileValue *v = map.getOrNull(key);
  return v && v->type() == ProfileValue::Type::NUMBER ? v->asDouble() : 0.0;
}

struct TypeCycles {
  std::uint64_t instances = 0;
  std::uint64_t cycles = 0;
};

void printByType(SummaryWriter &w, const std::string &indent,
                 const std::vector<std::pair<std::string, TypeCycles>> &rows) {
  std::size_t width = 0;
  for (const auto &[name, c] : rows)
    width = std::max(width, name.size());
  for (const auto &[name, c] : rows) {
    std::string padded = name;
    padded.resize(width, ' ');
    std::string instances = "(" + std::to_string(c.instances) + " instances):";
    if (instances.size() < 24)
      instances.insert(0, 24 - instances.size(), ' ');
    std::string cycles = withCommas(c.cycles);
    if (cycles.size() < 13)
      cycles.insert(0, 13 - cycles.size(), ' ');
    w.os() << indent << padded << instances << cycles << '\n';
  }
}

// Vertex types of one compute set with their counts and active cycles.
std::vector<std::pair<std::string, TypeCycles>>
computeSetTypes(const ProfileValue &graph, std::size_t cs, std::uint64_t runs) {
  const auto &names = graph["vertexTypes"]["names"].asVector();
  const auto &sets = graph["computeSets"];
  const auto &types = sets["vertexTypes"][cs].asVector();
  const auto &counts = sets["vertexCounts"][cs].asVector();
  const auto &active = sets["cycleEstimates"]["activeCyclesByVertexType"][cs];
  std::vector<std::pair<std::string, TypeCycles>> rows;
  for (std::size_t i = 0; i != types.size(); ++i) {
    const std::uint64_t type = types[i].asUint();
    rows.push_back({names[type].asString(),
                    {counts[i].asUint() * runs, active[type].asUint() * runs}});
  }
  return rows;
}

void printSteps(SummaryWriter &w, const ProfileValue &graph,
                const ProfileValue &exec, std::uint64_t numTiles) {
  w.heading("", "Steps");
  for (const auto &step : exec["simulation"]["steps"].asVector()) {
    const std::string &type = step["type"].asString();
    if (type == "Sync") {
      w.os() << "  --- " << step["syncType"].asString() << " Sync ---\n";
      continue;
    }
    w.os() << "  " << type << " (cycles " << withCommas(u(step, "cyclesFrom"))
           << " - " << withCommas(u(step, "cyclesTo")) << ")";
    if (const ProfileValue *name = step.getOrNull("name"))
      w.os() << ": " << name->asString();
    w.os() << '\n';
    std::string cycles = withCommas(u(step, "cycles"));
    if (step.getOrNull("cyclesOverlapped"))
      cycles += " (" + withCommas(u(step, "cyclesOverlapped")) +
                " overlapped with previous)";
    w.left("    ", "Cycles:", 36, cycles);
    w.left("    ", "Active Tiles:", 36,
           withCommas(u(step, "activeTiles")) + " / " + withCommas(numTiles));
    if (type == "OnTileExecute")
      w.left("    ", "Thread Balance:", 36, percent(d(step, "threadBalance")));
    w.left("    ", "Tile Balance:", 36, percent(d(step, "tileBalance")));
    w.left("    ", "Active Tile Balance:", 36, percent(d(step, "activeTileBalance")));
    if (type == "OnTileExecute") {
      w.os() << "    By vertex type:\n";
      printByType(w, "      ", computeSetTypes(graph, u(step, "computeSet"), 1));
    } else {
      w.left("    ", "Total Data:", 36, withCommas(u(step, "totalData")));
      w.left("    ", "Data Balance (mean / max data per tile):", 36,
             percent(d(step, "dataBalance")));
    }
  }
}

} // namespace

void printExecutionPart(SummaryWriter &w, const ProfileValue &graph,
                        const ProfileValue &exec, const SummaryOptions &opts) {
  const ProfileValue *sim = exec.getOrNull("simulation");
  if (!sim)
    throw poplar_error("printExecutionSummary: the execution profile has no "
                       "simulation (profiler mode " +
                       (exec.getOrNull("profilerMode")
                            ? exec["profilerMode"].asString()
                            : std::string("unknown")) +
                       ")");
  const ProfileValue &target = graph["target"];
  const std::uint64_t numTiles = u(target, "numTiles");
  const double clock = d(target, "clockFrequency");
  const ProfileValue &tc = (*sim)["tileCycles"];
  const std::uint64_t cycles = u(*sim, "cycles");
  bool instrumentedCompute = false, instrumentedExternal = false;
  if (const ProfileValue *i = exec.getOrNull("instrumented")) {
    instrumentedCompute = (*i)["compute"].asBool();
    instrumentedExternal = (*i)["externalExchange"].asBool();
  }

  w.heading("", "Execution:");
  w.os() << '\n';
  const std::string micro =
      clock > 0 ? " (approx " + withCommas1(double(cycles) / clock * 1e6) +
                      " microseconds)"
                : "";
  w.left("  ", "Total cycles:", 47, withCommas(cycles) + micro);
  // On several IPUs, each runs its own steps and waits for the others
  // only where they exchange: its busy cycles add up to more than the run.
  if (const ProfileValue *byIpu = sim->getOrNull("cyclesByIpu")) {
    const auto &v = byIpu->asVector();
    for (std::size_t ipu = 0; ipu != v.size(); ++ipu)
      w.left("  ", "IPU " + std::to_string(ipu) + " busy cycles:", 47,
             withCommas(v[ipu].asUint()));
  }
  w.left("  ", "Total compute cycles (including idle threads):", 47,
         withCommas(u(tc, "compute")) +
             (instrumentedCompute ? ""
                                  : " Estimated (must enable debug.instrumentCompute)"));
  w.left("  ", "Total compute cycles (excluding idle threads):", 47,
         withCommas(u(tc, "activeCompute")));
  w.left("  ", "Total IPU exchange cycles:", 47, withCommas(u(tc, "doExchange")));
  w.left("  ", "Total global exchange cycles:", 47,
         instrumentedExternal ? withCommas(u(tc, "globalExchange"))
                              : std::string("Must enable debug.instrumentExternalExchange"));
  w.left("  ", "Total host exchange cycles:", 47, withCommas(u(tc, "streamCopy")));
  w.left("  ", "Total shared structure copy cycles:", 47,
         withCommas(u(tc, "copySharedStructure")));
  w.left("  ", "Total sync cycles:", 47, withCommas(u(tc, "sync")));
  const double allTileCycles = double(cycles) * double(numTiles);
  w.left("  ", "Total tile balance:", 47,
         percent(allTileCycles == 0 ? 1.0 : double(u(tc, "compute")) / allTileCycles));
  w.left("  ", "Total thread balance:", 47,
         percent(u(tc, "compute") == 0
                     ? 1.0
                     : double(u(tc, "activeCompute")) / double(u(tc, "compute"))));
  w.os() << '\n';

  // Cycles by vertex type over every compute set run.
  std::map<std::string, TypeCycles> byType;
  if (const ProfileValue *runs = sim->getOrNull("computeSetRuns")) {
    const auto &r = runs->asVector();
    for (std::size_t cs = 0; cs != r.size(); ++cs)
      if (r[cs].asUint() != 0)
        for (const auto &[name, c] : computeSetTypes(graph, cs, r[cs].asUint())) {
          byType[name].instances += c.instances;
          byType[name].cycles += c.cycles;
        }
  }
  std::vector<std::pair<std::string, TypeCycles>> rows(byType.begin(), byType.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
    return a.second.cycles > b.second.cycles;
  });
  w.heading("  ", "Cycles by vertex type:");
  printByType(w, "    ", rows);
  if (opts.showExecutionSteps)
    printSteps(w, graph, exec, numTiles);
  w.os() << '\n';
}

} // namespace poplar::profiling

namespace poplar {

void printGraphSummary(std::ostream &out, const ProfileValue &graphProfile,
                       const OptionFlags &opts) {
  const auto o = profiling::parseSummaryOptions(opts, out);
  profiling::SummaryWriter w(out, o.colours);
  profiling::printGraphPart(w, graphProfile, o);
}

void printExecutionSummary(std::ostream &out, const ProfileValue &graphProfile,
                           const ProfileValue &executionProfile,
                           const OptionFlags &opts) {
  const auto o = profiling::parseSummaryOptions(opts, out);
  profiling::SummaryWriter w(out, o.colours);
  profiling::printExecutionPart(w, graphProfile, executionProfile, o);
}

void printProfileSummary(std::ostream &out, const ProfileValue &graphProfile,
                         const ProfileValue &executionProfile,
                         const OptionFlags &opts) {
  const auto o = profiling::parseSummaryOptions(opts, out);
  profiling::SummaryWriter w(out, o.colours);
  profiling::printGraphPart(w, graphProfile, o);
  // An empty execution profile (the default) prints the graph part only.
  if (executionProfile.type() == ProfileValue::Type::MAP &&
      executionProfile.size() != 0)
    profiling::printExecutionPart(w, graphProfile, executionProfile, o);
}

} // namespace poplar
