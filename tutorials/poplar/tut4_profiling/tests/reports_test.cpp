// Runs tutorial 4 as its README shows for capturing a report, with
// POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true"}' in a directory of its
// own, and checks that profile.pop is written.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

TEST_CASE("Tutorial 4 writes profile.pop with autoReport.all",
          "[tutorial][autoreport]") {
  const fs::path dir = fs::path(TUT4_REPORT_DIR);
  fs::remove_all(dir);
  fs::create_directories(dir);
  ::setenv("POPLAR_ENGINE_OPTIONS", R"({"autoReport.all":"true"})", 1);
  const std::string command =
      "cd '" + dir.string() + "' && '" TUT4_PROGRAM "' > output.txt 2>&1";
  const int status = std::system(command.c_str());
  ::unsetenv("POPLAR_ENGINE_OPTIONS");
  std::ifstream in(dir / "output.txt");
  std::ostringstream output;
  output << in.rdbuf();
  INFO(output.str());
  REQUIRE(status == 0);
  CHECK(output.str().find("Program complete") != std::string::npos);
  CHECK(output.str().find("Memory Usage:") != std::string::npos);
  REQUIRE(fs::exists(dir / "profile.pop"));
  CHECK(fs::file_size(dir / "profile.pop") > 0);
  std::ifstream pop(dir / "profile.pop", std::ios::binary);
  std::string magic(15, '\0');
  pop.read(magic.data(), 15);
  CHECK(magic == "SQLite format 3");
}
