// Executables saved and loaded on the device under test: the engine cache
// (enableEngineCaching, cachePath) skips the compile of a second session
// and gives bit-identical results, inference and training; keys change with
// the model and options; damaged and foreign files are errors naming the
// file (a damaged cache entry is compiled again); compileAndExport,
// saveExecutable and loadExecutableFromFile carry trained weights; and the
// compilation progress a session reports.
#include "PopartTestDevice.hpp"
#include "SessionRun.hpp"

#include <popart/builder.hpp>
#include <popart/devicemanager.hpp>
#include <popart/error.hpp>
#include <popart/op/identity.hpp>
#include <popart/session.hpp>
#include <popart/sgd.hpp>
#include <popart/stepio.hpp>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

using namespace popart;
namespace fs = std::filesystem;

namespace {

using popart_test::readWeight;

using Floats = std::vector<float>;

// A directory of its own for each test case and device variant (the
// variants run at once).
class TempDir {
public:
  explicit TempDir(const std::string &what) {
    const char *device = std::getenv("SDK_TEST_DEVICE");
    path = fs::temp_directory_path() /
           ("popart_exe_" + what + "_" + (device ? device : "default") + "_" +
            std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string &name) const {
    return (path / name).string();
  }
  std::vector<std::string> popefFiles() const {
    std::vector<std::string> files;
    for (const auto &e : fs::directory_iterator(path))
      if (e.path().extension() == ".popef")
        files.push_back(e.path().string());
    return files;
  }
  fs::path path;
};

// The progress reports of one session's preparation.
struct Progress {
  std::vector<int> values;
  int total = 0;
  void attach(SessionOptions &o) {
    o.compilationProgressLogger = [this](int p, int t) {
      values.push_back(p);
      total = t;
    };
  }
  // Lowering and compiling report the stages between start and end; a
  // loaded executable goes from 0 straight to the total.
  bool compiled() const {
    for (int v : values)
      if (v > 0 && v < total)
        return true;
    return false;
  }
};

bool sameBits(const Floats &a, const Floats &b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// relu(x W + b) with x [2,3], W [3,4], b [4]; the output is summed into a
// loss for training.
struct Model {
  std::string proto;
  TensorId x, w, b, y, loss;
  Floats x0 = {0.5f, -1.0f, 2.0f, 1.5f, 0.25f, -0.75f};
  Floats w0;
};

Model model(float scale = 1.0f) {
  Model m;
  auto builder = Builder::create();
  auto o = builder->aiOnnxOpset13();
  Floats w(12), b(4);
  for (int i = 0; i < 12; ++i)
    w[i] = scale * (0.1f * float(i) - 0.55f);
  for (int i = 0; i < 4; ++i)
    b[i] = 0.05f * float(i);
  m.x = builder->addInputTensor(TensorInfo(DataType::FLOAT, Shape{2, 3}), "x");
  m.w0 = w;
  m.w = builder->addInitializedInputTensor(
      ConstVoidData(w.data(), TensorInfo(DataType::FLOAT, Shape{3, 4})), "w");
  m.b = builder->addInitializedInputTensor(
      ConstVoidData(b.data(), TensorInfo(DataType::FLOAT, Shape{4})), "b");
  m.y = o.relu({o.add({o.matmul({m.x, m.w}), m.b})});
  m.loss = builder->aiGraphcoreOpset1().identityloss({m.y}, ReductionType::Sum);
  builder->addOutputTensor(m.y);
  m.proto = builder->getModelProto();
  return m;
}

std::unique_ptr<InferenceSession>
inference(const Model &m, const SessionOptions &o,
          std::shared_ptr<DeviceInfo> device = popart_test::createTestDevice()) {
  return InferenceSession::createFromOnnxModel(
      m.proto, DataFlow(1, {{m.y, AnchorReturnType("All")}}), device, {}, o);
}

Floats infer(Session &s, const Model &m) {
  return popart_test::runStep(s, {{m.x, m.x0}}, {{m.y, 8}})[m.y];
}

SGD sgd() {
  return SGD({{"defaultLearningRate", {0.05f, false}},
              {"defaultMomentum", {0.9f, true}}});
}

std::unique_ptr<TrainingSession> training(const Model &m, const SessionOptions &o) {
  return TrainingSession::createFromOnnxModel(
      m.proto, DataFlow(1, {{m.loss, AnchorReturnType("All")}}), m.loss, sgd(),
      popart_test::createTestDevice(), {}, o);
}

Floats trainStep(Session &s, const Model &m, int step) {
  Floats x = m.x0;
  for (float &v : x)
    v += 0.1f * float(step);
  return popart_test::runStep(s, {{m.x, x}}, {{m.loss, 1}})[m.loss];
}

SessionOptions caching(const TempDir &dir) {
  SessionOptions o;
  o.enableEngineCaching = true;
  o.cachePath = dir / "cache";
  return o;
}

void flipByte(const std::string &path, std::size_t fromEnd) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(0, std::ios::end);
  const std::streamoff at = static_cast<std::streamoff>(f.tellg()) -
                            static_cast<std::streamoff>(fromEnd);
  f.seekg(at);
  char c = 0;
  f.get(c);
  f.seekp(at);
  f.put(static_cast<char>(c ^ 0x5a));
}

// The message of the popart::error `f` throws.
template <class F> std::string errorOf(F &&f) {
  try {
    f();
  } catch (const popart::error &e) {
    return e.what();
  }
  FAIL("no popart::error was thrown");
  return {};
}

} // namespace

TEST_CASE("A cached inference session starts without compiling",
          "[popart][executable]") {
  TempDir dir("inference");
  const Model m = model();
  SessionOptions o = caching(dir);
  Progress first, second;
  first.attach(o);
  auto a = inference(m, o);
  a->prepareDevice();
  const Floats want = infer(*a, m);
  REQUIRE(first.compiled());
  REQUIRE(first.values.front() == 0);
  REQUIRE(first.values.back() == 100);
  REQUIRE(dir.popefFiles().empty());
  REQUIRE(fs::directory_iterator(dir.path / "cache") != fs::directory_iterator());

  second.attach(o);
  auto b = inference(m, o);
  b->prepareDevice();
  REQUIRE_FALSE(second.compiled());
  REQUIRE(second.values == std::vector<int>{0, 100});
  REQUIRE(sameBits(infer(*b, m), want));

  SECTION("a new model, option or engine option is a new entry") {
    auto count = [&] {
      return std::distance(fs::directory_iterator(dir.path / "cache"),
                           fs::directory_iterator());
    };
    REQUIRE(count() == 1);
    Progress p;
    SessionOptions other = o;
    p.attach(other);
    inference(model(2.0f), other)->prepareDevice();
    REQUIRE(p.compiled());
    REQUIRE(count() == 2);
    other.engineOptions["debug.instrument"] = "false";
    p.values.clear();
    inference(m, other)->prepareDevice();
    REQUIRE(p.compiled());
    REQUIRE(count() == 3);
    other.enableOutlining = !other.enableOutlining;
    p.values.clear();
    inference(m, other)->prepareDevice();
    REQUIRE(p.compiled());
    REQUIRE(count() == 4);
  }

  SECTION("a damaged entry is compiled again and replaced") {
    const std::string entry =
        fs::directory_iterator(dir.path / "cache")->path().string();
    flipByte(entry, 100);
    Progress p;
    SessionOptions again = o;
    p.attach(again);
    auto c = inference(m, again);
    c->prepareDevice();
    REQUIRE(p.compiled());
    REQUIRE(sameBits(infer(*c, m), want));
    p.values.clear();
    inference(m, again)->prepareDevice();
    REQUIRE_FALSE(p.compiled());
  }
}

TEST_CASE("POPART_CACHE_DIR turns the engine cache on", "[popart][executable]") {
  TempDir dir("env");
  ::setenv("POPART_CACHE_DIR", (dir / "envcache").c_str(), 1);
  SessionOptions o;
  ::unsetenv("POPART_CACHE_DIR");
  REQUIRE(o.enableEngineCaching);
  REQUIRE(o.cachePath == dir / "envcache");
  REQUIRE_FALSE(SessionOptions().enableEngineCaching);
  // popart.ir's name for it, which wins.
  ::setenv("POPART_CACHE_DIR", "ignored", 1);
  ::setenv("POPXL_CACHE_DIR", (dir / "xl").c_str(), 1);
  const SessionOptions xl;
  ::unsetenv("POPART_CACHE_DIR");
  ::unsetenv("POPXL_CACHE_DIR");
  REQUIRE(xl.enableEngineCaching);
  REQUIRE(xl.cachePath == dir / "xl");
  const Model m = model();
  inference(m, o)->prepareDevice();
  REQUIRE(fs::directory_iterator(dir.path / "envcache") != fs::directory_iterator());
}

TEST_CASE("A cached training session trains as the first",
          "[popart][executable][training]") {
  TempDir dir("training");
  const Model m = model();
  SessionOptions o = caching(dir);
  Progress first, second;
  first.attach(o);
  auto a = training(m, o);
  a->prepareDevice();
  a->weightsFromHost();
  REQUIRE(first.compiled());
  second.attach(o);
  auto b = training(m, o);
  b->prepareDevice();
  b->weightsFromHost();
  REQUIRE_FALSE(second.compiled());
  for (int step = 0; step < 3; ++step) {
    INFO("step " << step);
    REQUIRE(sameBits(trainStep(*a, m, step), trainStep(*b, m, step)));
  }
  REQUIRE(sameBits(readWeight(*a, m.w), readWeight(*b, m.w)));
  REQUIRE(sameBits(readWeight(*a, m.b), readWeight(*b, m.b)));
  // Trained, not the initial values.
  REQUIRE_FALSE(sameBits(readWeight(*a, m.w), m.w0));
}

TEST_CASE("saveExecutable and loadExecutableFromFile carry trained weights",
          "[popart][executable][training]") {
  TempDir dir("save");
  const Model m = model();
  auto a = training(m, {});
  a->prepareDevice();
  a->weightsFromHost();
  trainStep(*a, m, 0);
  trainStep(*a, m, 1);
  // A directory: <dir>/executable.popef, weights read from the device.
  a->saveExecutable(dir / "saved/");
  REQUIRE(fs::exists(dir / "saved/executable.popef"));
  a->saveVariables(dir / "saved");
  REQUIRE(fs::exists(dir / "saved/variables.popef"));

  Progress p;
  SessionOptions o;
  p.attach(o);
  auto b = training(m, o);
  b->loadExecutableFromFile(dir / "saved/executable.popef");
  b->prepareDevice();
  b->weightsFromHost();
  REQUIRE_FALSE(p.compiled());
  REQUIRE(sameBits(readWeight(*a, m.w), readWeight(*b, m.w)));
  for (int step = 2; step < 4; ++step)
    REQUIRE(sameBits(trainStep(*a, m, step), trainStep(*b, m, step)));
  REQUIRE(sameBits(readWeight(*a, m.b), readWeight(*b, m.b)));

  SECTION("without variables, the session's own weights are used") {
    a->saveExecutable(dir / "novars.popef", true, false);
    auto c = training(m, {});
    c->loadExecutableFromFile(dir / "novars.popef");
    c->prepareDevice();
    c->weightsFromHost();
    auto fresh = training(m, {});
    fresh->prepareDevice();
    fresh->weightsFromHost();
    REQUIRE(sameBits(readWeight(*c, m.w), readWeight(*fresh, m.w)));
    REQUIRE(sameBits(trainStep(*c, m, 0), trainStep(*fresh, m, 0)));
  }
  SECTION("without metadata, it cannot be loaded") {
    a->saveExecutable(dir / "nometa.popef", false, true);
    auto c = training(m, {});
    const std::string what =
        errorOf([&] { c->loadExecutableFromFile(dir / "nometa.popef"); });
    REQUIRE_THAT(what, Catch::Contains("nometa.popef") &&
                           Catch::Contains("no PopART metadata"));
  }
}

TEST_CASE("compileAndExport writes a file a new session runs",
          "[popart][executable]") {
  TempDir dir("export");
  const Model m = model();
  SessionOptions o;
  o.constantWeights = false;
  auto a = inference(m, o);
  a->compileAndExport(dir / "deep/dir/model.popef");
  REQUIRE(fs::exists(dir / "deep/dir/model.popef"));
  // The engine compiled for the export is used by prepareDevice.
  Progress p;
  SessionOptions withProgress = o;
  p.attach(withProgress);
  auto b = inference(m, withProgress);
  b->loadExecutableFromFile(dir / "deep/dir/model.popef");
  b->prepareDevice();
  b->weightsFromHost();
  REQUIRE_FALSE(p.compiled());
  a->prepareDevice();
  a->weightsFromHost();
  REQUIRE(sameBits(infer(*a, m), infer(*b, m)));

  std::stringstream stream;
  a->compileAndExport(stream);
  auto c = inference(m, o);
  c->loadExecutableFromStream(std::make_shared<std::stringstream>(stream.str()));
  c->prepareDevice();
  c->weightsFromHost();
  REQUIRE(sameBits(infer(*a, m), infer(*c, m)));
}

TEST_CASE("Executables that cannot be used are errors naming the file",
          "[popart][executable]") {
  TempDir dir("errors");
  const Model m = model();
  auto a = inference(m, {});
  a->compileAndExport(dir / "good.popef");
  const std::string good = dir / "good.popef";
  std::ifstream in(good, std::ios::binary);
  const std::string bytes(std::istreambuf_iterator<char>(in), {});
  auto write = [&](const std::string &name, const std::string &data) {
    std::ofstream(dir / name, std::ios::binary) << data;
    return dir / name;
  };
  auto loadError = [&](const std::string &path) {
    return errorOf([&] {
      auto s = inference(m, {});
      s->loadExecutableFromFile(path);
      s->prepareDevice();
    });
  };

  REQUIRE_THAT(loadError(dir / "missing.popef"),
               Catch::Contains("missing.popef") && Catch::Contains("cannot be opened"));
  REQUIRE_THAT(loadError(write("empty.popef", "")),
               Catch::Contains("empty.popef") && Catch::Contains("empty"));
  REQUIRE_THAT(loadError(write("text.popef", "not an executable at all")),
               Catch::Contains("text.popef") &&
                   Catch::Contains("not a PopART executable file"));
  REQUIRE_THAT(loadError(write("short.popef", bytes.substr(0, bytes.size() / 2))),
               Catch::Contains("short.popef") && Catch::Contains("truncated"));
  std::string damaged = bytes;
  damaged[damaged.size() - 7] ^= 0x10;
  REQUIRE_THAT(loadError(write("damaged.popef", damaged)),
               Catch::Contains("damaged.popef") && Catch::Contains("checksum"));

  SECTION("another model, data flow or options") {
    auto other = inference(model(2.0f), {});
    REQUIRE_THAT(errorOf([&] { other->loadExecutableFromFile(good); }),
                 Catch::Contains("good.popef") && Catch::Contains("another model"));
    auto flow = InferenceSession::createFromOnnxModel(
        m.proto, DataFlow(1, {{m.loss, AnchorReturnType("All")}}),
        popart_test::createTestDevice());
    REQUIRE_THAT(errorOf([&] { flow->loadExecutableFromFile(good); }),
                 Catch::Contains("good.popef") && Catch::Contains("DataFlow"));
    SessionOptions o;
    o.enableOutlining = false;
    auto options = inference(m, o);
    REQUIRE_THAT(errorOf([&] { options->loadExecutableFromFile(good); }),
                 Catch::Contains("good.popef") && Catch::Contains("other options"));
  }
  SECTION("a training executable in an inference session") {
    auto t = training(m, {});
    t->compileAndExport(dir / "training.popef");
    REQUIRE_THAT(loadError(dir / "training.popef"),
                 Catch::Contains("training.popef") &&
                     Catch::Contains("training session"));
  }
  SECTION("another target") {
    auto &manager = DeviceManager::createDeviceManager();
    auto device = popart_test::createTestDevice();
    auto other = device->getType() == DeviceType::Cpu
                     ? manager.createIpuModelDevice({{"tilesPerIPU", "4"}})
                     : manager.createCpuDevice();
    auto s = inference(m, {}, other);
    const std::string what = errorOf([&] { s->loadExecutableFromFile(good); });
    REQUIRE_THAT(what, Catch::Contains("good.popef") &&
                           Catch::Contains("compiled for the target"));
  }
  SECTION("POPART_PRELOAD_POPEF") {
    ::setenv("POPART_PRELOAD_POPEF", "full-preload", 1);
    auto s = inference(m, {});
    s->loadExecutableFromFile(good);
    s->prepareDevice();
    REQUIRE(infer(*s, m).size() == 8);
    ::setenv("POPART_PRELOAD_POPEF", "sometimes", 1);
    const std::string what =
        errorOf([&] { inference(m, {})->loadExecutableFromFile(good); });
    ::unsetenv("POPART_PRELOAD_POPEF");
    REQUIRE_THAT(what, Catch::Contains("POPART_PRELOAD_POPEF") &&
                           Catch::Contains("sometimes"));
  }
  SECTION("saving needs an executable") {
    SessionOptions o;
    o.compileEngine = false;
    auto s = inference(m, o);
    s->prepareDevice();
    REQUIRE_THAT(errorOf([&] { s->saveExecutable(dir / "x.popef"); }),
                 Catch::Contains("compileEngine"));
  }
}

TEST_CASE("Compilation progress is reported in the original's stages",
          "[popart][progress]") {
  const Model m = model();
  SessionOptions o;
  o.compilationProgressTotal = 1000;
  Progress p;
  p.attach(o);
  inference(m, o)->prepareDevice();
  REQUIRE(p.total == 1000);
  REQUIRE(p.values.front() == 0);
  REQUIRE(p.values.back() == 1000);
  for (std::size_t i = 1; i < p.values.size(); ++i)
    REQUIRE(p.values[i] > p.values[i - 1]);
  // Lowering (3, 7 to 40) and Poplar's compile (41 to the total).
  REQUIRE(std::find(p.values.begin(), p.values.end(), 3) != p.values.end());
  REQUIRE(std::find_if(p.values.begin(), p.values.end(),
                       [](int v) { return v > 41 && v < 1000; }) !=
          p.values.end());

  o.compilationProgressTotal = 0;
  REQUIRE_THROWS_WITH(inference(m, o),
                      Catch::Contains("compilationProgressTotal"));
}

TEST_CASE("Engines are named after their sessions, cached ones too",
          "[popart][executable][report]") {
  TempDir dir("names");
  const Model m = model();
  SessionOptions o = caching(dir);
  o.engineOptions["autoReport.outputDebugInfo"] = "true";
  o.engineOptions["autoReport.directory"] = dir / "reports";
  auto written = [&](const std::string &name) {
    return fs::exists(dir.path / "reports" / name / "debug.cbor");
  };
  inference(m, o)->prepareDevice();
  REQUIRE(written("inference"));
  training(m, o)->prepareDevice();
  REQUIRE(written("training"));
  auto named = InferenceSession::createFromOnnxModel(
      m.proto, DataFlow(1, {{m.y, AnchorReturnType("All")}}),
      popart_test::createTestDevice(), {}, o, {}, "validation");
  named->prepareDevice();
  REQUIRE(written("validation"));
  // From the cache (one entry per name), into the same directories.
  fs::remove_all(dir.path / "reports");
  Progress p;
  p.attach(o);
  inference(m, o)->prepareDevice();
  REQUIRE_FALSE(p.compiled());
  REQUIRE(written("inference"));
  REQUIRE(std::distance(fs::directory_iterator(dir.path / "cache"),
                        fs::directory_iterator()) == 3);
}
