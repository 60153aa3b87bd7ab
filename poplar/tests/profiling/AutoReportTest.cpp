// The autoReport engine options: which files are written and where,
// profile.pop's schema and contents against the Engine's own profiles, the
// runs of the execution part, debug.cbor, archive.a, the Engine-name
// subdirectory, POPLAR_ENGINE_OPTIONS and bad values.
#include <catch2/catch.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

// A directory of its own for each test, removed afterwards.
struct TempDir {
  fs::path path;
  TempDir() {
    static unsigned counter = 0;
    path = fs::temp_directory_path() /
           ("poplar-autoreport-" + std::to_string(::getpid()) + "-" +
            std::to_string(counter++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  std::string str() const { return path.string(); }
  std::set<std::string> files() const {
    std::set<std::string> names;
    for (const auto &e : fs::recursive_directory_iterator(path))
      if (e.is_regular_file())
        names.insert(fs::relative(e.path(), path).string());
    return names;
  }
};

struct ScopedEnv {
  std::string name;
  ScopedEnv(const char *n, const std::string &value) : name(n) {
    ::setenv(n, value.c_str(), 1);
  }
  ~ScopedEnv() { ::unsetenv(name.c_str()); }
};

Device makeDevice(const char *version = "ipu2") {
  IPUModel m(version);
  m.tilesPerIPU = 4;
  return m.createDevice();
}

// Four tiles: a stream in, a copy between tiles (an exchange) and within a
// tile (a memcpy compute set) repeated three times, and a stream out.
struct Fixture {
  Device device;
  Graph graph;
  std::vector<Program> programs;
  std::vector<float> in = std::vector<float>(8, 1.0f);
  std::vector<float> out = std::vector<float>(8, 0.0f);

  explicit Fixture(Device d = makeDevice())
      : device(std::move(d)), graph(device.getTarget()) {
    Tensor a = graph.addVariable(FLOAT, {8}, "a");
    Tensor b = graph.addVariable(FLOAT, {8}, "layer/b");
    Tensor c = graph.addConstant(FLOAT, {2}, 3.0f, "three");
    const unsigned tiles = graph.getTarget().getNumTiles(); // the CPU has 1
    graph.setTileMapping(a.slice(0, 4), 0);
    graph.setTileMapping(a.slice(4, 8), 1 % tiles);
    graph.setTileMapping(b, 1 % tiles);
    graph.setTileMapping(c, 3 % tiles);
    DataStream s = graph.addHostToDeviceFIFO("in", FLOAT, 8);
    DataStream t = graph.addDeviceToHostFIFO("out", FLOAT, 8);
    programs = {Sequence{Copy(s, a), Repeat(3, Copy(a, b), "again"), Copy(b, t)},
                Sequence{Copy(b, a)}};
  }

  Engine engine(const OptionFlags &options, const DebugContext &dc = {}) {
    Engine e(graph, programs, options, {}, dc);
    e.load(device);
    e.connectStream("in", in.data());
    e.connectStream("out", out.data());
    return e;
  }
};

// profile.pop, read with the SQLite C API.
class Db {
public:
  explicit Db(const fs::path &file) {
    REQUIRE(fs::exists(file));
    REQUIRE(sqlite3_open_v2(file.string().c_str(), &db, SQLITE_OPEN_READONLY,
                            nullptr) == SQLITE_OK);
  }
  ~Db() { sqlite3_close(db); }

  /// The rows of a query, each value as text (NULL as "NULL").
  std::vector<std::vector<std::string>> rows(const std::string &sql) const {
    sqlite3_stmt *stmt = nullptr;
    INFO(sql);
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK);
    std::vector<std::vector<std::string>> result;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int i = 0; i != sqlite3_column_count(stmt); ++i) {
        const unsigned char *text = sqlite3_column_text(stmt, i);
        row.push_back(text ? reinterpret_cast<const char *>(text) : "NULL");
      }
      result.push_back(std::move(row));
    }
    sqlite3_finalize(stmt);
    return result;
  }
  std::int64_t number(const std::string &sql) const {
    sqlite3_stmt *stmt = nullptr;
    INFO(sql);
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
    const std::int64_t v = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    return v;
  }
  std::string meta(const std::string &key) const {
    const auto r = rows("SELECT value FROM meta WHERE key = '" + key + "'");
    return r.empty() ? "<missing>" : r[0][0];
  }

private:
  sqlite3 *db = nullptr;
};

