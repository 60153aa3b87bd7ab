#include "ReportData.hpp"

#include <algorithm>

namespace pva {
namespace detail {

namespace {

// PRAGMA application_id and the format versions the Engine writes.
constexpr std::int64_t profileApplicationId = 1347374160; // "POPP"
constexpr std::int64_t profileFormatVersion = 3;

// Bounds on what a profile can hold, far above any real one, so that a
// corrupt count is an error rather than an allocation of that size.
constexpr std::size_t maxTiles = std::size_t(1) << 20;
constexpr std::size_t maxCategories = std::size_t(1) << 12;
constexpr std::size_t maxExchanges = std::size_t(1) << 26;

Program::Type programType(const std::string &name) {
  using T = Program::Type;
  static const std::map<std::string, T> types = {
      {"Sequence", T::Sequence},
      {"OnTileExecute", T::OnTileExecute},
      {"DoExchange", T::DoExchange},
      {"GlobalExchange", T::GlobalExchange},
      {"StreamCopy", T::StreamCopyMid},
      {"Repeat", T::Repeat},
      {"RepeatWhileTrue", T::RepeatWhileTrue},
      {"RepeatWhileFalse", T::RepeatWhileFalse},
      {"SetLocalConsensusFromVar", T::SetLocalConsensusFromVar},
      {"IfElse", T::IfElse},
      {"Switch", T::Switch},
      {"Sync", T::Sync},
      {"Call", T::Call},
      {"WriteUndef", T::WriteUndef},
      {"Abort", T::Abort},
      {"AbortOnCondition", T::AbortOnCondition}};
  auto it = types.find(name);
  return it == types.end() ? T::Unknown : it->second;
}

} // namespace

ReportData::ReportData(const std::string &file) : path(file) {
  db = std::make_unique<Database>(file);
  std::int64_t application = 0;
  try {
    application = db->pragma("PRAGMA application_id");
  } catch (const error &) {
    // Not a database at all: said below.
  }
  if (application != profileApplicationId || !db->hasTable("meta"))
    throw error("'" + file + "' is not a profile.pop (no Poplar profile in it)");
  const auto version = db->pragma("PRAGMA user_version");
  if (version != profileFormatVersion)
    throw error("The profile '" + file + "' has format version " +
                std::to_string(version) + "; this library reads version " +
                std::to_string(profileFormatVersion));
  db->query("SELECT key, value FROM meta",
            [&](const Row &r) { meta[r.text(0)] = r.text(1); });
  if (meta["graph_profile"] != "1")
    throw error("The profile '" + file + "' has no graph part: the Engine "
                "that writes it has not finished compiling");
  readGraph();
  readMemory();
  readRuns();
  checkReferences();
}

void ReportData::readGraph() {
  db->query("SELECT type, architecture, num_ipus, tiles_per_ipu, num_tiles, "
            "bytes_per_tile, clock_frequency, num_worker_contexts FROM target",
            [&](const Row &r) {
              target = {r.text(0),
                        r.text(1),
                        unsigned(r.integer(2)),
                        unsigned(r.integer(3)),
                        unsigned(r.integer(4)),
                        unsigned(r.integer(7)),
                        r.count(5),
                        r.real(6)};
            });
  db->query("SELECT name, value FROM graph_stat",
            [&](const Row &r) { graphStats[r.text(0)] = r.count(1); });
  db->query("SELECT name, value FROM optimization_info",
            [&](const Row &r) { optimizationInfo[r.text(0)] = r.real(1); });
  db->query("SELECT name, state_bytes FROM vertex_type ORDER BY id",
            [&](const Row &r) { vertexTypes.push_back({r.text(0), r.count(1)}); });
  db->query("SELECT name, cycles, total_cycles, total_active_cycles, num_vertices "
            "FROM compute_set ORDER BY id",
            [&](const Row &r) {
              ComputeSetRow c;
              c.name = r.text(0);
              c.cycles = r.count(1);
              c.totalCycles = r.count(2);
              c.totalActiveCycles = r.count(3);
              c.numVertices = r.count(4);
              computeSets.push_back(std::move(c));
            });
  db->query("SELECT compute_set, tile, cycles, active_cycles FROM compute_set_tile "
            "ORDER BY compute_set, tile",
            [&](const Row &r) {
              computeSets.at(std::size_t(r.integer(0)))
                  .tiles.push_back({unsigned(r.integer(1)), r.count(2), r.count(3)});
            });
  db->query("SELECT compute_set, vertex_type, count, active_cycles FROM "
            "compute_set_vertex_type ORDER BY compute_set, vertex_type",
            [&](const Row &r) {
              const auto cs = unsigned(r.integer(0));
              computeSets.at(cs).vertexTypes.push_back(computeSetVertexTypes.size());
              computeSetVertexTypes.push_back(
                  {cs, unsigned(r.integer(1)), r.count(2), r.count(3)});
            });
  db->query("SELECT kind, id, name, cycles, total_bytes FROM exchange ORDER BY kind, id",
            [&](const Row &r) {
              auto &list = exchanges[r.text(0)];
              const std::size_t id = r.index(1, maxExchanges, "exchange");
              list.resize(std::max(list.size(), id + 1));
              list[id] = {r.text(2), r.count(3), r.count(4), {}};
            });
  db->query("SELECT kind, exchange, tile, bytes_sent, bytes_received, cycles FROM "
            "exchange_tile ORDER BY kind, exchange, tile",
            [&](const Row &r) {
              exchange(r.text(0), long(r.integer(1)))
                  .tiles.push_back({unsigned(r.integer(2)), r.count(3), r.count(4),
                                    r.count(5)});
            });
  db->query("SELECT type, name, compute_set, exchange_kind, exchange, function, "
            "repeat_count, sync_type FROM program ORDER BY id",
            [&](const Row &r) {
              ProgramRow p;
              p.typeName = r.text(0);
              p.type = programType(p.typeName);
              p.name = r.text(1);
              p.computeSet = long(r.integerOr(2, -1));
              p.exchangeKind = r.text(3);
              p.exchange = long(r.integerOr(4, -1));
              p.function = long(r.integerOr(5, -1));
              p.repeatCount = std::uint64_t(r.integerOr(6, 0));
              p.syncType = r.text(7);
              programs.push_back(std::move(p));
            });
  db->query("SELECT program, child FROM program_child ORDER BY program, position",
            [&](const Row &r) {
              programs.at(std::size_t(r.integer(0)))
                  .children.push_back(unsigned(r.integer(1)));
            });
  db->query("SELECT program FROM control_program ORDER BY id",
            [&](const Row &r) { controlPrograms.push_back(unsigned(r.integer(0))); });
  db->query("SELECT program FROM function_program ORDER BY id",
            [&](const Row &r) { functionPrograms.push_back(unsigned(r.integer(0))); });
  db->query("SELECT kind, program, compute_set, exchange_kind, exchange, cycles "
            "FROM step ORDER BY id",
            [&](const Row &r) {
              StepRow s;
              s.kind = r.text(0);
              s.program = long(r.integerOr(1, -1));
              s.computeSet = long(r.integerOr(2, -1));
              s.exchangeKind = r.text(3);
              s.exchange = long(r.integerOr(4, -1));
              s.cycles = r.count(5);
              steps.push_back(std::move(s));
            });
  db->query("SELECT step, ipu FROM step_ipu ORDER BY step, ipu", [&](const Row &r) {
    const std::size_t step = r.index(0, steps.size(), "step");
    steps[step].ipus.push_back(unsigned(r.index(1, target.numIpus, "IPU")));
  });
  db->query("SELECT name, type, num_elements, element_bytes, constant FROM variable "
            "ORDER BY id",
            [&](const Row &r) {
              variables.push_back(
                  {r.text(0), r.text(1), r.count(2), r.count(3), r.integer(4) != 0});
            });
  hasLoweredVariables = meta["lowered_vars"] == "1";
}

void ReportData::readMemory() {
  db->query("SELECT id, name FROM memory_category ORDER BY id", [&](const Row &r) {
    const std::size_t id = r.index(0, maxCategories, "memory category");
    categoryNames.resize(std::max(categoryNames.size(), id + 1));
    categoryNames[id] = r.text(1);
  });
  if (target.numTiles > maxTiles)
    throw error("The profile '" + path + "' is corrupt: its target has " +
                std::to_string(target.numTiles) + " tiles");
  tiles.resize(target.numTiles);
  db->query("SELECT tile, ipu, total_bytes, total_bytes_including_gaps, "
            "non_interleaved_bytes, interleaved_bytes, overflowed_bytes, "
            "non_interleaved_bytes_including_gaps, interleaved_bytes_including_gaps, "
            "overflowed_bytes_including_gaps FROM tile_memory",
            [&](const Row &r) {
              auto &t = tiles.at(std::size_t(r.integer(0)));
              t.ipu = unsigned(r.integer(1));
              t.total = MemorySize(r.count(2), r.count(3));
              for (int k = 0; k != 3; ++k)
                t.regions[k] = MemorySize(r.count(4 + k), r.count(7 + k));
            });
  tileCategories.assign(target.numTiles,
                        std::vector<MemoryCategory>(categoryNames.size()));
  // Regions of a category are read into a scratch array, then made into
  // the immutable MemoryCategory.
  std::vector<std::vector<std::array<MemoryCategoryRegion, 3>>> regions(
      target.numTiles, std::vector<std::array<MemoryCategoryRegion, 3>>(categoryNames.size()));
  db->query("SELECT tile, category, region, non_overlapped_bytes, overlapped_bytes "
            "FROM tile_memory_category",
            [&](const Row &r) {
              regions.at(std::size_t(r.integer(0)))
                  .at(std::size_t(r.integer(1)))
                  .at(std::size_t(r.integer(2))) =
                  MemoryCategoryRegion(r.count(3), r.count(4));
            });
  for (std::size_t t = 0; t != regions.size(); ++t)
    for (std::size_t c = 0; c != categoryNames.size(); ++c) {
      const auto &g = regions[t][c];
      tileCategories[t][c] = MemoryCategory(g[0], g[1], g[2]);
    }
  vertexMemoryByTile.resize(target.numTiles);
  db->query("SELECT vertex_type, tile, code, copy_pointers, descriptors, "
            "edge_pointers, padding, vertex_data FROM vertex_type_memory "
            "ORDER BY tile, vertex_type",
            [&](const Row &r) {
              const auto tile = unsigned(r.integer(1));
              vertexMemoryByTile.at(tile).push_back(vertexMemory.size());
              vertexMemory.push_back({unsigned(r.integer(0)), tile, r.count(2),
                                      r.count(3), r.count(4), r.count(5), r.count(6),
                                      r.count(7)});
            });
  db->query("SELECT name, bytes FROM liveness_always ORDER BY name",
            [&](const Row &r) { alwaysLive.emplace_back(r.text(0), r.count(1)); });
  db->query("SELECT name, program, bytes, message_bytes, output_edge_bytes, "
            "rearrangement_bytes FROM liveness_step ORDER BY position",
            [&](const Row &r) {
              livenessSteps.push_back({r.text(0), unsigned(r.integer(1)), r.count(2),
                                       {r.count(3), r.count(4), r.count(5)}});
            });
  db->query("SELECT variable, first_step, last_step, bytes FROM liveness_variable "
            "ORDER BY first_step, variable",
            [&](const Row &r) {
              livenessVariables.push_back(
                  {unsigned(r.integer(0)), r.count(1), r.count(2), r.count(3)});
            });
}

void ReportData::readRuns() {
  db->query("SELECT program, name, start_cycle, cycles, steps_truncated FROM run "
            "ORDER BY id",
            [&](const Row &r) {
              RunRow run;
              run.program = unsigned(r.integer(0));
              run.name = r.text(1);
              run.startCycle = r.count(2);
              run.cycles = r.count(3);
              run.stepsTruncated = r.integer(4) != 0;
              runs.push_back(std::move(run));
            });
  db->query("SELECT run, step, start_cycle, cycles FROM run_step ORDER BY run, position",
            [&](const Row &r) {
              runs.at(std::size_t(r.integer(0)))
                  .steps.push_back({unsigned(r.integer(1)), r.count(2), r.count(3)});
            });
}

const std::vector<LoweredRow> &ReportData::loweredVariables() const {
  std::call_once(loweredOnce, [&] {
    lowered.clear(); // of an earlier attempt that failed
    db->query("SELECT variable, tile, address, bytes FROM variable_tile "
              "ORDER BY tile, address",
              [&](const Row &r) {
                lowered.push_back(
                    {unsigned(r.index(0, variables.size(), "variable")),
                     unsigned(r.index(1, target.numTiles, "tile")), r.count(2), r.count(3)});
              });
  });
  return lowered;
}

// Every reference from one table to another is checked once, when the
// profile is opened, so that the accessors can rely on them.
void ReportData::checkReferences() const {
  auto check = [&](bool ok, const std::string &what) {
    if (!ok)
      throw error("The profile '" + path + "' is corrupt: " + what);
  };
  auto below = [](long index, std::size_t size) {
    return index >= 0 && std::size_t(index) < size;
  };
  const std::size_t numTiles = target.numTiles;
  for (std::size_t c = 0; c != computeSets.size(); ++c) {
    for (const auto &t : computeSets[c].tiles)
      check(t.tile < numTiles, "compute set " + std::to_string(c) + " has cycles on tile " +
                                   std::to_string(t.tile) + ", which the target lacks");
  }
  for (const auto &v : computeSetVertexTypes)
    check(v.vertexType < vertexTypes.size(),
          "compute set " + std::to_string(v.computeSet) + " has vertices of type " +
              std::to_string(v.vertexType) + ", which the profile lacks");
  for (const auto &[kind, list] : exchanges)
    for (std::size_t e = 0; e != list.size(); ++e)
      for (const auto &t : list[e].tiles)
        check(t.tile < numTiles, kind + " exchange " + std::to_string(e) + " names tile " +
                                     std::to_string(t.tile) + ", which the target lacks");
  auto checkExchange = [&](const std::string &kind, long index, const std::string &who) {
    auto it = exchanges.find(kind);
    check(index < 0 || (it != exchanges.end() && below(index, it->second.size())),
          who + " names " + kind + " exchange " + std::to_string(index) +
              ", which the profile lacks");
  };
  for (std::size_t p = 0; p != programs.size(); ++p) {
    const ProgramRow &row = programs[p];
    const std::string who = "program " + std::to_string(p);
    check(row.computeSet < 0 || below(row.computeSet, computeSets.size()),
          who + " names compute set " + std::to_string(row.computeSet) +
              ", which the profile lacks");
    check(row.type != Program::Type::OnTileExecute || row.computeSet >= 0,
          who + " executes no compute set");
    checkExchange(row.exchangeKind, row.exchange, who);
    for (unsigned child : row.children)
      check(child < programs.size(),
            who + " has child " + std::to_string(child) + ", which the profile lacks");
  }
  for (const auto *list : {&controlPrograms, &functionPrograms})
    for (unsigned p : *list)
      check(p < programs.size(),
            "it lists program " + std::to_string(p) + ", which it lacks");
  for (std::size_t s = 0; s != steps.size(); ++s) {
    const StepRow &step = steps[s];
    const std::string who = "step " + std::to_string(s);
    check(step.program < 0 || below(step.program, programs.size()),
          who + " runs program " + std::to_string(step.program) + ", which the profile lacks");
    check(step.computeSet < 0 || below(step.computeSet, computeSets.size()),
          who + " names compute set " + std::to_string(step.computeSet) +
              ", which the profile lacks");
    check(step.kind != "OnTileExecute" || step.computeSet >= 0,
          who + " executes no compute set");
    checkExchange(step.exchangeKind, step.exchange, who);
  }
  for (const auto &t : tiles)
    check(target.numIpus == 0 || t.ipu < target.numIpus,
          "a tile is on IPU " + std::to_string(t.ipu) + ", which the target lacks");
  for (const auto &v : vertexMemory)
    check(v.vertexType < vertexTypes.size(),
          "tile " + std::to_string(v.tile) + " has memory for vertex type " +
              std::to_string(v.vertexType) + ", which the profile lacks");
  for (const auto &l : livenessSteps)
    check(l.program < programs.size(), "liveness step '" + l.name + "' names program " +
                                           std::to_string(l.program) + ", which it lacks");
  for (const auto &l : livenessVariables)
    check(l.variable < variables.size(), "liveness names variable " +
                                             std::to_string(l.variable) + ", which it lacks");
  for (std::size_t r = 0; r != runs.size(); ++r)
    for (const auto &s : runs[r].steps)
      check(s.step < steps.size(), "run " + std::to_string(r) + " has step " +
                                       std::to_string(s.step) + ", which the profile lacks");
}

const ProgramRow &ReportData::program(std::size_t id) const {
  if (id >= programs.size())
    throw error("The profile '" + path + "' has no program " + std::to_string(id));
  return programs[id];
}

const ExchangeRow &ReportData::exchange(const std::string &kind, long index) const {
  auto it = exchanges.find(kind);
  if (it == exchanges.end() || index < 0 || std::size_t(index) >= it->second.size())
    throw error("The profile '" + path + "' has no " + kind + " exchange " +
                std::to_string(index));
  return it->second[std::size_t(index)];
}

std::vector<std::uint64_t> ReportData::stepCyclesByTile(const StepRow &step) const {
  std::vector<std::uint64_t> cycles(target.numTiles, 0);
  if (step.kind == "OnTileExecute") {
    for (const auto &t : computeSets.at(std::size_t(step.computeSet)).tiles)
      cycles.at(t.tile) = t.cycles;
  } else if (step.exchange >= 0) {
    for (const auto &t : exchange(step.exchangeKind, step.exchange).tiles)
      cycles.at(t.tile) = t.cycles;
  } else {
    // Syncs and control flow take every tile of their IPUs.
    const std::size_t perIpu = target.tilesPerIpu;
    for (unsigned ipu : step.ipus)
      std::fill(cycles.begin() + std::ptrdiff_t(ipu * perIpu),
                cycles.begin() + std::ptrdiff_t((ipu + 1) * perIpu), step.cycles);
  }
  return cycles;
}

} // namespace detail
} // namespace pva
