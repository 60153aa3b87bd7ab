// The execution profile of the IPU Model: profilerMode IPU_MODEL, the
// programTrace and the simulation (cycles, tileCycles, steps), worked out
// from the simulated steps the engine ran. Additions to the guide's
// fields: simulation.cyclesByTile (per-tile totals by activity),
// simulation.computeSetRuns, simulation.stepsTruncated, and `instrumented`.
#include "profiling/Profiles.hpp"

#include "model/TileActivity.hpp"

#include <algorithm>

namespace poplar::profiling {
namespace {

using Map = ProfileValue::Map;
using Vector = ProfileValue::Vector;
using Kind = model::SimStep::Kind;

template <class T> ProfileValue numbers(const std::vector<T> &values) {
  Vector v;
  v.reserve(values.size());
  for (const auto &x : values)
    v.emplace_back(static_cast<double>(x));
  return v;
}

const char *stepType(Kind k) {
  switch (k) {
  case Kind::OnTileExecute:
    return "OnTileExecute";
  case Kind::DoExchange:
    return "DoExchange";
  case Kind::GlobalExchange:
    return "GlobalExchange";
  case Kind::StreamCopy:
    return "StreamCopy";
  case Kind::Sync:
    return "Sync";
  case Kind::Control:
    return "Control";
  }
  return "Unknown";
}

ProfileValue tileCycles(const model::TileCycles &c) {
  Map m;
  m["activeCompute"] = c.activeCompute;
  m["compute"] = c.compute;
  m["copySharedStructure"] = c.copySharedStructure;
  m["doExchange"] = c.doExchange;
  m["globalExchange"] = c.globalExchange;
  m["streamCopy"] = c.streamCopy;
  m["sync"] = c.sync;
  m["control"] = c.control;
  return m;
}

// The fields of a step that do not depend on when it ran.
Map stepFields(const model::Estimates &est, const model::SimStep &s) {
  Map m;
  m["type"] = stepType(s.kind);
  if (est.ipuSets[0].size() > 1) // on several IPUs: those it runs on
    m["ipus"] = numbers(est.ipuSets[s.ipus]);
  if (s.kind == Kind::Sync) {
    m["syncType"] = s.external ? "External" : "Internal";
    m["cycles"] = s.cycles;
    return m;
  }
  const unsigned numTiles = est.target.getNumTiles();
  m["program"] = s.program;
  const std::string &name = est.programs[s.program].name;
  if (!name.empty())
    m["name"] = name;
  m["cycles"] = s.cycles;
  std::uint64_t busy = 0, activeTiles = 0;
  if (s.kind == Kind::OnTileExecute) {
    const auto &cs = est.computeSets[s.index];
    busy = cs.totalCycles;
    for (const auto &t : cs.tiles)
      activeTiles += t.cycles != 0;
    m["computeSet"] = s.index;
    m["threadBalance"] =
        cs.totalCycles == 0 ? 1.0 : double(cs.totalActive) / double(cs.totalCycles);
    m["cyclesOverlapped"] = 0;
  } else {
    const auto &x = model::exchangeOf(est, s);
    std::uint64_t maxData = 0, totalData = 0;
    for (const auto &t : x.tiles) {
      busy += t.cycles;
      activeTiles += 1;
      maxData = std::max(maxData, t.sent + t.received);
      totalData += t.sent + t.received;
    }
    m["totalData"] = x.totalBytes;
    m["dataBalance"] =
        maxData == 0 ? 1.0 : double(totalData) / numTiles / double(maxData);
    m[s.kind == Kind::DoExchange       ? "exchange"
      : s.kind == Kind::GlobalExchange ? "externalExchange"
                                       : "hostExchange"] = s.index;
    if (s.kind == Kind::DoExchange)
      m["cyclesOverlapped"] = 0;
  }
  m["activeTiles"] = activeTiles;
  m["tileBalance"] = s.cycles == 0 ? 1.0 : double(busy) / (double(s.cycles) * numTiles);
  m["activeTileBalance"] =
      s.cycles == 0 || activeTiles == 0
          ? 1.0
          : double(busy) / (double(s.cycles) * double(activeTiles));
  return m;
}

// Per-tile totals by activity: what each tile did, summed over the steps
// run (each step counted as often as it ran).
Map cyclesByTile(const model::TileActivity &a) {
  Map m;
  m["activeCompute"] = numbers(a.activeCompute);
  m["compute"] = numbers(a.compute);
  m["doExchange"] = numbers(a.doExchange);
  m["globalExchange"] = numbers(a.globalExchange);
  m["streamCopy"] = numbers(a.streamCopy);
  m["sync"] = numbers(a.sync);
  m["control"] = numbers(a.control);
  return m;
}

// Per IPU, the cycles of the steps it ran (each step counted as often as
// it ran): the rest of the run it waited for other IPUs.
std::vector<std::uint64_t> cyclesByIpu(const model::ExecutionRecorder &rec) {
  const auto &est = rec.estimates();
  std::vector<std::uint64_t> out(est.ipuSets[0].size(), 0);
  for (std::size_t k = 0; k != est.steps.size(); ++k)
    if (rec.counts[k] != 0)
      for (unsigned ipu : est.ipuSets[est.steps[k].ipus])
        out[ipu] += rec.counts[k] * est.steps[k].cycles;
  return out;
}

} // namespace

ProfileValue executionProfile(const model::ExecutionRecorder &rec,
                              const Instrumentation &instr) {
  const auto &est = rec.estimates();
  const unsigned numTiles = est.target.getNumTiles();

  model::TileCycles totals;
  std::vector<std::uint64_t> csRuns(est.computeSets.size(), 0);
  std::vector<std::uint64_t> hostRuns(est.hostExchanges.size(), 0);
  std::vector<std::uint64_t> externalRuns(est.externalExchanges.size(), 0);
  for (std::size_t k = 0; k != est.steps.size(); ++k) {
    if (rec.counts[k] == 0)
      continue;
    const auto &s = est.steps[k];
    totals.add(s.tileCycles, rec.counts[k]);
    if (s.kind == Kind::OnTileExecute)
      csRuns[s.index] += rec.counts[k];
    else if (s.kind == Kind::StreamCopy)
      hostRuns[s.index] += rec.counts[k];
    else if (s.kind == Kind::GlobalExchange)
      externalRuns[s.index] += rec.counts[k];
  }

  // Steps and the program trace, from the trace of simulated steps.
  Vector steps, trace;
  std::vector<Map> fieldsOf(est.steps.size());
  std::vector<bool> made(est.steps.size(), false);
  long lastProgram = -1;
  for (const auto &entry : rec.trace) {
    const auto &s = est.steps[entry.step];
    if (s.kind != Kind::Sync && long(s.program) != lastProgram) {
      trace.emplace_back(double(s.program));
      lastProgram = long(s.program);
    }
    if (s.kind == Kind::Control || steps.size() >= maxProfileSteps)
      continue;
    if (!made[entry.step]) {
      fieldsOf[entry.step] = stepFields(est, s);
      made[entry.step] = true;
    }
    Map m = fieldsOf[entry.step];
    if (s.kind != Kind::Sync) {
      m["cyclesFrom"] = entry.start;
      m["cyclesTo"] = entry.start + s.cycles;
    }
    steps.emplace_back(std::move(m));
  }

  // What tiles of IPUs that are not in a step do meanwhile is known only
  // from the whole run: the sync total is the tiles'.
  const auto activity = model::tileActivity(est, rec.counts, rec.cycles);
  totals.sync = 0;
  for (auto c : activity.sync)
    totals.sync += c;
  const bool truncated = rec.truncated || steps.size() >= maxProfileSteps;
  Map sim;
  sim["cycles"] = rec.cycles;
  sim["tileCycles"] = tileCycles(totals);
  sim["steps"] = std::move(steps);
  sim["stepsTruncated"] = truncated;
  sim["computeSetRuns"] = numbers(csRuns);
  sim["cyclesByTile"] = cyclesByTile(activity);
  if (est.ipuSets[0].size() > 1)
    sim["cyclesByIpu"] = numbers(cyclesByIpu(rec));

  Map m;
  m["profilerMode"] = "IPU_MODEL";
  m["programTrace"] = std::move(trace);
  m["simulation"] = std::move(sim);
  Map instrumented;
  instrumented["compute"] = instr.compute;
  instrumented["externalExchange"] = instr.externalExchange;
  instrumented["computeLevel"] = instr.level;
  m["instrumented"] = std::move(instrumented);

  // The measurements the instrumentation options ask for, taken from the
  // estimates of the last run of each compute set and exchange.
  if (instr.compute) {
    if (instr.level == "vertex") {
      std::vector<std::uint64_t> cycles(est.vertexCycles.size(), 0);
      for (std::size_t v = 0; v != cycles.size(); ++v)
        if (csRuns[est.vertexComputeSet[v]] != 0)
          cycles[v] = est.vertexCycles[v];
      m["vertexCycles"] = numbers(cycles);
      m["vertexComputeSet"] = numbers(est.vertexComputeSet);
      m["vertexType"] = numbers(est.vertexType);
    } else if (instr.level == "device" || instr.level == "ipu") {
      std::vector<std::uint64_t> cycles(est.computeSets.size(), 0);
      for (std::size_t cs = 0; cs != cycles.size(); ++cs)
        if (csRuns[cs] != 0)
          cycles[cs] = est.computeSets[cs].cycles;
      m["computeSetCycles"] = numbers(cycles);
    } else {
      Vector byTile;
      for (std::size_t cs = 0; cs != est.computeSets.size(); ++cs) {
        std::vector<std::uint64_t> cycles(numTiles, 0);
        if (csRuns[cs] != 0)
          for (const auto &t : est.computeSets[cs].tiles)
            cycles[t.tile] = t.cycles;
        byTile.push_back(numbers(cycles));
      }
      m["computeSetCyclesByTile"] = std::move(byTile);
    }
  }
  if (instr.externalExchange) {
    auto perTile = [&](const std::vector<model::ExchangeEstimate> &xs,
                       const std::vector<std::uint64_t> &runs) {
      Vector v;
      for (std::size_t i = 0; i != xs.size(); ++i) {
        std::vector<std::uint64_t> cycles(numTiles, 0);
        if (runs[i] != 0)
          for (const auto &t : xs[i].tiles)
            cycles[t.tile] = t.cycles;
        v.push_back(numbers(cycles));
      }
      return ProfileValue(std::move(v));
    };
    m["hostExchangeCycles"] = perTile(est.hostExchanges, hostRuns);
    m["externalExchangeCycles"] = perTile(est.externalExchanges, externalRuns);
  }
  return m;
}

} // namespace poplar::profiling
