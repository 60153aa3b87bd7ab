// Corrupt reports are refused when opened, with a pva::error naming the
// file and what is wrong, never a crash or another exception: a profile
// whose rows refer to entries it lacks or whose counts are absurd, and a
// debug.cbor that the CBOR reader rejects by throwing. (Cases found by
// fuzz/ProfileFuzzer.cpp.)
#include <pva/pva.hpp>

#include "SmallReport.hpp"

#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace {

const fs::path dir = fs::path(PVA_TEST_DIR) / "corrupt";

// The reports of the tests' small IPU Model program, made once.
const fs::path &goodProfile() {
  static const fs::path path = [] {
    sdktest::writeSmallReport((dir / "good").string());
    return dir / "good" / "profile.pop";
  }();
  return path;
}

// A copy of the good profile with `sql` applied to it.
std::string corrupted(const std::string &name, const std::string &sql) {
  const fs::path path = dir / (name + ".pop");
  fs::copy_file(goodProfile(), path, fs::copy_options::overwrite_existing);
  sqlite3 *db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  char *message = nullptr;
  const int status = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
  const std::string why = message ? message : "";
  sqlite3_free(message);
  sqlite3_close(db);
  INFO(why);
  REQUIRE(status == SQLITE_OK);
  return path.string();
}

void requireRefused(const std::string &path, const std::string &what) {
  CHECK_THROWS_AS(pva::openReport(path), pva::error);
  CHECK_THROWS_WITH(pva::openReport(path),
                    Catch::Contains(path) && Catch::Contains("corrupt") &&
                        Catch::Contains(what));
}

} // namespace

TEST_CASE("The unaltered profile opens", "[pva][corrupt]") {
  const pva::Report report = pva::openReport(goodProfile().string());
  CHECK(report.compilation().target().numTiles() == 4);
}

TEST_CASE("Rows naming entries the profile lacks are errors", "[pva][corrupt]") {
  requireRefused(corrupted("category-tile", "DELETE FROM tile_memory_category WHERE tile != 0;"
                                            "UPDATE tile_memory_category SET tile = 99"),
                 "tile_memory_category");
  requireRefused(corrupted("program-child", "UPDATE program_child SET child = 1000"),
                 "has child 1000");
  requireRefused(corrupted("step-program", "UPDATE step SET program = 77"),
                 "runs program 77");
  requireRefused(corrupted("control-program", "UPDATE control_program SET program = 500"),
                 "lists program 500");
  requireRefused(corrupted("run-step", "UPDATE run_step SET step = 4000"),
                 "has step 4000");
}

TEST_CASE("Absurd counts are errors, not allocations", "[pva][corrupt]") {
  requireRefused(corrupted("tiles", "UPDATE target SET num_tiles = 4000000000"),
                 "4000000000 tiles");
  requireRefused(corrupted("exchange-id", "DELETE FROM exchange_tile;"
                                          "DELETE FROM exchange WHERE id != 0;"
                                          "UPDATE exchange SET id = 9000000000000"),
                 "exchange 9000000000000");
  requireRefused(corrupted("category-id", "UPDATE memory_category SET id = -3 WHERE id = 0"),
                 "memory category -3");
}

TEST_CASE("A debug.cbor the CBOR reader throws on is a pva::error", "[pva][corrupt]") {
  // An array claiming 10^19 elements.
  const fs::path debug = dir / "huge-array.cbor";
  const unsigned char bytes[] = {0x9b, 0x96, 0xc3, 0xac, 0xa8, 0x58, 0x55, 0x00, 0x80};
  std::ofstream(debug, std::ios::binary)
      .write(reinterpret_cast<const char *>(bytes), sizeof bytes);
  CHECK_THROWS_AS(pva::openReport(goodProfile().string(), debug.string()), pva::error);
  CHECK_THROWS_WITH(pva::openReport(goodProfile().string(), debug.string()),
                    Catch::Contains("huge-array.cbor") &&
                        Catch::Contains("is not a debug.cbor"));
}

TEST_CASE("A debug.cbor nested deeper than the Engine writes is a pva::error",
          "[pva][corrupt]") {
  // Found by fuzz/ProfileFuzzer.cpp: the CBOR reader recursed once per
  // level until the stack ran out.
  const fs::path debug = dir / "deep.cbor";
  std::ofstream(debug, std::ios::binary) << std::string(200000, '\x81') << '\x01';
  CHECK_THROWS_AS(pva::openReport(goodProfile().string(), debug.string()), pva::error);
  CHECK_THROWS_WITH(pva::openReport(goodProfile().string(), debug.string()),
                    Catch::Contains("deep.cbor") && Catch::Contains("nests"));
}
