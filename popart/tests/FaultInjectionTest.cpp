// Faults from outside while PopART writes executables: a full disk (a file
// size limit, which fails writes with EFBIG as a full disk fails them with
// ENOSPC) while the engine cache stores a .popef and while saveExecutable
// writes one, and an engine cache that cannot be made. The session goes on
// (a cache is only a cache) or the error names the file; no partial or
// temporary file is left, a good file already there is kept whole, and the
// next attempt works.
#include "FileSizeLimit.hpp"

#include "SessionRun.hpp"

#include <popart/builder.hpp>
#include <popart/devicemanager.hpp>
#include <popart/error.hpp>
#include <popart/session.hpp>
#include <popart/sessionoptions.hpp>

#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace popart;
namespace fs = std::filesystem;

namespace {

using Floats = std::vector<float>;

// A directory of its own, removed at the end.
struct Scratch {
  fs::path dir;
  Scratch() {
    char templ[] = "/tmp/popart-fault-test-XXXXXX";
    dir = ::mkdtemp(templ);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::vector<fs::path> files(const fs::path &where) const {
    std::vector<fs::path> out;
    if (fs::exists(where))
      for (const auto &e : fs::recursive_directory_iterator(where))
        if (e.is_regular_file())
          out.push_back(e.path());
    return out;
  }
};

using sdktest::FileSizeLimit;

// y = relu(x W) with x [2,3], W [3,4].
struct Model {
  std::string proto;
  TensorId x, y;
  Floats x0 = {0.5f, -1.0f, 2.0f, 1.5f, 0.25f, -0.75f};
  Floats w0;
};

Model makeModel() {
  Model m;
  auto builder = Builder::create();
  auto o = builder->aiOnnxOpset13();
  m.w0.resize(12);
  for (int i = 0; i < 12; ++i)
    m.w0[i] = 0.1f * float(i) - 0.55f;
  m.x = builder->addInputTensor(TensorInfo(DataType::FLOAT, Shape{2, 3}), "x");
  TensorId w = builder->addInitializedInputTensor(
      ConstVoidData(m.w0.data(), TensorInfo(DataType::FLOAT, Shape{3, 4})), "w");
  m.y = o.relu({o.matmul({m.x, w})});
  builder->addOutputTensor(m.y);
  m.proto = builder->getModelProto();
  return m;
}

// The same on the host.
Floats expected(const Model &m) {
  Floats y(8);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 4; ++c) {
      float s = 0;
      for (int k = 0; k < 3; ++k)
        s += m.x0[r * 3 + k] * m.w0[k * 4 + c];
      y[r * 4 + c] = s > 0 ? s : 0;
    }
  return y;
}

std::unique_ptr<InferenceSession> session(const Model &m,
                                          const SessionOptions &o = {}) {
  return InferenceSession::createFromOnnxModel(
      m.proto, DataFlow(1, {{m.y, AnchorReturnType("All")}}),
      DeviceManager::createDeviceManager().createCpuDevice(), {}, o);
}

Floats infer(Session &s, const Model &m) {
  return popart_test::runStep(s, {{m.x, m.x0}}, {{m.y, 8}})[m.y];
}

std::string contentsOf(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A limit under which the session's executable cannot be written whole:
// a quarter of its size.
rlim_t quarterOfExecutable(const Model &m, const Scratch &s) {
  auto probe = session(m);
  probe->prepareDevice();
  const fs::path file = s.dir / "probe.popef";
  probe->saveExecutable(file.string());
  const auto size = fs::file_size(file);
  fs::remove(file);
  REQUIRE(size > 4096);
  return size / 4;
}

} // namespace

TEST_CASE("A full disk while the engine cache stores an executable leaves "
          "no entry, and the next session stores it",
          "[popart][faults]") {
  Scratch s;
  const Model m = makeModel();
  // Also compiles the codelets the graph needs, into their own cache, so
  // that the limit below falls on the executable alone.
  const rlim_t limit = quarterOfExecutable(m, s);
  SessionOptions o;
  o.enableEngineCaching = true;
  o.cachePath = (s.dir / "cache").string();
  {
    auto a = session(m, o);
    {
      FileSizeLimit full(limit);
      a->prepareDevice(); // the executable is not cached; the session works
    }
    CHECK(infer(*a, m) == expected(m));
    CHECK(s.files(s.dir / "cache").empty());
  }
  auto b = session(m, o);
  b->prepareDevice();
  CHECK(infer(*b, m) == expected(m));
  const auto entries = s.files(s.dir / "cache");
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].extension() == ".popef");
  // The entry is whole: a third session loads it and agrees.
  auto c = session(m, o);
  c->prepareDevice();
  CHECK(infer(*c, m) == expected(m));
  CHECK(s.files(s.dir / "cache") == entries);
}

TEST_CASE("A full disk while saveExecutable writes is an error naming the "
          "file, and a file already there is kept whole",
          "[popart][faults]") {
  Scratch s;
  const Model m = makeModel();
  const rlim_t limit = quarterOfExecutable(m, s);
  const fs::path file = s.dir / "model.popef";
  auto a = session(m);
  a->prepareDevice();
  {
    FileSizeLimit full(limit);
    CHECK_THROWS_AS(a->saveExecutable(file.string()), popart::error);
  }
  CHECK(s.files(s.dir).empty());

  a->saveExecutable(file.string());
  const std::string whole = contentsOf(file);
  {
    FileSizeLimit full(limit);
    try {
      a->saveExecutable(file.string());
      FAIL("no error");
    } catch (const popart::error &e) {
      CHECK(std::string(e.what()).find(file.string()) != std::string::npos);
    }
  }
  CHECK(s.files(s.dir) == std::vector<fs::path>{file});
  CHECK(contentsOf(file) == whole);
  auto b = session(m);
  b->loadExecutableFromFile(file.string());
  b->prepareDevice();
  CHECK(infer(*b, m) == expected(m));
}

TEST_CASE("An engine cache that cannot be made leaves the session working",
          "[popart][faults]") {
  Scratch s;
  const Model m = makeModel();
  std::ofstream(s.dir / "file") << "not a directory";
  SessionOptions o;
  o.enableEngineCaching = true;
  o.cachePath = (s.dir / "file" / "cache").string();
  auto a = session(m, o);
  a->prepareDevice();
  CHECK(infer(*a, m) == expected(m));
  CHECK(s.files(s.dir).size() == 1);
  o.cachePath = (s.dir / "cache").string();
  auto b = session(m, o);
  b->prepareDevice();
  CHECK(infer(*b, m) == expected(m));
  CHECK(s.files(s.dir / "cache").size() == 1);
}
