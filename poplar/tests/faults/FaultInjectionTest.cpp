// Faults from outside the SDK: a full disk (a file size limit, which fails
// writes as a full disk does) while codelets compile, while reports are
// written and while an executable is serialised, a codelet cache or report
// directory that cannot be made, popc killed in the middle of a compile,
// two processes compiling the same codelet at once, and stream callbacks
// that throw. Each is an error naming what failed; nothing broken
// is left in the cache or the report directory; the next attempt works.
#include "FileSizeLimit.hpp"

#include "codelet/ConstVertex.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Program.hpp>
#include <poplar/exceptions.hpp>

#include <catch2/catch.hpp>

#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

extern char **environ;

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

using sdktest::runConst;

// Sets an environment variable for a scope, restoring it afterwards.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const std::string &value) : name(name) {
    if (const char *v = std::getenv(name)) {
      had = true;
      old = v;
    }
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had)
      ::setenv(name, old.c_str(), 1);
    else
      ::unsetenv(name);
  }

private:
  const char *name;
  bool had = false;
  std::string old;
};

// A directory of its own for a test, with the codelet cache inside it.
struct Scratch {
  fs::path dir;
  fs::path cache;
  ScopedEnv env;
  Scratch()
      : dir(makeDir()), cache(dir / "cache"),
        env("POPLAR_CODELET_CACHE_DIR", cache.string()) {}
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  static fs::path makeDir() {
    char templ[] = "/tmp/poplar-fault-test-XXXXXX";
    return mkdtemp(templ);
  }
  fs::path write(const std::string &name, const std::string &text) const {
    std::ofstream(dir / name) << text;
    return dir / name;
  }
  std::vector<fs::path> files(const fs::path &where,
                              const std::string &extension) const {
    std::vector<fs::path> out;
    if (fs::exists(where))
      for (const auto &e : fs::recursive_directory_iterator(where))
        if (e.path().extension() == extension)
          out.push_back(e.path());
    return out;
  }
  std::vector<fs::path> entries() const { return files(cache, ".gp"); }
  std::vector<fs::path> leftovers(const fs::path &where) const {
    return files(where, ".tmp");
  }
};

using sdktest::FileSizeLimit;

std::string constantVertex(int value) {
  return "#include <poplar/Vertex.hpp>\n"
         "class Const : public poplar::Vertex {\n"
         "public:\n"
         "  poplar::Output<int> out;\n"
         "  bool compute() { *out = " +
         std::to_string(value) + "; return true; }\n};\n";
}

int compileAndRun(const fs::path &source) {
  Graph graph(Target::createCPUTarget());
  graph.addCodelets(source.string());
  return runConst(graph);
}

// A small IPU Model program and its engine, with the options given.
struct ModelProgram {
  Device device;
  Graph graph;
  Sequence prog;
  ModelProgram() : device(smallModel().createDevice()), graph(device.getTarget()) {
    Tensor a = graph.addVariable(FLOAT, {16}, "a");
    Tensor b = graph.addVariable(FLOAT, {16}, "b");
    for (unsigned tile = 0; tile != 4; ++tile) {
      graph.setTileMapping(a.slice(4 * tile, 4 * tile + 4), tile);
      graph.setTileMapping(b.slice(4 * tile, 4 * tile + 4), (tile + 1) % 4);
    }
    prog.add(Copy(a, b));
  }
  static IPUModel smallModel() {
    IPUModel model;
    model.tilesPerIPU = 4;
    return model;
  }
};

} // namespace

TEST_CASE("A full disk while codelets compile is an error, and nothing is "
          "left in the cache",
          "[poplar][faults]") {
  Scratch s;
  const fs::path source = s.write("full.cpp", constantVertex(5));
  {
    FileSizeLimit limit(4096);
    Graph graph(Target::createCPUTarget());
    CHECK_THROWS_WITH(graph.addCodelets(source.string()),
                      Contains(source.string()));
  }
  CHECK(s.entries().empty());
  CHECK(s.leftovers(s.cache).empty());
  CHECK(compileAndRun(source) == 5);
  CHECK(s.entries().size() == 1);
}