std::vector<std::uint8_t> readBytes(const fs::path &file) {
  std::ifstream in(file, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// The members of an ar archive, by name.
std::map<std::string, std::string> readAr(const fs::path &file) {
  std::ifstream in(file, std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(in)), {});
  REQUIRE(data.compare(0, 8, "!<arch>\n") == 0);
  std::map<std::string, std::string> members;
  std::size_t pos = 8;
  while (pos < data.size()) {
    REQUIRE(pos + 60 <= data.size());
    const std::string header = data.substr(pos, 60);
    REQUIRE(header.substr(58, 2) == "`\n");
    std::string name = header.substr(0, 16);
    name = name.substr(0, name.find('/'));
    const std::size_t size = std::stoul(header.substr(48, 10));
    REQUIRE(pos + 60 + size <= data.size());
    members[name] = data.substr(pos + 60, size);
    pos += 60 + size + (size % 2);
  }
  return members;
}

std::uint64_t sumOf(const ProfileValue &v) {
  std::uint64_t s = 0;
  for (const auto &x : v.asVector())
    s += x.asUint();
  return s;
}

} // namespace

TEST_CASE("autoReport.all writes profile.pop, debug.cbor and archive.a",
          "[autoreport]") {
  TempDir dir;
  Fixture f;
  {
    Engine e = f.engine({{"autoReport.all", "true"}, {"autoReport.directory", dir.str()}});
    // The graph part and the other files are there before anything runs.
    CHECK(dir.files() == std::set<std::string>{"profile.pop", "debug.cbor", "archive.a"});
    e.run(0);
  }
  Db db(dir.path / "profile.pop");
  CHECK(db.meta("format") == "poplar-profile");
  CHECK(db.meta("format_version") == "3");
  CHECK(db.meta("graph_profile") == "1");
  CHECK(db.meta("execution_profile") == "1");
  CHECK(db.meta("lowered_vars") == "1");
  CHECK(db.meta("complete") == "1");
  CHECK(db.meta("runs_total") == "1");
  CHECK(db.number("PRAGMA user_version") == 3);
  CHECK(db.number("SELECT count(*) FROM run") == 1);
}

TEST_CASE("Nothing is written without the options", "[autoreport]") {
  TempDir dir;
  Fixture f;
  {
    // The directory alone writes nothing, and neither does "false".
    Engine e = f.engine({{"autoReport.directory", dir.str()}});
    e.run(0);
    Engine g = f.engine({{"autoReport.directory", dir.str()},
                         {"autoReport.all", "false"},
                         {"autoReport.outputGraphProfile", "false"}});
    g.run(0);
  }
  CHECK(dir.files().empty());
}

TEST_CASE("Each output has its own option", "[autoreport]") {
  struct Case {
    OptionFlags options;
    std::set<std::string> files;
  };
  const std::vector<Case> cases = {
      {{{"autoReport.outputDebugInfo", "true"}}, {"debug.cbor"}},
      {{{"autoReport.outputArchive", "true"}}, {"archive.a"}},
      {{{"autoReport.outputGraphProfile", "true"}}, {"profile.pop"}},
      // The execution part and the lowered variables are in profile.pop.
      {{{"autoReport.outputExecutionProfile", "true"}}, {"profile.pop"}},
      {{{"autoReport.outputLoweredVars", "true"}}, {"profile.pop"}},
      // autoReport.all with one output turned off, as the capture guide shows.
      {{{"autoReport.all", "true"}, {"autoReport.outputArchive", "false"}},
       {"profile.pop", "debug.cbor"}},
      {{{"autoReport.all", "true"}, {"autoReport.outputDebugInfo", "false"}},
       {"profile.pop", "archive.a"}},
      // The guide's other name for autoReport.all.
      {{{"autoReport.enable", "true"}}, {"profile.pop", "debug.cbor", "archive.a"}},
  };
  for (const auto &c : cases) {
    TempDir dir;
    Fixture f;
    OptionFlags options = c.options;
    options.set("autoReport.directory", dir.str());
    {
      Engine e = f.engine(options);
      e.run(0);
    }
    std::ostringstream what;
    for (const auto &[k, v] : c.options)
      what << k << "=" << v << " ";
    INFO(what.str());
    CHECK(dir.files() == c.files);
  }
}

