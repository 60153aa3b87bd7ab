// Executables written to files and read back, on every device variant:
// an Engine made from the file computes what the original does (codelet
// vertices, streams, control flow, constants), with the same profiles on
// the IPU Models, even when the codelet files it was built from are gone;
// files of another format or SDK version, truncated or damaged, and a
// device of another target are refused with the file and the reason.
#include "../runtime/EngineTestUtil.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Program.hpp>
#include <poplar/exceptions.hpp>

#include <catch2/catch.hpp>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <sstream>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern =
        (fs::temp_directory_path() / "poplar-exe-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

// Copies the files of a codelet cache that other tests may be writing at
// the same moment: an entry that vanishes or appears mid-copy is skipped
// (it is only a warm start; a missing entry is compiled again).
void copyLiveCache(const fs::path &from, const fs::path &to) {
  std::error_code walk;
  for (fs::recursive_directory_iterator it(from, walk), end;
       !walk && it != end; it.increment(walk)) {
    std::error_code ec;
    if (!it->is_regular_file(ec))
      continue;
    const fs::path target = to / fs::relative(it->path(), from, ec);
    if (ec)
      continue;
    fs::create_directories(target.parent_path(), ec);
    fs::copy_file(it->path(), target, fs::copy_options::overwrite_existing,
                  ec);
  }
}

// Codelet vertices with state, a stream in and out, a loop, a constant
// and host reads: out = in * 9 (two passes of Scale<float> by 3) and
// `copied` the constant.
struct Scale9 : sdktest::TestGraph {
  std::vector<Program> programs;
  Scale9() {
    graph.addCodelets(TEST_CODELETS);
    Tensor in = variable(FLOAT, {8}, "in");
    Tensor scaled = variable(FLOAT, {8}, "scaled");
    Tensor copied = variable(INT, {3}, "copied");
    const std::vector<int> values{4, -5, 6};
    Tensor constant = graph.addConstant<int>(INT, {3}, values, "three");
    graph.setTileMapping(constant, 0);
    auto inStream = graph.addHostToDeviceFIFO("in", FLOAT, 8);
    auto outStream = graph.addDeviceToHostFIFO("out", FLOAT, 8);
    ComputeSet cs = graph.addComputeSet("scale");
    const unsigned tiles = graph.getTarget().getNumTiles();
    for (unsigned i = 0; i != 4; ++i) {
      VertexRef v = graph.addVertex(cs, "Scale<float>",
                                    {{"in", in.slice(2 * i, 2 * i + 2)},
                                     {"out", scaled.slice(2 * i, 2 * i + 2)}});
      graph.setInitialValue(v["factor"], 3.0f);
      graph.setTileMapping(v, i % tiles);
    }
    Sequence pass{Execute(cs), Copy(scaled, in)};
    programs = {Sequence{Copy(inStream, in), Repeat(2, pass), Copy(in, outStream),
                         Copy(constant, copied)},
                Sequence{Copy(in, outStream)}};
  }
};

std::vector<float> runScale9(Engine &engine, const Device &device) {
  engine.load(device);
  std::vector<float> in(8), out(8);
  std::iota(in.begin(), in.end(), -2.0f);
  engine.connectStream("in", in.data());
  engine.connectStream("out", out.data());
  engine.run(0);
  return out;
}

std::string fileBytes(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const fs::path &p, const std::string &bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

std::uint32_t crcOf(const std::string &s, std::size_t at, std::size_t n) {
  return static_cast<std::uint32_t>(
      crc32(0, reinterpret_cast<const Bytef *>(s.data() + at),
            static_cast<uInt>(n)));
}

void putU32(std::string &s, std::size_t at, std::uint32_t v) {
  for (unsigned i = 0; i != 4; ++i)
    s[at + i] = static_cast<char>(v >> (8 * i));
}

std::uint32_t getU32(const std::string &s, std::size_t at) {
  std::uint32_t v = 0;
  for (unsigned i = 0; i != 4; ++i)
    v |= std::uint32_t(static_cast<unsigned char>(s[at + i])) << (8 * i);
  return v;
}

} // namespace

TEST_CASE("An executable read back from a file runs as the original",
          "[executable]") {
  Scale9 t;
  TempDir dir;
  const fs::path file = dir.path / "scale9.exe";
  Executable exe = compileGraph(t.graph, t.programs, {}, {}, "scaler");
  exe.serialize(file.string());

  Engine original(std::move(exe));
  const std::vector<float> expected = runScale9(original, t.device);
  CHECK(expected == std::vector<float>{-18, -9, 0, 9, 18, 27, 36, 45});

  Engine loaded(Executable::deserialize(file.string()));
  CHECK(runScale9(loaded, t.device) == expected);
  CHECK(sdktest::readBack<int>(loaded, "copied", 3) == std::vector<int>{4, -5, 6});
  CHECK(loaded.listStreams() == original.listStreams());

  // The stream forms write and read the same bytes.
  std::stringstream stream;
  Executable::deserialize(file.string()).serialize(stream);
  CHECK(stream.str() == fileBytes(file));
  Engine fromStream(Executable::deserialize(stream));
  CHECK(runScale9(fromStream, t.device) == expected);

  if (t.graph.getTarget().getTargetType() != TargetType::CPU) {
    // The IPU Model's estimates travel with it: the same profiles.
    std::ostringstream a, b;
    serializeToJSON(a, original.getGraphProfile());
    serializeToJSON(b, loaded.getGraphProfile());
    CHECK(a.str() == b.str());
    CHECK(loaded.getExecutionProfile()["simulation"]["cycles"].asUint() ==
          original.getExecutionProfile()["simulation"]["cycles"].asUint());
    CHECK(original.getExecutionProfile()["simulation"]["cycles"].asUint() > 0);
  }
}

TEST_CASE("An executable file carries its codelets", "[executable]") {
  // Compile the codelets into a cache that is deleted before loading, so
  // the vertices can only come from the file.
  const char *oldCache = std::getenv("POPLAR_CODELET_CACHE_DIR");
  const std::string saved = oldCache ? oldCache : "";
  TempDir first, second, files;
  if (oldCache)
    copyLiveCache(oldCache, first.path);
  ::setenv("POPLAR_CODELET_CACHE_DIR", first.path.c_str(), 1);
  const fs::path file = files.path / "scale9.exe";
  std::vector<float> expected;
  {
    Scale9 t;
    compileGraph(t.graph, t.programs).serialize(file.string());
    Engine original(compileGraph(t.graph, t.programs));
    expected = runScale9(original, t.device);
  }
  fs::remove_all(first.path);
  ::setenv("POPLAR_CODELET_CACHE_DIR", second.path.c_str(), 1);
  Engine loaded(Executable::deserialize(file.string()));
  sdktest::TestGraph device;
  CHECK(runScale9(loaded, device.device) == expected);
  bool stored = false;
  for (const auto &entry : fs::directory_iterator(second.path))
    stored = stored || entry.path().extension() == ".gp";
  CHECK(stored);
  if (oldCache)
    ::setenv("POPLAR_CODELET_CACHE_DIR", saved.c_str(), 1);
  else
    ::unsetenv("POPLAR_CODELET_CACHE_DIR");
}

TEST_CASE("Unusable executable files are refused with the reason",
          "[executable][errors]") {
  Scale9 t;
  TempDir dir;
  const fs::path good = dir.path / "good.exe";
  compileGraph(t.graph, t.programs).serialize(good.string());
  const std::string bytes = fileBytes(good);
  const fs::path bad = dir.path / "bad.exe";
  auto refused = [&](const std::string &content, const std::string &reason) {
    writeBytes(bad, content);
    CHECK_THROWS_AS(Executable::deserialize(bad.string()), file_load_error);
    CHECK_THROWS_WITH(Executable::deserialize(bad.string()),
                      Contains(bad.string()) && Contains(reason));
  };

  CHECK_THROWS_WITH(Executable::deserialize((dir.path / "none.exe").string()),
                    Contains("none.exe") && Contains("cannot be opened"));
  refused("", "empty");
  refused("#!/bin/sh\necho not an executable\n", "not a Poplar executable");
  refused(bytes.substr(0, bytes.size() / 2), "truncated");

  std::string flipped = bytes;
  flipped[flipped.size() - 100] ^= 0x40;
  refused(flipped, "do not match the checksum");

  std::string header = bytes;
  header[20] ^= 0x01;
  refused(header, "header does not match its checksum");

  std::string format = bytes;
  putU32(format, 8, 99);
  refused(format, "format version 99");

  // Another SDK version: the version string (first in the header) is
  // rewritten and the header's checksum made right again.
  std::string version = bytes;
  const std::uint32_t headerSize = getU32(version, 12);
  const std::size_t at = version.find(POPLAR_SDK_VERSION, 16);
  REQUIRE(at != std::string::npos);
  for (std::size_t i = 0; i != std::string(POPLAR_SDK_VERSION).size(); ++i)
    if (std::isdigit(static_cast<unsigned char>(version[at + i])))
      version[at + i] = '9';
  putU32(version, 16 + headerSize, crcOf(version, 16, headerSize));
  refused(version, "made by Poplar SDK 9");
  writeBytes(bad, version);
  CHECK_NOTHROW(Executable::deserialize(bad.string(), false));

  // The stream forms say so too.
  std::istringstream empty("");
  CHECK_THROWS_WITH(Executable::deserialize(empty),
                    Contains("from the stream") && Contains("empty"));
  CHECK_THROWS_AS(Executable::deserialize(std::unique_ptr<std::istream>()),
                  file_load_error);
}

TEST_CASE("An executable is refused by a device of another target",
          "[executable][errors]") {
  Scale9 t;
  TempDir dir;
  const fs::path file = dir.path / "scale9.exe";
  compileGraph(t.graph, t.programs).serialize(file.string());
  Engine engine(Executable::deserialize(file.string()));
  const bool cpu = t.graph.getTarget().getTargetType() == TargetType::CPU;
  Device other = sdktest::createTestDevice(
      cpu ? sdktest::DeviceType::IpuModel2 : sdktest::DeviceType::Cpu);
  CHECK_THROWS_AS(engine.load(other), poplar_error);
  CHECK_THROWS_WITH(engine.load(other),
                    Contains(file.string()) &&
                        Contains(cpu ? "CPU" : "IPU_MODEL"));
}

TEST_CASE("compileGraph reports its progress step by step",
          "[poplar][compile][progress]") {
  Scale9 m;
  std::vector<std::pair<int, int>> reports;
  auto record = [&](int step, int total) { reports.emplace_back(step, total); };
  Executable exe = compileGraph(m.graph, m.programs, {}, record);
  REQUIRE(reports.size() > 3);
  const int total = reports.front().second;
  // Rising from 0 to the total: a step per compute set and per program
  // (and on IPU targets per estimated compute set and for the models).
  REQUIRE(reports.front().first == 0);
  for (std::size_t i = 1; i != reports.size(); ++i) {
    INFO("report " << i);
    REQUIRE(reports[i].second == total);
    REQUIRE(reports[i].first > reports[i - 1].first);
  }
  REQUIRE(reports.back().first == total);

  // The Engine's constructor passes its ProgressFunc on.
  const auto first = reports;
  reports.clear();
  Engine engine(m.graph, m.programs, {}, record);
  REQUIRE(reports == first);
}
