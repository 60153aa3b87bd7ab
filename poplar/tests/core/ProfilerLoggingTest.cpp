// POPLAR_PROFILER_LOG_LEVEL: the profiler's steps are logged at their own
// level, with the rest of Poplar's log off (a program of its own, since
// the environment is read before the first log line).
#include <catch2/catch.hpp>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace poplar;

TEST_CASE("POPLAR_PROFILER_LOG_LEVEL logs the profiler's steps alone",
          "[poplar][logging]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() /
                       ("poplar_profiler_log_" + std::to_string(::getpid()));
  const std::string path = (dir / "log.txt").string();
  fs::create_directories(dir);
  ::unsetenv("POPLAR_LOG_LEVEL");
  ::setenv("POPLAR_PROFILER_LOG_LEVEL", "DEBUG", 1);
  ::setenv("POPLAR_LOG_DEST", path.c_str(), 1);
  {
    IPUModel model;
    model.tilesPerIPU = 2;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    Tensor v = graph.addVariable(FLOAT, {2}, "v");
    graph.setTileMapping(v, 0);
    OptionFlags options{{"autoReport.all", "true"},
                        {"autoReport.directory", (dir / "reports").string()},
                        {"autoReport.executionProfileProgramRunCount", "1"}};
    Engine engine(graph, program::Sequence{program::Copy(v, v)}, options);
    engine.load(device);
    engine.run(0);
    engine.run(0);
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string log = text.str();
  INFO(log);
  CHECK(log.find("PO:PROFILER [I] autoReport: writing") != std::string::npos);
  CHECK(log.find("profile.pop") != std::string::npos);
  CHECK(log.find("[D] autoReport: run 1 (program 0) written") != std::string::npos);
  CHECK(log.find("[D] autoReport: run 2 (program 0) not written") !=
        std::string::npos);
  CHECK(log.find("PO:ENGINE") == std::string::npos);
  CHECK(log.find("PO:COMPILER") == std::string::npos);
  fs::remove_all(dir);
}