TEST_CASE("Only the options asked for are in profile.pop", "[autoreport]") {
  SECTION("graph profile only: no runs and no lowered variables") {
    TempDir dir;
    Fixture f;
    {
      Engine e = f.engine({{"autoReport.outputGraphProfile", "true"},
                           {"autoReport.directory", dir.str()}});
      e.run(0);
    }
    Db db(dir.path / "profile.pop");
    CHECK(db.meta("execution_profile") == "0");
    CHECK(db.meta("lowered_vars") == "0");
    CHECK(db.meta("runs_total") == "1");
    CHECK(db.number("SELECT count(*) FROM run") == 0);
    CHECK(db.number("SELECT count(*) FROM variable_tile") == 0);
    CHECK(db.number("SELECT count(*) FROM variable") == 3);
  }
  SECTION("debug.instrument false leaves the execution part out") {
    TempDir dir;
    Fixture f;
    {
      Engine e = f.engine({{"autoReport.all", "true"},
                           {"debug.instrument", "false"},
                           {"autoReport.directory", dir.str()}});
      e.run(0);
      CHECK_THROWS_AS(e.getExecutionProfile(), profiling_disabled);
    }
    Db db(dir.path / "profile.pop");
    CHECK(db.meta("execution_profile") == "0");
    CHECK(db.number("SELECT count(*) FROM run") == 0);
  }
}

