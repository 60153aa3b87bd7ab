// POPLAR_LOG_LEVEL and POPLAR_LOG_DEST: set before the first log line, so
// this test runs in a program of its own.
#include <catch2/catch.hpp>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <cstdio>
#include <cstdlib>
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
  {
    IPUModel model;
    model.tilesPerIPU = 2;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    Tensor v = graph.addVariable(FLOAT, {2}, "v");
    graph.setTileMapping(v, 0);
    Engine engine(graph, program::Sequence());
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
  std::remove(path.c_str());
}
