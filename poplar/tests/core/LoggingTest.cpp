// POPLAR_LOG_LEVEL, POPLAR_PROFILER_LOG_LEVEL and POPLAR_LOG_DEST: set
// before the first log line, so this test runs in a program of its own.
#include <catch2/catch.hpp>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace poplar;

TEST_CASE("Log lines go to POPLAR_LOG_DEST with the PO prefix",
          "[poplar][logging]") {
  const std::string path = "poplar_logging_test.log";
  std::remove(path.c_str());
  ::setenv("POPLAR_LOG_LEVEL", "DEBUG", 1);
  ::setenv("POPLAR_LOG_DEST", path.c_str(), 1);
  // The profiler's log at its own level: its debug lines are left out.
  ::setenv("POPLAR_PROFILER_LOG_LEVEL", "INFO", 1);
  const std::string reports = "poplar_logging_test_reports";
  {
    IPUModel model;
    model.tilesPerIPU = 2;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    Tensor v = graph.addVariable(FLOAT, {2}, "v");
    graph.setTileMapping(v, 0);
    Engine engine(graph, program::Sequence(),
                  {{"autoReport.outputExecutionProfile", "true"},
                   {"autoReport.directory", reports}});
    engine.load(device);
    engine.run(0);
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string log = text.str();
  INFO(log);
  // "HH:MM:SS.mmm <pid> PO:<MODULE> [<level letter>] message"
  const std::regex line(R"(\d\d:\d\d:\d\d\.\d{3} \d+ PO:[A-Z]+ +\[[TDIWEC]\] .+)");
  std::istringstream lines(log);
  std::string l;
  unsigned count = 0;
  while (std::getline(lines, l)) {
    CHECK(std::regex_match(l, line));
    ++count;
  }
  CHECK(count >= 3);
  CHECK(log.find("PO:ENGINE") != std::string::npos);
  CHECK(log.find("PO:COMPILER") != std::string::npos);
  CHECK(log.find("[I] Compiled graph") != std::string::npos);
  CHECK(log.find("[D] Engine::run(0)") != std::string::npos);
  CHECK(log.find("PO:PROFILER [I] autoReport: writing") != std::string::npos);
  // Recorded runs are logged at debug, which the profiler's level leaves out.
  CHECK(log.find("autoReport: run") == std::string::npos);
  std::remove(path.c_str());
  std::filesystem::remove_all(reports);
}