TEST_CASE("profile.pop holds the graph profile", "[autoreport]") {
  TempDir dir;
  Fixture f;
  Engine e = f.engine({{"autoReport.all", "true"}, {"autoReport.directory", dir.str()}});
  const ProfileValue g = e.getGraphProfile();
  Db db(dir.path / "profile.pop");

  // The schema: every table is there.
  std::set<std::string> tables;
  for (const auto &row : db.rows("SELECT name FROM sqlite_master WHERE type = 'table'"))
    tables.insert(row[0]);
  for (const char *t :
       {"meta", "target", "graph_stat", "optimization_info", "vertex_type",
        "compute_set", "compute_set_vertex_type", "compute_set_tile", "exchange",
        "exchange_tile", "program", "program_child", "control_program",
        "function_program", "step", "memory_category", "memory_region",
        "tile_memory", "tile_memory_category", "compute_set_memory",
        "vertex_type_memory", "liveness_always", "liveness_step", "variable",
        "variable_tile", "run", "run_step", "run_program", "run_tile"}) {
    INFO(t);
    CHECK(tables.count(t) == 1);
  }
  CHECK(db.number("SELECT count(*) FROM pragma_foreign_key_check") == 0);

  CHECK(db.meta("sdk_version").find('.') != std::string::npos);
  CHECK(db.meta("created").size() == 20);
  CHECK(db.meta("complete") == "0"); // the engine is still alive
  CHECK(db.meta("engine_name").empty());

  // Target and graph.
  const auto target = db.rows("SELECT type, num_tiles, bytes_per_tile, "
                              "clock_frequency, num_worker_contexts FROM target");
  REQUIRE(target.size() == 1);
  CHECK(target[0][0] == "IPU_MODEL");
  CHECK(target[0][1] == "4");
  CHECK(std::stoull(target[0][2]) == g["target"]["bytesPerTile"].asUint());
  CHECK(std::stod(target[0][3]) == g["target"]["clockFrequency"].asDouble());
  for (const char *stat : {"numVertices", "numEdges", "numVars", "numComputeSets"}) {
    INFO(stat);
    CHECK(db.number(std::string("SELECT value FROM graph_stat WHERE name = '") +
                    stat + "'") == std::int64_t(g["graph"][stat].asUint()));
  }

  // Compute sets and vertex types, with their cycles per tile.
  const auto &cs = g["computeSets"];
  REQUIRE(db.number("SELECT count(*) FROM compute_set") ==
          std::int64_t(cs["names"].size()));
  for (std::size_t i = 0; i != cs["names"].size(); ++i) {
    CHECK(db.rows("SELECT name FROM compute_set WHERE id = " + std::to_string(i))[0][0] ==
          cs["names"][i].asString());
    for (unsigned t = 0; t != 4; ++t) {
      const auto row = db.rows("SELECT cycles, active_cycles FROM compute_set_tile "
                               "WHERE compute_set = " + std::to_string(i) +
                               " AND tile = " + std::to_string(t));
      const std::uint64_t cycles = cs["cycleEstimates"]["cyclesByTile"][i][t].asUint();
      CHECK((row.empty() ? 0 : std::stoull(row[0][0])) == cycles);
    }
  }
  CHECK(db.number("SELECT count(*) FROM vertex_type") ==
        std::int64_t(g["vertexTypes"]["names"].size()));

  // Exchanges: bytes per tile.
  const auto &x = g["exchanges"];
  REQUIRE(db.number("SELECT count(*) FROM exchange WHERE kind = 'internal'") ==
          std::int64_t(x["bytesSentByTile"].size()));
  for (std::size_t i = 0; i != x["bytesSentByTile"].size(); ++i) {
    const std::string where =
        " FROM exchange_tile WHERE kind = 'internal' AND exchange = " + std::to_string(i);
    CHECK(db.number("SELECT sum(bytes_sent)" + where) ==
          std::int64_t(sumOf(x["bytesSentByTile"][i])));
    CHECK(db.number("SELECT sum(bytes_received)" + where) ==
          std::int64_t(sumOf(x["bytesReceivedByTile"][i])));
  }
  CHECK(db.number("SELECT count(*) FROM exchange WHERE kind = 'host'") ==
        std::int64_t(g["hostExchanges"]["bytesSentByTile"].size()));

  // Programs, their children and the control programs.
  const auto &programs = g["programs"].asVector();
  REQUIRE(db.number("SELECT count(*) FROM program") == std::int64_t(programs.size()));
  std::size_t children = 0;
  for (std::size_t i = 0; i != programs.size(); ++i) {
    CHECK(db.rows("SELECT type FROM program WHERE id = " + std::to_string(i))[0][0] ==
          programs[i]["type"].asString());
    if (const ProfileValue *c = programs[i].getOrNull("children"))
      children += c->size();
  }
  CHECK(db.number("SELECT count(*) FROM program_child") == std::int64_t(children));
  CHECK(db.number("SELECT count(*) FROM control_program") == 2);
  CHECK(db.number("SELECT count(*) FROM program WHERE type = 'Repeat' AND "
                  "repeat_count = 3") == 1);

  // Memory: per tile, the totals of the graph profile; by category, the
  // bytes of each category.
  const auto &byTile = g["memory"]["byTile"];
  for (unsigned t = 0; t != 4; ++t) {
    INFO("tile " << t);
    const auto row = db.rows("SELECT total_bytes, total_bytes_including_gaps, "
                             "non_interleaved_bytes, interleaved_bytes "
                             "FROM tile_memory WHERE tile = " + std::to_string(t));
    REQUIRE(row.size() == 1);
    CHECK(std::stoull(row[0][0]) == byTile["total"][t].asUint());
    CHECK(std::stoull(row[0][1]) == byTile["totalIncludingGaps"][t].asUint());
    CHECK(std::stoull(row[0][2]) == byTile["nonInterleaved"][t].asUint());
    CHECK(std::stoull(row[0][3]) == byTile["interleaved"][t].asUint());
  }
  CHECK(db.number("SELECT sum(total_bytes) FROM tile_memory") ==
        std::int64_t(sumOf(byTile["total"])));
  for (const auto &[name, category] : g["memory"]["byCategory"].asMap()) {
    INFO(name);
    CHECK(db.number("SELECT coalesce(sum(non_overlapped_bytes + overlapped_bytes), 0) "
                    "FROM tile_memory_category JOIN memory_category "
                    "ON category = id WHERE name = '" + name + "'") ==
          std::int64_t(sumOf(category["total"])));
  }

  // Variables, and where they are on each tile (lowered variables).
  const auto vars = db.rows("SELECT id, name, type, num_elements, constant "
                            "FROM variable ORDER BY id");
  REQUIRE(vars.size() == 3);
  CHECK(vars[0] == std::vector<std::string>{"0", "a", "float", "8", "0"});
  CHECK(vars[1] == std::vector<std::string>{"1", "layer/b", "float", "8", "0"});
  CHECK(vars[2] == std::vector<std::string>{"2", "three", "float", "2", "1"});
  CHECK(db.rows("SELECT tile, bytes FROM variable_tile WHERE variable = 0 ORDER BY tile") ==
        std::vector<std::vector<std::string>>{{"0", "16"}, {"1", "16"}});
  CHECK(db.rows("SELECT tile, bytes FROM variable_tile WHERE variable = 2") ==
        std::vector<std::vector<std::string>>{{"3", "8"}});
  // Every variable's bytes are placed once, and a tile's variables and
  // constants add up to its variable and constant categories.
  CHECK(db.number("SELECT count(*) FROM (SELECT variable, sum(v.bytes) AS b "
                  "FROM variable_tile v JOIN variable ON variable = id "
                  "GROUP BY variable HAVING b != num_elements * element_bytes)") == 0);
  for (unsigned t = 0; t != 4; ++t) {
    INFO("tile " << t);
    CHECK(db.number("SELECT coalesce(sum(bytes), 0) FROM variable_tile WHERE tile = " +
                    std::to_string(t)) ==
          db.number("SELECT coalesce(sum(non_overlapped_bytes), 0) FROM "
                    "tile_memory_category c JOIN memory_category m ON c.category = m.id "
                    "WHERE m.name IN ('variable', 'constant') AND tile = " +
                    std::to_string(t)));
    // Allocations on a tile do not overlap.
    const auto placed = db.rows("SELECT address, bytes FROM variable_tile WHERE tile = " +
                                std::to_string(t) + " ORDER BY address");
    for (std::size_t k = 1; k < placed.size(); ++k)
      CHECK(std::stoull(placed[k - 1][0]) + std::stoull(placed[k - 1][1]) <=
            std::stoull(placed[k][0]));
  }
}

