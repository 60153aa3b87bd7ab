// poplin::matMul and matMulGrouped against torch.matmul: random real
// operands (not only small integers), shapes from degenerate (1xN, Nx1,
// k = 1) to ones that split over many tiles, FLOAT and HALF inputs. The
// references come from Debian's PyTorch (/usr/bin/python3 running
// matmul_reference.py) when the test runs.
#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <catch2/catch.hpp>

#include "TestValues.hpp"
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

struct Case {
  std::string name;
  std::size_t groups, m, k, n; // groups 0: a 2-D product
  Type inputType;
  unsigned tiles;
  std::vector<float> a, b, c;
};

// Fills each case's c with torch.matmul's result.
void torchReferences(std::vector<Case> &cases) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("poplin-torch-" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream list(dir / "cases.txt");
    for (const Case &c : cases) {
      list << c.name << ' ' << c.groups << ' ' << c.m << ' ' << c.k << ' '
           << c.n << ' ' << (c.inputType == HALF ? 1 : 0) << '\n';
      poplin_test::writeFloats(dir / (c.name + "_a.bin"), c.a);
      poplin_test::writeFloats(dir / (c.name + "_b.bin"), c.b);
    }
  }
  const std::string command = "/usr/bin/python3 '" +
                              std::string(POPLIN_TORCH_REFERENCE) + "' '" +
                              dir.string() + "'";
  INFO(command);
  REQUIRE(std::system(command.c_str()) == 0);
  for (Case &c : cases)
    c.c =
        poplin_test::readFloats(dir / (c.name + "_c.bin"),
                                std::max<std::size_t>(c.groups, 1) * c.m * c.n);
  std::filesystem::remove_all(dir);
}

std::vector<float> runOnDevice(const Case &c) {
  Device device = sdktest::createTestDevice(c.tiles);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  Sequence prog;
  const bool grouped = c.groups > 0;
  std::vector<std::size_t> aShape{c.m, c.k}, bShape{c.k, c.n};
  if (grouped) {
    aShape.insert(aShape.begin(), c.groups);
    bShape.insert(bShape.begin(), c.groups);
  }
  Tensor A = graph.addVariable(c.inputType, aShape, "A");
  Tensor B = graph.addVariable(c.inputType, bShape, "B");
  poputil::mapTensorLinearly(graph, A);
  poputil::mapTensorLinearly(graph, B);
  Tensor C = grouped ? poplin::matMulGrouped(graph, A, B, prog, FLOAT, "C")
                     : poplin::matMul(graph, A, B, prog, FLOAT, "C");
  graph.createHostWrite("a", A);
  graph.createHostWrite("b", B);
  graph.createHostRead("c", C);
  Engine engine(graph, prog);
  engine.load(device);
  auto write = [&](const std::string &handle, const std::vector<float> &v) {
    if (c.inputType == FLOAT) {
      engine.writeTensor(handle, v.data(), v.data() + v.size());
      return;
    }
    std::vector<std::uint16_t> h(v.size());
    copyFloatToDeviceHalf(graph.getTarget(), v.data(), h.data(), h.size());
    engine.writeTensor(handle, h.data(), h.data() + h.size());
  };
  write("a", c.a);
  write("b", c.b);
  engine.run(0);
  std::vector<float> out(C.numElements());
  engine.readTensor("c", out.data(), out.data() + out.size());
  return out;
}

} // namespace

TEST_CASE("matMul matches torch.matmul", "[poplin][matmul][torch]") {
  std::vector<Case> cases = {
      {"row", 0, 1, 9, 13, FLOAT, 4, {}, {}, {}},
      {"column", 0, 11, 6, 1, FLOAT, 4, {}, {}, {}},
      {"outer", 0, 8, 1, 10, FLOAT, 4, {}, {}, {}},
      {"dot", 0, 1, 50, 1, FLOAT, 16, {}, {}, {}},
      {"square", 0, 33, 33, 33, FLOAT, 16, {}, {}, {}},
      {"primes", 0, 37, 53, 29, FLOAT, 64, {}, {}, {}},
      {"wide", 0, 3, 70, 130, FLOAT, 64, {}, {}, {}},
      {"half", 0, 19, 40, 23, HALF, 16, {}, {}, {}},
      {"grouped", 3, 5, 7, 9, FLOAT, 16, {}, {}, {}},
      {"groupedHalf", 2, 1, 12, 6, HALF, 4, {}, {}, {}},
  };
  unsigned seed = 1;
  for (Case &c : cases) {
    const std::size_t g = std::max<std::size_t>(c.groups, 1);
    c.a = poplin_test::uniformValues(g * c.m * c.k, seed++);
    c.b = poplin_test::uniformValues(g * c.k * c.n, seed++);
  }
  torchReferences(cases);
  for (const Case &c : cases) {
    INFO(c.name << ": " << c.groups << " x " << c.m << "x" << c.k << "x" << c.n
                << " " << c.inputType.toString());
    const std::vector<float> got = runOnDevice(c);
    REQUIRE(got.size() == c.c.size());
    for (std::size_t i = 0; i != got.size(); ++i) {
      INFO("element " << i << ": " << got[i] << " vs " << c.c[i]);
      // Both sum in float, in different orders: a few ulps per term.
      REQUIRE(std::abs(got[i] - c.c[i]) <=
              1e-5f * float(c.k) * (1.0f + std::abs(c.c[i])));
    }
  }
}
