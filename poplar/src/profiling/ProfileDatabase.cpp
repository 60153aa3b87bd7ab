// profile.pop: the graph and execution profiles in an SQLite database. The
// schema is below and documented, table by table, in README.md in this
// folder; a change to it must bump profileFormatVersion.
#include "profiling/ReportFiles.hpp"

#include "model/TileActivity.hpp"
#include "model/ModelConstants.hpp"

#include <poplar/exceptions.hpp>

#include <sqlite3.h>

#include <cstdio>
#include <ctime>
#include <filesystem>

#ifndef POPLAR_SDK_VERSION
#define POPLAR_SDK_VERSION "unknown"
#endif

namespace poplar::profiling {
namespace {

using Kind = model::SimStep::Kind;

const char *const schema = R"sql(
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE target (
  type                     TEXT NOT NULL,
  architecture             TEXT NOT NULL,
  num_ipus                 INTEGER NOT NULL,
  tiles_per_ipu            INTEGER NOT NULL,
  num_tiles                INTEGER NOT NULL,
  bytes_per_tile           INTEGER NOT NULL,
  clock_frequency          REAL NOT NULL,
  num_worker_contexts      INTEGER NOT NULL,
  exchange_bytes_per_cycle INTEGER NOT NULL,
  memcpy_bytes_per_cycle   INTEGER NOT NULL,
  instruction_bytes        INTEGER NOT NULL,
  tiles_per_super_tile     INTEGER NOT NULL,
  interleaved_memory_start INTEGER NOT NULL,
  min_sync_delay           INTEGER NOT NULL,
  global_sync_cycles       INTEGER NOT NULL
);
CREATE TABLE graph_stat (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
CREATE TABLE optimization_info (
  name  TEXT PRIMARY KEY,
  value REAL NOT NULL
);
CREATE TABLE vertex_type (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL,
  state_bytes INTEGER NOT NULL
);
CREATE TABLE compute_set (
  id                  INTEGER PRIMARY KEY,
  name                TEXT NOT NULL,
  cycles              INTEGER NOT NULL,
  total_cycles        INTEGER NOT NULL,
  total_active_cycles INTEGER NOT NULL,
  num_vertices        INTEGER NOT NULL
);
CREATE TABLE compute_set_vertex_type (
  compute_set   INTEGER NOT NULL REFERENCES compute_set(id),
  vertex_type   INTEGER NOT NULL REFERENCES vertex_type(id),
  count         INTEGER NOT NULL,
  active_cycles INTEGER NOT NULL,
  PRIMARY KEY (compute_set, vertex_type)
) WITHOUT ROWID;
CREATE TABLE compute_set_tile (
  compute_set   INTEGER NOT NULL REFERENCES compute_set(id),
  tile          INTEGER NOT NULL,
  cycles        INTEGER NOT NULL,
  active_cycles INTEGER NOT NULL,
  PRIMARY KEY (compute_set, tile)
) WITHOUT ROWID;
CREATE TABLE exchange (
  kind        TEXT NOT NULL CHECK (kind IN ('internal', 'external', 'host')),
  id          INTEGER NOT NULL,
  name        TEXT NOT NULL,
  cycles      INTEGER NOT NULL,
  total_bytes INTEGER NOT NULL,
  PRIMARY KEY (kind, id)
) WITHOUT ROWID;
CREATE TABLE exchange_tile (
  kind           TEXT NOT NULL,
  exchange       INTEGER NOT NULL,
  tile           INTEGER NOT NULL,
  bytes_sent     INTEGER NOT NULL,
  bytes_received INTEGER NOT NULL,
  cycles         INTEGER NOT NULL,
  PRIMARY KEY (kind, exchange, tile),
  FOREIGN KEY (kind, exchange) REFERENCES exchange(kind, id)
) WITHOUT ROWID;
CREATE TABLE program (
  id            INTEGER PRIMARY KEY,
  type          TEXT NOT NULL,
  name          TEXT NOT NULL,
  compute_set   INTEGER REFERENCES compute_set(id),
  exchange_kind TEXT,
  exchange      INTEGER,
  function      INTEGER,
  repeat_count  INTEGER,
  sync_type     TEXT
);
CREATE TABLE program_child (
  program  INTEGER NOT NULL REFERENCES program(id),
  position INTEGER NOT NULL,
  child    INTEGER NOT NULL REFERENCES program(id),
  PRIMARY KEY (program, position)
) WITHOUT ROWID;
CREATE TABLE control_program (
  id      INTEGER PRIMARY KEY,
  program INTEGER NOT NULL REFERENCES program(id)
);
CREATE TABLE function_program (
  id      INTEGER PRIMARY KEY,
  program INTEGER NOT NULL REFERENCES program(id)
);
CREATE TABLE step (
  id                   INTEGER PRIMARY KEY,
  kind                 TEXT NOT NULL,
  program              INTEGER REFERENCES program(id),
  compute_set          INTEGER REFERENCES compute_set(id),
  exchange_kind        TEXT,
  exchange             INTEGER,
  sync_type            TEXT,
  cycles               INTEGER NOT NULL,
  active_compute       INTEGER NOT NULL,
  compute              INTEGER NOT NULL,
  copy_shared_structure INTEGER NOT NULL,
  do_exchange          INTEGER NOT NULL,
  global_exchange      INTEGER NOT NULL,
  stream_copy          INTEGER NOT NULL,
  sync                 INTEGER NOT NULL,
  control              INTEGER NOT NULL
);
CREATE TABLE step_ipu (
  step INTEGER NOT NULL REFERENCES step(id),
  ipu  INTEGER NOT NULL,
  each INTEGER NOT NULL,
  PRIMARY KEY (step, ipu)
) WITHOUT ROWID;
CREATE TABLE memory_category (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  overlapped INTEGER NOT NULL
);
CREATE TABLE memory_region (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
CREATE TABLE tile_memory (
  tile                                INTEGER PRIMARY KEY,
  ipu                                 INTEGER NOT NULL,
  total_bytes                         INTEGER NOT NULL,
  total_bytes_including_gaps          INTEGER NOT NULL,
  non_interleaved_bytes               INTEGER NOT NULL,
  interleaved_bytes                   INTEGER NOT NULL,
  overflowed_bytes                    INTEGER NOT NULL,
  non_interleaved_bytes_including_gaps INTEGER NOT NULL,
  interleaved_bytes_including_gaps    INTEGER NOT NULL,
  overflowed_bytes_including_gaps     INTEGER NOT NULL
);
CREATE TABLE tile_memory_category (
  tile                 INTEGER NOT NULL REFERENCES tile_memory(tile),
  category             INTEGER NOT NULL REFERENCES memory_category(id),
  region               INTEGER NOT NULL REFERENCES memory_region(id),
  non_overlapped_bytes INTEGER NOT NULL,
  overlapped_bytes     INTEGER NOT NULL,
  PRIMARY KEY (tile, category, region)
) WITHOUT ROWID;
CREATE TABLE compute_set_memory (
  compute_set   INTEGER NOT NULL REFERENCES compute_set(id),
  tile          INTEGER NOT NULL,
  code          INTEGER NOT NULL,
  copy_pointers INTEGER NOT NULL,
  descriptors   INTEGER NOT NULL,
  edge_pointers INTEGER NOT NULL,
  padding       INTEGER NOT NULL,
  vertex_data   INTEGER NOT NULL,
  PRIMARY KEY (compute_set, tile)
) WITHOUT ROWID;
CREATE TABLE vertex_type_memory (
  vertex_type   INTEGER NOT NULL REFERENCES vertex_type(id),
  tile          INTEGER NOT NULL,
  code          INTEGER NOT NULL,
  copy_pointers INTEGER NOT NULL,
  descriptors   INTEGER NOT NULL,
  edge_pointers INTEGER NOT NULL,
  padding       INTEGER NOT NULL,
  vertex_data   INTEGER NOT NULL,
  PRIMARY KEY (vertex_type, tile)
) WITHOUT ROWID;
CREATE TABLE liveness_always (
  name  TEXT PRIMARY KEY,
  bytes INTEGER NOT NULL
);
CREATE TABLE liveness_step (
  position            INTEGER PRIMARY KEY,
  program             INTEGER NOT NULL REFERENCES program(id),
  name                TEXT NOT NULL,
  bytes               INTEGER NOT NULL,
  message_bytes       INTEGER NOT NULL,
  output_edge_bytes   INTEGER NOT NULL,
  rearrangement_bytes INTEGER NOT NULL
);
CREATE TABLE liveness_variable (
  variable   INTEGER NOT NULL REFERENCES variable(id),
  first_step INTEGER NOT NULL REFERENCES liveness_step(position),
  last_step  INTEGER NOT NULL REFERENCES liveness_step(position),
  bytes      INTEGER NOT NULL,
  PRIMARY KEY (variable, first_step)
) WITHOUT ROWID;
CREATE TABLE variable (
  id            INTEGER PRIMARY KEY,
  name          TEXT NOT NULL,
  type          TEXT NOT NULL,
  num_elements  INTEGER NOT NULL,
  element_bytes INTEGER NOT NULL,
  constant      INTEGER NOT NULL
);
CREATE TABLE variable_tile (
  variable INTEGER NOT NULL REFERENCES variable(id),
  tile     INTEGER NOT NULL,
  address  INTEGER NOT NULL,
  bytes    INTEGER NOT NULL,
  region   INTEGER NOT NULL REFERENCES memory_region(id),
  PRIMARY KEY (variable, tile)
) WITHOUT ROWID;
CREATE TABLE run (
  id              INTEGER PRIMARY KEY,
  program         INTEGER NOT NULL,
  name            TEXT NOT NULL,
  start_cycle     INTEGER NOT NULL,
  cycles          INTEGER NOT NULL,
  num_steps       INTEGER NOT NULL,
  steps_truncated INTEGER NOT NULL
);
CREATE TABLE run_step (
  run         INTEGER NOT NULL REFERENCES run(id),
  position    INTEGER NOT NULL,
  step        INTEGER NOT NULL REFERENCES step(id),
  start_cycle INTEGER NOT NULL,
  cycles      INTEGER NOT NULL,
  PRIMARY KEY (run, position)
) WITHOUT ROWID;
CREATE TABLE run_program (
  run     INTEGER NOT NULL REFERENCES run(id),
  program INTEGER NOT NULL REFERENCES program(id),
  steps   INTEGER NOT NULL,
  cycles  INTEGER NOT NULL,
  PRIMARY KEY (run, program)
) WITHOUT ROWID;
CREATE TABLE run_tile (
  run             INTEGER NOT NULL REFERENCES run(id),
  tile            INTEGER NOT NULL,
  active_compute  INTEGER NOT NULL,
  compute         INTEGER NOT NULL,
  do_exchange     INTEGER NOT NULL,
  global_exchange INTEGER NOT NULL,
  stream_copy     INTEGER NOT NULL,
  sync            INTEGER NOT NULL,
  control         INTEGER NOT NULL,
  PRIMARY KEY (run, tile)
) WITHOUT ROWID;
)sql";

[[noreturn]] void fail(sqlite3 *db, const std::string &file, const char *what) {
  throw poplar_error("Cannot write the profile '" + file + "' (" + what +
                     "): " + (db ? sqlite3_errmsg(db) : "out of memory"));
}

// A prepared statement: bind the parameters of one row, then insert().
class Statement {
public:
  Statement(sqlite3 *db, const std::string &file, const char *sql)
      : db(db), file(file) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK)
      fail(db, file, sql);
  }
  ~Statement() { sqlite3_finalize(stmt); }
  Statement(const Statement &) = delete;
  Statement &operator=(const Statement &) = delete;