TEST_CASE("profile.pop holds the first runs, up to "
          "autoReport.executionProfileProgramRunCount",
          "[autoreport]") {
  const unsigned runs = 5;
  for (const char *count : {"", "0", "3", "10"}) {
    INFO("executionProfileProgramRunCount " << count);
    TempDir dir;
    Fixture f;
    OptionFlags options = {{"autoReport.outputExecutionProfile", "true"},
                           {"autoReport.directory", dir.str()}};
    if (*count)
      options.set("autoReport.executionProfileProgramRunCount", count);
    std::uint64_t firstRunCycles = 0;
    ProfileValue firstRun;
    {
      Engine e = f.engine(options);
      for (unsigned r = 0; r != runs; ++r) {
        e.resetExecutionProfile();
        e.run(r % 2, "run" + std::to_string(r));
        if (r == 0) {
          firstRun = e.getExecutionProfile();
          firstRunCycles = firstRun["simulation"]["cycles"].asUint();
          // The run is written as soon as it finishes.
          Db db(dir.path / "profile.pop");
          CHECK(db.number("SELECT count(*) FROM run") == (*count && *count == '0' ? 0 : 1));
        }
      }
    }
    const unsigned expected = !*count ? 2 : std::min<unsigned>(std::atoi(count), runs);
    Db db(dir.path / "profile.pop");
    CHECK(db.meta("runs_total") == std::to_string(runs));
    CHECK(db.meta("runs_profiled") == std::to_string(expected));
    CHECK(db.meta("execution_profile_program_run_count") == (*count ? count : "2"));
    REQUIRE(db.number("SELECT count(*) FROM run") == expected);
    if (expected == 0)
      continue;
    const auto list = db.rows("SELECT id, program, name FROM run ORDER BY id");
    for (unsigned r = 0; r != expected; ++r)
      CHECK(list[r] == std::vector<std::string>{std::to_string(r), std::to_string(r % 2),
                                                "run" + std::to_string(r)});
    // Run 0 against the execution profile of the same run.
    CHECK(db.number("SELECT cycles FROM run WHERE id = 0") == std::int64_t(firstRunCycles));
    CHECK(db.number("SELECT sum(cycles) FROM run_step WHERE run = 0") ==
          std::int64_t(firstRunCycles));
    CHECK(db.number("SELECT start_cycle FROM run WHERE id = 0") == 0);
    // Steps follow each other without gaps.
    CHECK(db.number("SELECT count(*) FROM run_step a JOIN run_step b ON a.run = b.run "
                    "AND b.position = a.position + 1 "
                    "WHERE b.start_cycle != a.start_cycle + a.cycles") == 0);
    // The same steps as the execution profile lists (which leaves out
    // control flow); the repeated copy's compute set runs three times.
    std::map<std::string, std::int64_t> kinds;
    for (const auto &step : firstRun["simulation"]["steps"].asVector())
      ++kinds[step["type"].asString()];
    CHECK(kinds["OnTileExecute"] == 3);
    for (const auto &[kind, n] : kinds) {
      INFO(kind);
      CHECK(db.number("SELECT count(*) FROM run_step r JOIN step s ON r.step = s.id "
                      "WHERE run = 0 AND s.kind = '" + kind + "'") == n);
    }
    // Per tile, what the execution profile's cyclesByTile says.
    const auto &byTile = firstRun["simulation"]["cyclesByTile"];
    for (unsigned t = 0; t != 4; ++t) {
      INFO("tile " << t);
      const auto row = db.rows("SELECT compute, do_exchange, stream_copy, sync, control "
                               "FROM run_tile WHERE run = 0 AND tile = " +
                               std::to_string(t));
      REQUIRE(row.size() == 1);
      CHECK(std::stoull(row[0][0]) == byTile["compute"][t].asUint());
      CHECK(std::stoull(row[0][1]) == byTile["doExchange"][t].asUint());
      CHECK(std::stoull(row[0][2]) == byTile["streamCopy"][t].asUint());
      CHECK(std::stoull(row[0][3]) == byTile["sync"][t].asUint());
      CHECK(std::stoull(row[0][4]) == byTile["control"][t].asUint());
    }
    CHECK(db.number("SELECT sum(cycles) FROM run_program WHERE run = 0") ==
          std::int64_t(firstRunCycles) -
              db.number("SELECT coalesce(sum(r.cycles), 0) FROM run_step r JOIN step s "
                        "ON r.step = s.id WHERE run = 0 AND s.kind = 'Sync'"));
    if (expected > 1)
      CHECK(db.number("SELECT start_cycle FROM run WHERE id = 1") ==
            std::int64_t(firstRunCycles));
  }
}

