// poplin's convolution passes against PyTorch: conv1d/2d/3d with stride,
// padding, dilation and groups (ONNX Conv), conv_transpose1d/2d/3d (ONNX
// ConvTranspose, our input-gradient pass through getGradientParams) and
// the weight gradient. The references come from Debian's /usr/bin/python3
// with python3-torch, run by the test (conv_torch_reference.py).
#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "TestValues.hpp"
#include <unistd.h>

using namespace poplar;
using namespace poplar::program;

namespace {

namespace fs = std::filesystem;

struct TorchConv {
  std::size_t batch, in, out, groups;
  std::vector<std::size_t> field, kernel, stride, padding, dilation;
};

std::string jsonList(const std::vector<std::size_t> &v) {
  std::string s = "[";
  for (std::size_t i = 0; i != v.size(); ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

std::size_t product(const std::vector<std::size_t> &v) {
  std::size_t n = 1;
  for (auto x : v)
    n *= x;
  return n;
}

poplin::ConvParams toParams(const TorchConv &t) {
  poplin::ConvParams p(FLOAT, t.batch, t.field, t.kernel, t.in / t.groups,
                       t.out / t.groups, t.groups);
  for (unsigned d = 0; d != t.field.size(); ++d) {
    p.inputTransform.paddingLower[d] = unsigned(t.padding[d]);
    p.inputTransform.paddingUpper[d] = unsigned(t.padding[d]);
    p.kernelTransform.dilation[d] = unsigned(t.dilation[d]);
    p.outputTransform.stride[d] = unsigned(t.stride[d]);
  }
  return p;
}

void check(const std::vector<float> &got, const std::vector<float> &want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i != got.size(); ++i) {
    INFO("element " << i);
    REQUIRE(std::abs(got[i] - want[i]) <= 1e-4f * (1 + std::abs(want[i])));
  }
}

// The random operands of a case, written where the reference script
// reads them.
struct TorchCase {
  TorchConv conv;
  poplin::ConvParams params;
  fs::path dir;
  std::vector<float> x, w, dy;
};

TorchCase prepare(const TorchConv &t, unsigned index) {
  TorchCase c{t, toParams(t), {}, {}, {}, {}};
  const std::size_t nx = t.batch * t.in * product(t.field);
  const std::size_t nw = t.out * (t.in / t.groups) * product(t.kernel);
  const std::size_t ny =
      t.batch * t.out * product(c.params.getOutputFieldShape());
  c.x = poplin_test::uniformValues(nx, 3 * index + 1);
  c.w = poplin_test::uniformValues(nw, 3 * index + 2);
  c.dy = poplin_test::uniformValues(ny, 3 * index + 3);
  c.dir = fs::temp_directory_path() /
          ("poplin-conv-torch-" + std::to_string(::getpid()) + "-" +
           std::to_string(index));
  fs::create_directories(c.dir);
  poplin_test::writeFloats(c.dir / "x.bin", c.x);
  poplin_test::writeFloats(c.dir / "w.bin", c.w);
  poplin_test::writeFloats(c.dir / "dy.bin", c.dy);
  return c;
}

std::string configJson(const TorchConv &t) {
  std::ostringstream cfg;
  cfg << "{\"batch\":" << t.batch << ",\"in\":" << t.in << ",\"out\":" << t.out
      << ",\"groups\":" << t.groups << ",\"field\":" << jsonList(t.field)
      << ",\"kernel\":" << jsonList(t.kernel)
      << ",\"stride\":" << jsonList(t.stride)
      << ",\"padding\":" << jsonList(t.padding)
      << ",\"dilation\":" << jsonList(t.dilation) << "}";
  return cfg.str();
}

// Runs the three passes of a prepared case and compares them with the
// references the script wrote beside its operands.
void compareWithTorch(const TorchCase &c) {
  const TorchConv &t = c.conv;
  const poplin::ConvParams &p = c.params;
  INFO(p);
  const auto outField = p.getOutputFieldShape();
  const std::size_t nx = c.x.size(), nw = c.w.size(), ny = c.dy.size();
  Device device = sdktest::createTestDevice(4);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  Sequence prog;
  Tensor in = poplin::createInput(graph, p, "x");
  // Our weights are [G, Co/G, Ci/G, kernel...]: PyTorch's [Co, Ci/G,
  // kernel...] split by group.
  Tensor weights = poplin::createWeights(graph, p, "w");
  std::vector<std::size_t> dyShape{t.batch, t.out};
  dyShape.insert(dyShape.end(), outField.begin(), outField.end());
  Tensor dyT = graph.addVariable(FLOAT, dyShape, "dy");
  poputil::mapTensorLinearly(graph, dyT);
  Tensor y = poplin::convolution(graph, in, weights, p, false, prog, "fwd");
  Tensor dx = poplin::convolution(
      graph, dyT, weights, poplin::getGradientParams(p), true, prog, "bwd");
  Tensor dw = poplin::calculateWeightDeltas(graph, dyT, in, p, prog, "wu");
  graph.createHostWrite("x", in);
  graph.createHostWrite("w", weights);
  graph.createHostWrite("dy", dyT);
  graph.createHostRead("y", y);
  graph.createHostRead("dx", dx);
  graph.createHostRead("dw", dw);
  Engine e(graph, prog);
  e.load(device);
  e.writeTensor("x", c.x.data(), c.x.data() + nx);
  e.writeTensor("w", c.w.data(), c.w.data() + nw);
  e.writeTensor("dy", c.dy.data(), c.dy.data() + ny);
  e.run(0);
  std::vector<float> gy(ny), gdx(nx), gdw(nw);
  e.readTensor("y", gy.data(), gy.data() + ny);
  e.readTensor("dx", gdx.data(), gdx.data() + nx);
  e.readTensor("dw", gdw.data(), gdw.data() + nw);
  {
    INFO("convNd");
    check(gy, poplin_test::readFloats(c.dir / "y.bin", ny));
  }
  {
    INFO("conv_transposeNd (input gradient)");
    check(gdx, poplin_test::readFloats(c.dir / "dx.bin", nx));
  }
  {
    INFO("weight gradient");
    check(gdw, poplin_test::readFloats(c.dir / "dw.bin", nw));
  }
  fs::remove_all(c.dir);
}

} // namespace

TEST_CASE("convolution matches PyTorch", "[poplin][conv][torch]") {
  const std::vector<TorchConv> convs = {
      // 2-D 3x3, padding 1
      {2, 8, 16, 1, {9, 9}, {3, 3}, {1, 1}, {1, 1}, {1, 1}},
      // 2-D stride 2, uneven padding and size
      {2, 6, 10, 1, {11, 8}, {3, 2}, {2, 2}, {1, 0}, {1, 1}},
      // 2-D dilation and groups
      {1, 6, 9, 3, {12, 10}, {3, 3}, {1, 2}, {2, 1}, {2, 1}},
      // 2-D depthwise, stride 3
      {3, 4, 4, 4, {10, 10}, {3, 3}, {3, 3}, {1, 1}, {1, 1}},
      // 1-D stride, padding, dilation
      {2, 5, 7, 1, {23}, {4}, {2}, {3}, {2}},
      // 3-D stride and groups
      {2, 4, 6, 2, {5, 6, 7}, {2, 3, 3}, {1, 2, 2}, {1, 1, 0}, {1, 1, 1}}};
  std::vector<TorchCase> cases;
  std::string command = "/usr/bin/python3 " TORCH_REFERENCE;
  for (unsigned i = 0; i != convs.size(); ++i) {
    cases.push_back(prepare(convs[i], i));
    command +=
        " " + cases.back().dir.string() + " '" + configJson(convs[i]) + "'";
  }
  REQUIRE(std::system(command.c_str()) == 0);
  for (const TorchCase &c : cases)
    compareWithTorch(c);
}