TEST_CASE("A full disk while reports are written is an error naming the "
          "file, and the next engine writes them whole",
          "[poplar][faults]") {
  Scratch s;
  const fs::path reports = s.dir / "reports";
  const OptionFlags options{{"autoReport.all", "true"},
                            {"autoReport.directory", reports.string()}};
  {
    ModelProgram p;
    FileSizeLimit limit(2048);
    CHECK_THROWS_AS(Engine(p.graph, p.prog, options), poplar_error);
    CHECK_THROWS_WITH(Engine(p.graph, p.prog, options),
                      Contains(reports.string()));
  }
  CHECK(s.leftovers(reports).empty());
  {
    ModelProgram p;
    Engine engine(p.graph, p.prog, options);
    engine.load(p.device);
    engine.run();
  }
  // Past the limit that stopped the first engine.
  CHECK(fs::file_size(reports / "profile.pop") > 2048);
  CHECK(fs::file_size(reports / "archive.a") > 2048);
  CHECK(fs::file_size(reports / "debug.cbor") > 0);
  CHECK(s.leftovers(reports).empty());
}

TEST_CASE("A codelet cache that cannot be made is an error naming it",
          "[poplar][faults]") {
  Scratch s;
  const fs::path source = s.write("c.cpp", constantVertex(6));
  s.write("file", "not a directory");
  const fs::path unusable = s.dir / "file" / "cache";
  {
    ScopedEnv env("POPLAR_CODELET_CACHE_DIR", unusable.string());
    Graph graph(Target::createCPUTarget());
    CHECK_THROWS_AS(graph.addCodelets(source.string()), poplar_error);
    CHECK_THROWS_WITH(graph.addCodelets(source.string()),
                      Contains((s.dir / "file").string()));
  }
  CHECK(compileAndRun(source) == 6);
}

TEST_CASE("popc killed in the middle of a compile leaves no entry",
          "[poplar][faults]") {
  Scratch s;
  const fs::path source = s.write("killed.cpp", constantVertex(8));
  // Writes part of its output, then dies as a killed process does.
  const fs::path popc = s.write("popc-killed",
                                "#!/bin/sh\n"
                                "out=\n"
                                "while [ $# -gt 0 ]; do\n"
                                "  [ \"$1\" = -o ] && out=$2\n"
                                "  shift\n"
                                "done\n"
                                "head -c 3000 /dev/zero > \"$out\"\n"
                                "kill -9 $$\n");
  fs::permissions(popc, fs::perms::owner_all);
  {
    ScopedEnv env("POPLAR_POPC", popc.string());
    Graph graph(Target::createCPUTarget());
    CHECK_THROWS_AS(graph.addCodelets(source.string()),
                    graph_program_compilation_error);
    CHECK_THROWS_WITH(graph.addCodelets(source.string()),
                      Contains(source.string()));
  }
  CHECK(s.entries().empty());
  CHECK(s.leftovers(s.cache).empty());
  CHECK(compileAndRun(source) == 8);
}