TEST_CASE("autoReport's execution profile turns instrumentation on",
          "[autoreport]") {
  TempDir dir;
  Fixture f;
  Engine e = f.engine({{"autoReport.all", "true"}, {"autoReport.directory", dir.str()}});
  e.run(0);
  CHECK(e.getExecutionProfile()["instrumented"]["compute"].asBool());
  Engine g = f.engine({{"autoReport.all", "true"},
                       {"debug.instrumentCompute", "false"},
                       {"autoReport.directory", dir.str()}});
  g.run(0);
  CHECK_FALSE(g.getExecutionProfile()["instrumented"]["compute"].asBool());
}

TEST_CASE("debug.cbor is CBOR with the names of the graph", "[autoreport]") {
  TempDir dir;
  Fixture f;
  Engine e = f.engine({{"autoReport.outputDebugInfo", "true"},
                       {"autoReport.directory", dir.str()}},
                      "my engine");
  const auto bytes = readBytes(dir.path / "my engine" / "debug.cbor");
  REQUIRE(!bytes.empty());
  const nlohmann::json d = nlohmann::json::from_cbor(bytes);
  for (const char *key :
       {"format", "formatVersion", "sdkVersion", "created", "engine", "target",
        "variables", "vertexTypes", "computeSets", "programs", "controlPrograms",
        "functionPrograms", "streams", "remoteBuffers", "hostWrites", "hostReads"}) {
    INFO(key);
    CHECK(d.contains(key));
  }
  CHECK(d["format"] == "poplar-debug-info");
  CHECK(d["engine"] == "my engine");
  CHECK(d["target"]["type"] == "IPU_MODEL");
  REQUIRE(d["variables"].size() == 3);
  CHECK(d["variables"][1]["name"] == "layer/b");
  CHECK(d["variables"][2]["constant"] == true);
  REQUIRE(d["streams"].size() == 2);
  CHECK(d["streams"][0]["handle"] == "in");
  CHECK(d["streams"][0]["direction"] == "HostToDevice");
  CHECK(d["streams"][1]["direction"] == "DeviceToHost");
  // The programs are those of the graph profile, with the same ids.
  const ProfileValue g = e.getGraphProfile();
  REQUIRE(d["programs"].size() == g["programs"].size());
  for (std::size_t i = 0; i != d["programs"].size(); ++i)
    CHECK(d["programs"][i]["type"] == g["programs"][i]["type"].asString());
  CHECK(d["controlPrograms"].size() == 2);
  bool named = false;
  for (const auto &p : d["programs"])
    named = named || (p["type"] == "Repeat" && p["name"] == "again");
  CHECK(named);
  CHECK(d["computeSets"].size() == g["computeSets"]["names"].size());
}

