// The cache of codelets compiled from source: a miss compiles, a hit reuses
// the entry, edits to the source or a header it includes are noticed, a
// corrupt entry is rebuilt, and concurrent compiles of one file agree.
#include "ConstVertex.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

using namespace poplar;
using namespace poplar::program;
namespace fs = std::filesystem;

namespace {

using sdktest::runConst;

// A fresh directory holding the cache and the sources of one test.
struct Scratch {
  fs::path dir;
  fs::path cache;
  Scratch() {
    char templ[] = "/tmp/poplar-codelet-cache-test-XXXXXX";
    dir = mkdtemp(templ);
    cache = dir / "cache";
    setenv("POPLAR_CODELET_CACHE_DIR", cache.c_str(), 1);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  fs::path write(const std::string &name, const std::string &text) const {
    std::ofstream(dir / name) << text;
    return dir / name;
  }
  std::vector<fs::path> entries() const {
    std::vector<fs::path> out;
    if (fs::exists(cache))
      for (const auto &e : fs::directory_iterator(cache))
        if (e.path().extension() == ".gp")
          out.push_back(e.path());
    return out;
  }
};

// A vertex writing VALUE (a macro, or a constant from a header).
std::string constantVertex(const std::string &valueExpr,
                           const std::string &include = "") {
  return "#include <poplar/Vertex.hpp>\n" + include +
         "class Const : public poplar::Vertex {\n"
         "public:\n"
         "  poplar::Output<int> out;\n"
         "  bool compute() { *out = " +
         valueExpr + "; return true; }\n};\n";
}

fs::file_time_type modified(const fs::path &p) { return fs::last_write_time(p); }

} // namespace

TEST_CASE("A miss compiles into the cache and a hit reuses the entry",
          "[codelet][cache]") {
  Scratch s;
  const auto src = s.write("c.cpp", constantVertex("41 + 1"));
  {
    Graph g(Target::createCPUTarget());
    CHECK(g.addCodelets(src.string()));
    CHECK(runConst(g) == 42);
  }
  auto entries = s.entries();
  REQUIRE(entries.size() == 1);
  const auto firstWrite = modified(entries[0]);
  {
    Graph g(Target::createCPUTarget());
    CHECK(g.addCodelets(src.string()));
    CHECK(runConst(g) == 42);
  }
  entries = s.entries();
  REQUIRE(entries.size() == 1);
  CHECK(modified(entries[0]) == firstWrite);
}

TEST_CASE("Edits to the source, its headers or the flags are noticed",
          "[codelet][cache]") {
  Scratch s;
  s.write("value.hpp", "constexpr int value = 1;\n");
  const auto src =
      s.write("c.cpp", constantVertex("value * FACTOR", "#include \"value.hpp\"\n"));
  auto compileAndRun = [&](const std::string &flags) {
    Graph g(Target::createCPUTarget());
    g.addCodelets(src.string(), CodeletFileType::Auto, flags);
    return runConst(g);
  };
  CHECK(compileAndRun("-DFACTOR=3") == 3);
  CHECK(compileAndRun("-DFACTOR=5") == 5); // flags are part of the key
  CHECK(s.entries().size() == 2);

  // A header edit with the same source: the manifest sees it. (Sleep so the
  // header's modification time surely changes.)
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  s.write("value.hpp", "constexpr int value = 7;\n");
  CHECK(compileAndRun("-DFACTOR=3") == 21);

  s.write("c.cpp", constantVertex("-FACTOR"));
  CHECK(compileAndRun("-DFACTOR=3") == -3);
  CHECK(s.entries().size() == 3);
}

TEST_CASE("A corrupt cache entry is rebuilt", "[codelet][cache]") {
  Scratch s;
  const auto src = s.write("c.cpp", constantVertex("7"));
  {
    Graph g(Target::createCPUTarget());
    g.addCodelets(src.string());
  }
  auto entries = s.entries();
  REQUIRE(entries.size() == 1);
  SECTION("overwritten with garbage") {
    std::ofstream(entries[0], std::ios::trunc) << "garbage";
  }
  SECTION("truncated") {
    fs::resize_file(entries[0], fs::file_size(entries[0]) / 2);
  }
  SECTION("one byte changed") {
    std::fstream f(entries[0], std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\x5a');
  }
  Graph g(Target::createCPUTarget());
  CHECK(g.addCodelets(src.string()));
  CHECK(runConst(g) == 7);
  CHECK(s.entries().size() == 1);
}

TEST_CASE("Two compiles of one file at once both succeed", "[codelet][cache]") {
  Scratch s;
  const auto src = s.write("c.cpp", constantVertex("11"));
  auto compileAndRun = [&] {
    Graph g(Target::createCPUTarget());
    g.addCodelets(src.string());
    return runConst(g);
  };
  auto a = std::async(std::launch::async, compileAndRun);
  auto b = std::async(std::launch::async, compileAndRun);
  CHECK(a.get() == 11);
  CHECK(b.get() == 11);
  CHECK(s.entries().size() == 1);
  // No temporary files are left behind.
  for (const auto &e : fs::directory_iterator(s.cache))
    CHECK(e.path().string().find(".tmp") == std::string::npos);
}

TEST_CASE("Codelet source from a stream", "[codelet][cache]") {
  Scratch s;
  std::stringstream source(constantVertex("5 * 5"));
  Graph g(Target::createCPUTarget());
  g.addCodelets(source);
  CHECK(g.hasCodelet("Const"));
  CHECK(runConst(g) == 25);
}
