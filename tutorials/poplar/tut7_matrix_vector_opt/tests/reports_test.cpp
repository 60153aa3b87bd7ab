// Runs tutorial 7 as its README shows for capturing reports, with
// POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true"}' in a directory of its
// own, and checks the files it leaves: profile.pop opens in SQLite and
// holds the graph and the first two runs (the multiplication's cycles are
// those the tutorial prints), debug.cbor decodes, archive.a is an archive.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path &file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// The first column of the rows of a query, as text.
std::vector<std::string> column(sqlite3 *db, const std::string &sql) {
  sqlite3_stmt *stmt = nullptr;
  INFO(sql);
  REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK);
  std::vector<std::string> values;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    const unsigned char *text = sqlite3_column_text(stmt, 0);
    values.push_back(text ? reinterpret_cast<const char *>(text) : "NULL");
  }
  sqlite3_finalize(stmt);
  return values;
}

std::string one(sqlite3 *db, const std::string &sql) {
  const auto values = column(db, sql);
  INFO(sql);
  REQUIRE(values.size() == 1);
  return values[0];
}

} // namespace

TEST_CASE("Tutorial 7 writes its reports with autoReport.all", "[tutorial][autoreport]") {
  const fs::path dir = fs::path(TUT7_REPORT_DIR);
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(TUT7_CODELETS, dir / "matrix-mul-codelets.cpp");

  ::setenv("POPLAR_ENGINE_OPTIONS", R"({"autoReport.all":"true"})", 1);
  const std::string command = "cd '" + dir.string() + "' && '" TUT7_PROGRAM
                              "' 10000 1000 --device model-ipu1 > output.txt 2>&1";
  const int status = std::system(command.c_str());
  ::unsetenv("POPLAR_ENGINE_OPTIONS");
  const std::string output = slurp(dir / "output.txt");
  INFO(output);
  REQUIRE(status == 0);
  std::smatch cycles;
  REQUIRE(std::regex_search(output, cycles, std::regex("Program cycles: ([0-9]+)")));

  // tut7's Engine has no name: the files are in the directory it ran in.
  CHECK(fs::exists(dir / "profile.pop"));
  CHECK(fs::exists(dir / "debug.cbor"));
  CHECK(fs::exists(dir / "archive.a"));

  sqlite3 *db = nullptr;
  REQUIRE(sqlite3_open_v2((dir / "profile.pop").c_str(), &db, SQLITE_OPEN_READONLY,
                          nullptr) == SQLITE_OK);
  CHECK(one(db, "PRAGMA integrity_check") == "ok");
  CHECK(one(db, "SELECT value FROM meta WHERE key = 'format'") == "poplar-profile");
  CHECK(one(db, "SELECT value FROM meta WHERE key = 'complete'") == "1");
  CHECK(one(db, "SELECT num_tiles FROM target") == "1216");
  CHECK(one(db, "SELECT count(*) FROM compute_set WHERE name = 'mulCS'") == "1");
  CHECK(one(db, "SELECT value FROM graph_stat WHERE name = 'numVertices'") ==
        std::to_string(10000 * 5 + 10000));
  CHECK(column(db, "SELECT name FROM variable ORDER BY id") ==
        std::vector<std::string>{"matrix", "inputVector", "outputVector", "partials"});
  CHECK(one(db, "SELECT sum(bytes) FROM variable_tile WHERE variable = 0") ==
        std::to_string(10000 * 1000 * 4));
  // Three runs (copy in, multiply, copy out); the first two are profiled,
  // and the second is the multiplication whose cycles tut7 prints.
  CHECK(one(db, "SELECT value FROM meta WHERE key = 'runs_total'") == "3");
  CHECK(column(db, "SELECT program FROM run ORDER BY id") ==
        std::vector<std::string>{"0", "1"});
  CHECK(one(db, "SELECT cycles FROM run WHERE id = 1") == cycles[1].str());
  CHECK(one(db, "SELECT sum(cycles) FROM run_step WHERE run = 1") == cycles[1].str());
  sqlite3_close(db);

  const std::string cbor = slurp(dir / "debug.cbor");
  const nlohmann::json debug = nlohmann::json::from_cbor(cbor);
  CHECK(debug["format"] == "poplar-debug-info");
  CHECK(debug["variables"][0]["name"] == "matrix");
  CHECK(debug["controlPrograms"].size() == 3);

  CHECK(slurp(dir / "archive.a").compare(0, 8, "!<arch>\n") == 0);
}