TEST_CASE("archive.a is an ar archive of the graph profile and tile memory",
          "[autoreport]") {
  TempDir dir;
  Fixture f;
  Engine e = f.engine({{"autoReport.outputArchive", "true"},
                       {"autoReport.directory", dir.str()}});
  const auto members = readAr(dir.path / "archive.a");
  REQUIRE(members.size() == 2);
  REQUIRE(members.count("graph.json") == 1);
  REQUIRE(members.count("tiles.csv") == 1);
  const nlohmann::json g = nlohmann::json::parse(members.at("graph.json"));
  CHECK(g.contains("memory"));
  CHECK(g["target"]["numTiles"] == 4);
  std::istringstream csv(members.at("tiles.csv"));
  std::string line;
  std::getline(csv, line);
  CHECK(line.rfind("tile,ipu,totalBytes,", 0) == 0);
  const ProfileValue profile = e.getGraphProfile();
  for (unsigned t = 0; t != 4; ++t) {
    REQUIRE(std::getline(csv, line));
    std::istringstream fields(line);
    std::string tile, ipu, total;
    std::getline(fields, tile, ',');
    std::getline(fields, ipu, ',');
    std::getline(fields, total, ',');
    CHECK(std::stoul(tile) == t);
    CHECK(std::stoull(total) == profile["memory"]["byTile"]["total"][t].asUint());
  }
}

TEST_CASE("An engine with a name writes into a subdirectory of that name",
          "[autoreport]") {
  TempDir dir;
  Fixture f;
  const OptionFlags options = {{"autoReport.all", "true"},
                               {"autoReport.directory", dir.str()}};
  {
    Engine training = f.engine(options, "training");
    Engine validation = f.engine(options, DebugContext("validation"));
    training.run(0);
    validation.run(1);
    // From an executable: the name of compileGraph's debug context.
    Executable exe = compileGraph(f.graph, f.programs, options, {}, "inference");
    Engine inference(std::move(exe), options);
    // A debug path is one directory.
    Engine nested = f.engine(options, DebugContext(DebugContext("model"), "eval"));
  }
  std::set<std::string> expected;
  for (const char *name : {"training", "validation", "inference", "model_eval"})
    for (const char *file : {"profile.pop", "debug.cbor", "archive.a"})
      expected.insert((fs::path(name) / file).string());
  CHECK(dir.files() == expected);
  Db training(dir.path / "training" / "profile.pop");
  CHECK(training.meta("engine_name") == "training");
  CHECK(training.rows("SELECT program FROM run") ==
        std::vector<std::vector<std::string>>{{"0"}});
  Db validation(dir.path / "validation" / "profile.pop");
  CHECK(validation.rows("SELECT program FROM run") ==
        std::vector<std::vector<std::string>>{{"1"}});
}

TEST_CASE("The report directory is made when it does not exist, and "
          "defaults to the current directory",
          "[autoreport]") {
  TempDir dir;
  Fixture f;
  {
    Engine e = f.engine({{"autoReport.outputGraphProfile", "true"},
                         {"autoReport.directory", (dir.path / "a" / "b").string()}});
  }
  CHECK(dir.files() == std::set<std::string>{"a/b/profile.pop"});

  TempDir cwd;
  const fs::path before = fs::current_path();
  fs::current_path(cwd.path);
  {
    Engine e = f.engine({{"autoReport.outputDebugInfo", "true"}});
  }
  fs::current_path(before);
  CHECK(cwd.files() == std::set<std::string>{"debug.cbor"});

  // A file where the directory should be is an error.
  std::ofstream(dir.path / "file") << "x";
  CHECK_THROWS_AS(f.engine({{"autoReport.all", "true"},
                            {"autoReport.directory", (dir.path / "file").string()}}),
                  poplar_error);
}