  /// Binds the values in order and runs the statement.
  template <class... Values> void insert(const Values &...values) {
    int i = 0;
    (bind(++i, values), ...);
    if (sqlite3_step(stmt) != SQLITE_DONE)
      fail(db, file, sqlite3_sql(stmt));
    sqlite3_reset(stmt);
  }

  /// A value or SQL NULL.
  template <class T> struct Maybe {
    bool present;
    T value;
  };

private:
  void bind(int i, const std::string &s) {
    sqlite3_bind_text(stmt, i, s.data(), int(s.size()), SQLITE_TRANSIENT);
  }
  void bind(int i, const char *s) { sqlite3_bind_text(stmt, i, s, -1, SQLITE_TRANSIENT); }
  void bind(int i, double d) { sqlite3_bind_double(stmt, i, d); }
  void bind(int i, bool b) { sqlite3_bind_int(stmt, i, b ? 1 : 0); }
  template <class T>
  std::enable_if_t<std::is_integral_v<T>> bind(int i, T v) {
    sqlite3_bind_int64(stmt, i, static_cast<sqlite3_int64>(v));
  }
  template <class T> void bind(int i, const Maybe<T> &m) {
    if (m.present)
      bind(i, m.value);
    else
      sqlite3_bind_null(stmt, i);
  }
  void bind(int i, std::nullptr_t) { sqlite3_bind_null(stmt, i); }

