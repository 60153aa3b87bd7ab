#include "ReportData.hpp"

#include <algorithm>

namespace pva {
namespace detail {

namespace {

// PRAGMA application_id and the format versions the Engine writes.
constexpr std::int64_t profileApplicationId = 1347374160; // "POPP"
constexpr std::int64_t profileFormatVersion = 2;

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
              list.resize(std::max<std::size_t>(list.size(), std::size_t(r.integer(1)) + 1));
              list[std::size_t(r.integer(1))] = {r.text(2), r.count(3), r.count(4), {}};
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
    categoryNames.resize(std::size_t(r.integer(0)) + 1);
    categoryNames.back() = r.text(1);
  });
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
    db->query("SELECT variable, tile, address, bytes FROM variable_tile "
              "ORDER BY tile, address",
              [&](const Row &r) {
                lowered.push_back({unsigned(r.integer(0)), unsigned(r.integer(1)),
                                   r.count(2), r.count(3)});
              });
  });
  return lowered;
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
    // Syncs and control flow take every tile.
    std::fill(cycles.begin(), cycles.end(), step.cycles);
  }
  return cycles;
}

} // namespace detail
} // namespace pva