TEST_CASE("POPLAR_ENGINE_OPTIONS asks for reports too", "[autoreport]") {
  TempDir dir;
  Fixture f;
  {
    ScopedEnv env("POPLAR_ENGINE_OPTIONS",
                  R"({"autoReport.all": "true", "autoReport.outputArchive": "false", )"
                  R"("autoReport.executionProfileProgramRunCount": "1", )"
                  R"("autoReport.directory": ")" + dir.str() + "\"}");
    Engine e = f.engine({});
    e.run(0);
    e.run(0);
  }
  CHECK(dir.files() == std::set<std::string>{"profile.pop", "debug.cbor"});
  Db db(dir.path / "profile.pop");
  CHECK(db.number("SELECT count(*) FROM run") == 1);
  CHECK(db.meta("runs_total") == "2");

  // The environment overrides the program's options.
  TempDir other;
  {
    ScopedEnv env("POPLAR_ENGINE_OPTIONS",
                  R"({"autoReport.outputDebugInfo": "false", "autoReport.directory": ")" +
                      other.str() + "\"}");
    Engine e = f.engine({{"autoReport.outputDebugInfo", "true"},
                         {"autoReport.outputGraphProfile", "true"},
                         {"autoReport.directory", dir.str() + "/unused"}});
  }
  CHECK(other.files() == std::set<std::string>{"profile.pop"});
}

TEST_CASE("Bad autoReport values are errors that name the option", "[autoreport]") {
  Fixture f;
  for (const char *name :
       {"autoReport.all", "autoReport.outputGraphProfile",
        "autoReport.outputExecutionProfile", "autoReport.outputArchive",
        "autoReport.outputDebugInfo", "autoReport.outputLoweredVars"}) {
    INFO(name);
    CHECK_THROWS_AS(f.engine({{name, "yes"}}), invalid_option);
    CHECK_THROWS_WITH(f.engine({{name, "1"}}), Contains(std::string("'") + name + "'"));
  }
  for (const char *bad : {"two", "-1", "", "3x"}) {
    INFO(bad);
    CHECK_THROWS_WITH(f.engine({{"autoReport.executionProfileProgramRunCount", bad}}),
                      Contains("'autoReport.executionProfileProgramRunCount'") &&
                          Contains("unsigned integer"));
  }
  CHECK_THROWS_WITH(f.engine({{"autoReport.directory", ""}}),
                    Contains("'autoReport.directory'"));
  CHECK_THROWS_WITH(f.engine({{"autoReport.everything", "true"}}),
                    Contains("'autoReport.everything'"));
  {
    ScopedEnv env("POPLAR_ENGINE_OPTIONS", R"({"autoReport.all": "on"})");
    CHECK_THROWS_WITH(f.engine({}), Contains("'autoReport.all'"));
  }
}

TEST_CASE("The CPU target has only debug.cbor", "[autoreport]") {
  TempDir dir;
  Fixture f(Device::createCPUDevice());
  {
    Engine e = f.engine({{"autoReport.all", "true"}, {"autoReport.directory", dir.str()}});
    e.run(0);
  }
  CHECK(dir.files() == std::set<std::string>{"debug.cbor"});
  const nlohmann::json d = nlohmann::json::from_cbor(readBytes(dir.path / "debug.cbor"));
  CHECK(d["target"]["type"] == "CPU");
  CHECK(d["controlPrograms"].size() == 2);
  CHECK(d["variables"].size() == 3);
}

TEST_CASE("debug.retainDebugInformation false writes no reports", "[autoreport]") {
  TempDir dir;
  Fixture f;
  {
    Engine e = f.engine({{"autoReport.all", "true"},
                         {"debug.retainDebugInformation", "false"},
                         {"autoReport.directory", dir.str()}});
    e.run(0);
  }
  CHECK(dir.files().empty());
}

TEST_CASE("The capture options naming a tile or a replica are checked",
          "[autoreport]") {
  {
    TempDir dir;
    Fixture f;
    const unsigned tiles = f.graph.getTarget().getTilesPerIPU();
    for (const char *option : {"debug.profilingTile", "debug.branchRecordTile"}) {
      INFO(option);
      Engine ok = f.engine({{option, std::to_string(tiles - 1)},
                            {"autoReport.all", "true"},
                            {"autoReport.directory", dir.str()}});
      ok.run(0);
      CHECK_THROWS_WITH(f.engine({{option, std::to_string(tiles)}}),
                        Contains(option) &&
                            Contains(std::to_string(tiles) + " tiles"));
      CHECK_THROWS_AS(f.engine({{option, "last"}}), invalid_option);
    }
    Engine ok = f.engine({{"profiler.replicaToProfile", "0"}});
    CHECK_THROWS_WITH(f.engine({{"profiler.replicaToProfile", "1"}}),
                      Contains("profiler.replicaToProfile") &&
                          Contains("1 replica"));
  }
}
