// The .popef container (session/PopefFile.hpp): sections round-trip from
// files and streams, with and without preloading, and damage is found;
// an executable written by another SDK version is refused saying which;
// the compile progress bar's line.
#include "session/CompileProgress.hpp"
#include "session/PopefFile.hpp"

#include <popart/builder.hpp>
#include <popart/devicemanager.hpp>
#include <popart/error.hpp>
#include <popart/session.hpp>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace popart;
namespace fs = std::filesystem;

namespace {

std::string tempFile(const std::string &name) {
  return (fs::temp_directory_path() /
          ("popart_popef_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

} // namespace

TEST_CASE("popef sections round-trip and damage is found", "[popart][popef]") {
  popef::Writer w;
  w.add("first", "hello");
  w.add("empty", "");
  w.add("big", std::string(100000, 'x'));
  const std::string path = tempFile("sections.popef");
  w.writeFile(path);
  for (bool preload : {false, true}) {
    auto r = popef::Reader::openFile(path, preload);
    REQUIRE(r.has("first"));
    REQUIRE_FALSE(r.has("second"));
    REQUIRE(r.section("first") == "hello");
    REQUIRE(r.section("empty").empty());
    REQUIRE(r.section("big") == std::string(100000, 'x'));
    REQUIRE_THROWS_WITH(r.section("second"),
                        Catch::Contains(path) && Catch::Contains("no second section"));
  }
  std::ostringstream out;
  w.write(out);
  std::istringstream in(out.str());
  REQUIRE(popef::Reader::fromStream(in, "from the test").section("first") == "hello");

  // A byte of a section's data changed: found when that section is read.
  std::string bytes = out.str();
  bytes[bytes.size() - 50000] ^= 1;
  std::istringstream damaged(bytes);
  auto r = popef::Reader::fromStream(damaged, "from the test");
  REQUIRE(r.section("first") == "hello");
  REQUIRE_THROWS_WITH(r.section("big"), Catch::Contains("from the test") &&
                                            Catch::Contains("'big'") &&
                                            Catch::Contains("checksum"));
  // A byte of the table of contents.
  bytes = out.str();
  bytes[20] ^= 1;
  std::istringstream table(bytes);
  REQUIRE_THROWS_WITH(popef::Reader::fromStream(table, "from the test"),
                      Catch::Contains("table of contents"));
  fs::remove(path);
}

TEST_CASE("An executable of another SDK version is refused",
          "[popart][popef]") {
  auto builder = Builder::create();
  const TensorId x =
      builder->addInputTensor(TensorInfo(DataType::FLOAT, Shape{4}), "x");
  const TensorId y = builder->aiOnnxOpset13().relu({x});
  const std::string proto = builder->getModelProto();
  auto session = [&] {
    return InferenceSession::createFromOnnxModel(
        proto, DataFlow(1, {{y, AnchorReturnType("All")}}),
        DeviceManager::createDeviceManager().createCpuDevice());
  };
  const std::string path = tempFile("version.popef");
  session()->compileAndExport(path);

  // The same file with PopART's metadata claiming SDK 0.0.1.
  auto original = popef::Reader::openFile(path, false);
  const std::string metadata = original.section("popart");
  const std::uint64_t versionSize = [&] {
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
      n = (n << 8) | static_cast<unsigned char>(metadata[i]);
    return n;
  }();
  popef::Encoder e;
  e.str("0.0.1");
  e.bytes() += metadata.substr(8 + versionSize);
  popef::Writer w;
  w.add("popart", e.bytes());
  w.add("poplar", original.section("poplar"));
  const std::string old = tempFile("old.popef");
  w.writeFile(old);
  REQUIRE_THROWS_WITH(session()->loadExecutableFromFile(old),
                      Catch::Contains(old) &&
                          Catch::Contains("made by SDK 0.0.1, and this is SDK"));
  fs::remove(path);
  fs::remove(old);
}

TEST_CASE("The progress bar's line", "[popart][progress]") {
  REQUIRE(CompileProgress::bar(0, 100, 0.0) ==
          "Graph compilation:   0%|          | 0/100 [00:00<?]");
  // 45 % of ten cells: four full blocks and half of one.
  REQUIRE(CompileProgress::bar(45, 100, 2.0) ==
          "Graph compilation:  45%|\u2588\u2588\u2588\u2588\u258c     | "
          "45/100 [00:02<00:02]");
  REQUIRE(CompileProgress::bar(20, 20, 3725.0) ==
          "Graph compilation: 100%|\u2588\u2588\u2588\u2588\u2588\u2588"
          "\u2588\u2588\u2588\u2588| 20/20 [1:02:05<00:00]");
}