  sqlite3 *db;
  const std::string &file;
  sqlite3_stmt *stmt = nullptr;
};

template <class T> Statement::Maybe<T> maybe(bool present, T value) {
  return {present, value};
}

const char *regionName(unsigned r) {
  static const char *names[3] = {"nonInterleaved", "interleaved", "overflowed"};
  return names[r];
}

const char *stepKind(Kind k) {
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

// The exchange list a program or step type refers to.
const char *exchangeKindOf(const std::string &type) {
  if (type == "DoExchange")
    return "internal";
  if (type == "GlobalExchange")
    return "external";
  if (type == "StreamCopy")
    return "host";
  return nullptr;
}

// Runs a block of inserts in one transaction.
template <class F> void transaction(sqlite3 *db, const std::string &file, F &&f) {
  if (sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr) != SQLITE_OK)
    fail(db, file, "BEGIN");
  try {
    f();
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  if (sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK)
    fail(db, file, "COMMIT");
}

} // namespace

const char *sdkVersion() { return POPLAR_SDK_VERSION; }

std::string timestampUTC() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

ProfileDatabase::ProfileDatabase(const std::string &path) : file(path) {
  // A new database each time: an old profile of the same name goes.
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  std::filesystem::remove(path + "-journal", ignored);
  if (sqlite3_open_v2(path.c_str(), &db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    const std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    db = nullptr;
    throw poplar_error("Cannot create the profile '" + path + "': " + message);
  }
  try {
    // The profile is rewritten from scratch if the program is run again:
    // no need to wait for the disk after each transaction.
    exec("PRAGMA synchronous = OFF");
    exec("PRAGMA application_id = 1347374160"); // "POPP"
    exec(("PRAGMA user_version = " + std::to_string(profileFormatVersion)).c_str());
    transaction(db, file, [&] { exec(schema); });
  } catch (...) {
    sqlite3_close(db);
    db = nullptr;
    throw;
  }
}

ProfileDatabase::~ProfileDatabase() { sqlite3_close(db); }

void ProfileDatabase::exec(const char *sql) {
  char *message = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string text = message ? message : "error";
    sqlite3_free(message);
    throw poplar_error("Cannot write the profile '" + file + "': " + text);
  }
}

void ProfileDatabase::setMeta(
    const std::vector<std::pair<std::string, std::string>> &rows) {
  transaction(db, file, [&] {
    Statement meta(db, file, "INSERT OR REPLACE INTO meta VALUES (?, ?)");
    for (const auto &[key, value] : rows)
      meta.insert(key, value);
  });
}

void ProfileDatabase::writeGraph(const Executable::Impl &exe,
                                 const model::Estimates &est, bool loweredVars) {
  const Target &t = est.target;
  const unsigned numTiles = t.getNumTiles();
  transaction(db, file, [&] {
    Statement(db, file,
              "INSERT INTO target VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
              "?, ?, ?)")
        .insert(toString(t.getTargetType()), t.getTargetArchString(),
                t.getNumIPUs(), t.getTilesPerIPU(), numTiles,
                t.getBytesPerTile(), t.getTileClockFrequency(),
                t.getNumWorkerContexts(), t.getExchangeBytesPerCycle(),
                t.getMemcpyBytesPerCycle(), t.getInstructionBytes(),
                t.getTilesPerSuperTile(),
                std::uint64_t(t.getInterleavedMemoryElementIndex()) *
                    model::constants::memoryElementBytes,
                t.getMinIPUSyncDelay(), t.getGlobalSyncCycles());

    Statement stat(db, file, "INSERT INTO graph_stat VALUES (?, ?)");
    stat.insert("numVertices", est.graph.numVertices);
    stat.insert("numEdges", est.graph.numEdges);
    stat.insert("numVars", est.graph.numVars);
    stat.insert("numComputeSets", est.graph.numComputeSets);
    Statement opt(db, file, "INSERT INTO optimization_info VALUES (?, ?)");
    for (const auto &[name, value] : est.optimizationInfo)
      opt.insert(name, value);

    Statement type(db, file, "INSERT INTO vertex_type VALUES (?, ?, ?)");
    for (std::size_t i = 0; i != est.vertexTypes.size(); ++i)
      type.insert(i, est.vertexTypes[i].name, est.vertexTypes[i].stateBytes);

    Statement cs(db, file, "INSERT INTO compute_set VALUES (?, ?, ?, ?, ?, ?)");
    Statement csType(db, file,
                     "INSERT INTO compute_set_vertex_type VALUES (?, ?, ?, ?)");
    Statement csTile(db, file, "INSERT INTO compute_set_tile VALUES (?, ?, ?, ?)");
    for (std::size_t i = 0; i != est.computeSets.size(); ++i) {
      const auto &c = est.computeSets[i];
      cs.insert(i, c.name, c.cycles, c.totalCycles, c.totalActive, c.numVertices);
      for (std::size_t k = 0; k != c.vertexTypes.size(); ++k)
        csType.insert(i, c.vertexTypes[k], c.vertexCounts[k],
                      c.activeCyclesByType[k]);
      for (const auto &tile : c.tiles)
        csTile.insert(i, tile.tile, tile.cycles, tile.active);
    }

    Statement x(db, file, "INSERT INTO exchange VALUES (?, ?, ?, ?, ?)");
    Statement xTile(db, file, "INSERT INTO exchange_tile VALUES (?, ?, ?, ?, ?, ?)");
    auto exchanges = [&](const char *kind,
                         const std::vector<model::ExchangeEstimate> &list) {
      for (std::size_t i = 0; i != list.size(); ++i) {
        x.insert(kind, i, list[i].name, list[i].cycles, list[i].totalBytes);
        for (const auto &tile : list[i].tiles)
          xTile.insert(kind, i, tile.tile, tile.sent, tile.received, tile.cycles);
      }
    };
    exchanges("internal", est.exchanges);
    exchanges("external", est.externalExchanges);
    exchanges("host", est.hostExchanges);

    Statement prog(db, file,
                   "INSERT INTO program VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    Statement child(db, file, "INSERT INTO program_child VALUES (?, ?, ?)");
    for (std::size_t i = 0; i != est.programs.size(); ++i) {
      const auto &p = est.programs[i];
      const char *xKind = exchangeKindOf(p.type);
      prog.insert(i, p.type, p.name, maybe(p.computeSet >= 0, p.computeSet),
                  maybe(xKind != nullptr && p.exchange >= 0, xKind ? xKind : ""),
                  maybe(p.exchange >= 0, p.exchange), maybe(p.target >= 0, p.target),
                  maybe(p.type == "Repeat", p.count),
                  maybe(!p.syncType.empty(), p.syncType));
      for (std::size_t k = 0; k != p.children.size(); ++k)
        child.insert(i, k, p.children[k]);
    }
    Statement control(db, file, "INSERT INTO control_program VALUES (?, ?)");
    for (std::size_t i = 0; i != est.controlPrograms.size(); ++i)
      control.insert(i, est.controlPrograms[i]);
    Statement function(db, file, "INSERT INTO function_program VALUES (?, ?)");
    for (std::size_t i = 0; i != est.functionPrograms.size(); ++i)
      function.insert(i, est.functionPrograms[i]);

    Statement step(db, file,
                   "INSERT INTO step VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                   "?, ?, ?, ?, ?)");
    for (std::size_t i = 0; i != est.steps.size(); ++i) {
      const auto &s = est.steps[i];
      const char *kind = stepKind(s.kind);
      const char *xKind = exchangeKindOf(kind);
      const bool sync = s.kind == Kind::Sync;
      const auto &c = s.tileCycles;
      step.insert(i, kind, maybe(!sync, s.program),
                  maybe(s.kind == Kind::OnTileExecute, s.index),
                  maybe(xKind != nullptr, xKind ? xKind : ""),
                  maybe(xKind != nullptr, s.index),
                  maybe(sync, s.external ? "External" : "Internal"), s.cycles,
                  c.activeCompute, c.compute, c.copySharedStructure, c.doExchange,
                  c.globalExchange, c.streamCopy, c.sync, c.control);
    }
    Statement stepIpu(db, file, "INSERT INTO step_ipu VALUES (?, ?, ?)");
    for (std::size_t i = 0; i != est.steps.size(); ++i)
      for (unsigned ipu : est.ipuSets[est.steps[i].ipus])
        stepIpu.insert(i, ipu, est.steps[i].eachIpu);

    // Memory.
    const auto &m = est.memory;
    Statement category(db, file, "INSERT INTO memory_category VALUES (?, ?, ?)");
    for (unsigned c = 0; c != model::numMemoryCategories; ++c)
      category.insert(c, model::categoryName(model::MemoryCategory(c)),
                      model::isOverlapped(model::MemoryCategory(c)));
    Statement region(db, file, "INSERT INTO memory_region VALUES (?, ?)");
    for (unsigned r = 0; r != 3; ++r)
      region.insert(r, regionName(r));
    Statement tile(db, file,
                   "INSERT INTO tile_memory VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    Statement tileCategory(db, file,
                           "INSERT INTO tile_memory_category VALUES (?, ?, ?, ?, ?)");
    for (unsigned i = 0; i != numTiles; ++i) {
      tile.insert(i, i / t.getTilesPerIPU(), m.total[i], m.totalIncludingGaps[i],
                  m.byRegion[0][i], m.byRegion[1][i], m.byRegion[2][i],
                  m.byRegionIncludingGaps[0][i], m.byRegionIncludingGaps[1][i],
                  m.byRegionIncludingGaps[2][i]);
      for (unsigned c = 0; c != model::numMemoryCategories; ++c)
        for (unsigned r = 0; r != 3; ++r) {
          const std::uint64_t non = m.nonOverlapped[c][r][i];
          const std::uint64_t over = m.overlapped[c][r][i];
          if (non != 0 || over != 0)
            tileCategory.insert(i, c, r, non, over);
        }
    }
    auto vertexMemory = [&](const char *sql, const auto &rows) {
      Statement s(db, file, sql);
      for (std::size_t i = 0; i != rows.size(); ++i)
        for (const auto &[tileId, v] : rows[i])
          s.insert(i, tileId, v.code, v.copyPointers, v.descriptors,
                   v.edgePointers, v.padding, v.vertexData);
    };
    vertexMemory("INSERT INTO compute_set_memory VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                 m.byComputeSet);
    vertexMemory("INSERT INTO vertex_type_memory VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                 m.byVertexType);
    Statement always(db, file, "INSERT INTO liveness_always VALUES (?, ?)");
    for (const auto &[name, bytes] : m.alwaysLive)
      always.insert(name, bytes);
    Statement live(db, file, "INSERT INTO liveness_step VALUES (?, ?, ?, ?, ?, ?, ?)");
    for (std::size_t i = 0; i != m.liveSteps.size(); ++i) {
      const auto &step = m.liveSteps[i];
      const auto &program = est.programs.at(step.program);
      live.insert(i, step.program, program.name.empty() ? program.type : program.name,
                  step.bytes(), step.bufferBytes[0], step.bufferBytes[1],
                  step.bufferBytes[2]);
    }
    Statement liveVar(db, file, "INSERT INTO liveness_variable VALUES (?, ?, ?, ?)");
    for (const auto &v : m.liveVariables)
      for (const auto &[first, last] : v.ranges)
        liveVar.insert(v.variable, first, last, v.bytes);

    Statement var(db, file, "INSERT INTO variable VALUES (?, ?, ?, ?, ?, ?)");
    for (std::size_t i = 0; i != exe.variables.size(); ++i) {
      const auto &v = exe.variables[i];
      var.insert(i, v.name, v.type.toString().str(), v.numElements,
                 v.elementBytes, v.isConstant);
    }
    if (loweredVars) {
      Statement placed(db, file, "INSERT INTO variable_tile VALUES (?, ?, ?, ?, ?)");
      for (const auto &p : m.variablePlacements)
        placed.insert(p.variable, p.tile, p.address, p.bytes, unsigned(p.region));
    }
  });
}

void ProfileDatabase::writeRun(const model::Estimates &est, const RunRecord &run) {
  const unsigned numTiles = est.target.getNumTiles();
  const unsigned id = runs;
  transaction(db, file, [&] {
    const std::size_t numSteps = std::size_t(run.traceEnd - run.traceBegin);
    Statement(db, file, "INSERT INTO run VALUES (?, ?, ?, ?, ?, ?, ?)")
        .insert(id, run.program, run.name, run.startCycle, run.cycles, numSteps,
                run.stepsTruncated);
    Statement step(db, file, "INSERT INTO run_step VALUES (?, ?, ?, ?, ?)");
    std::size_t position = 0;
    for (auto *e = run.traceBegin; e != run.traceEnd; ++e, ++position)
      step.insert(id, position, e->step, e->start - run.traceBase,
                  est.steps[e->step].cycles);

    // Per program and per tile, from how often each step ran.
    std::vector<std::uint64_t> progSteps(est.programs.size(), 0),
        progCycles(est.programs.size(), 0);
    for (std::size_t k = 0; k != run.stepCounts.size(); ++k) {
      const auto &s = est.steps[k];
      if (run.stepCounts[k] != 0 && s.kind != Kind::Sync) {
        progSteps[s.program] += run.stepCounts[k];
        progCycles[s.program] += run.stepCounts[k] * s.cycles;
      }
    }
    const auto a = model::tileActivity(est, run.stepCounts, run.cycles);
    Statement prog(db, file, "INSERT INTO run_program VALUES (?, ?, ?, ?)");
    for (std::size_t p = 0; p != progSteps.size(); ++p)
      if (progSteps[p] != 0)
        prog.insert(id, p, progSteps[p], progCycles[p]);
    Statement tile(db, file,
                   "INSERT INTO run_tile VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (unsigned t = 0; t != numTiles; ++t)
      tile.insert(id, t, a.activeCompute[t], a.compute[t], a.doExchange[t],
                  a.globalExchange[t], a.streamCopy[t], a.sync[t], a.control[t]);
  });
  ++runs;
}

} // namespace poplar::profiling