TEST_CASE("Two processes compiling the same codelet at once both succeed",
          "[poplar][faults]") {
  Scratch s;
  const fs::path source = s.write("shared.cpp", constantVertex(13));
  std::vector<pid_t> children;
  for (int i = 0; i != 2; ++i) {
    std::string program = SDK_COMPILE_CHILD, path = source.string(), value = "13";
    char *argv[] = {program.data(), path.data(), value.data(), nullptr};
    pid_t pid = 0;
    REQUIRE(::posix_spawn(&pid, program.c_str(), nullptr, nullptr, argv,
                          environ) == 0);
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  CHECK(s.entries().size() == 1);
  CHECK(s.leftovers(s.cache).empty());
}

TEST_CASE("A stream callback that throws stops the run with its exception, "
          "and the engine runs again",
          "[poplar][faults]") {
  Graph graph(Target::createCPUTarget());
  Tensor v = graph.addVariable(FLOAT, {4}, "v");
  graph.setTileMapping(v, 0);
  DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, 4);
  DataStream out = graph.addDeviceToHostFIFO("out", FLOAT, 4);
  Engine engine(graph, Sequence{Copy(in, v), Copy(v.reverse(0), out)});
  engine.load(Device::createCPUDevice());

  float fill = 1;
  bool failIn = true, failOut = false;
  std::vector<float> received;
  auto connect = [&] {
    engine.connectStreamToCallback("in", [&](void *p) {
      if (failIn)
        throw std::runtime_error("the sensor is offline");
      auto *values = static_cast<float *>(p);
      for (int i = 0; i != 4; ++i)
        values[i] = fill + float(i);
    });
    engine.connectStreamToCallback("out", [&](void *p) {
      if (failOut)
        throw std::runtime_error("the consumer went away");
      auto *values = static_cast<float *>(p);
      received.assign(values, values + 4);
    });
  };
  connect();
  CHECK_THROWS_WITH(engine.run(), "the sensor is offline");
  failIn = false;
  failOut = true;
  CHECK_THROWS_WITH(engine.run(), "the consumer went away");
  CHECK(received.empty());
  failOut = false;
  fill = 10;
  engine.run();
  CHECK(received == std::vector<float>{13, 12, 11, 10});
  fill = 20;
  engine.run();
  CHECK(received == std::vector<float>{23, 22, 21, 20});
}

TEST_CASE("A full disk while an executable is serialised is an error naming "
          "the file, and a file already there is kept whole",
          "[poplar][faults]") {
  Scratch s;
  const fs::path file = s.dir / "model.exe";
  ModelProgram p;
  const Executable exe = compileGraph(p.graph, {p.prog});
  std::ostringstream bytes;
  exe.serialize(bytes);
  REQUIRE(bytes.str().size() > 512);
  {
    FileSizeLimit limit(bytes.str().size() / 2);
    CHECK_THROWS_AS(exe.serialize(file.string()), poplar_error);
  }
  CHECK_FALSE(fs::exists(file));
  CHECK(s.leftovers(s.dir).empty());
  CHECK(fs::directory_iterator(s.dir) == fs::directory_iterator());

  exe.serialize(file.string());
  CHECK(fs::file_size(file) == bytes.str().size());
  {
    FileSizeLimit limit(bytes.str().size() / 2);
    CHECK_THROWS_WITH(exe.serialize(file.string()), Contains(file.string()));
  }
  CHECK(fs::file_size(file) == bytes.str().size());
  // What is there loads and runs.
  Engine engine(Executable::deserialize(file.string()));
  engine.load(p.device);
  engine.run();
}

TEST_CASE("A report directory that cannot be made is an error naming it, "
          "and a good one works",
          "[poplar][faults]") {
  Scratch s;
  s.write("file", "not a directory");
  const fs::path unusable = s.dir / "file" / "reports";
  {
    ModelProgram p;
    const OptionFlags options{{"autoReport.all", "true"},
                              {"autoReport.directory", unusable.string()}};
    CHECK_THROWS_AS(Engine(p.graph, p.prog, options), poplar_error);
    CHECK_THROWS_WITH(Engine(p.graph, p.prog, options),
                      Contains((s.dir / "file").string()));
  }
  CHECK(fs::file_size(s.dir / "file") == std::string("not a directory").size());
  ModelProgram p;
  const fs::path reports = s.dir / "reports";
  Engine engine(p.graph, p.prog,
                {{"autoReport.all", "true"},
                 {"autoReport.directory", reports.string()}});
  engine.load(p.device);
  engine.run();
  CHECK(fs::file_size(reports / "profile.pop") > 0);
}
