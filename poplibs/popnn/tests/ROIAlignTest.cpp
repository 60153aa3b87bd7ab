// popnn::experimental::roiAlignFwd and roiAlignInputGradient against
// torchvision.ops.roi_align and its gradient by autograd (float64), with
// and without aligned, several sampling ratios and scales, regions reaching
// past the edges, FLOAT and HALF, on every test device; errors.
#include "PythonReference.hpp"
#include "TestRig.hpp"

#include <popnn/experimental/ROIAlign.hpp>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace poplar;
using namespace poplar::program;
using namespace popnntest;
using popnn::experimental::roiAlignParams;
using Catch::Matchers::Contains;

namespace {

constexpr std::size_t N = 2, C = 3, H = 6, W = 7;

// Regions [x1, y1, x2, y2] in image coordinates (scaled by 1 / scale onto
// the map); some reach past the map's edges, one is smaller than a pixel.
std::vector<float> regions(float scale) {
  const std::vector<float> onMap = {0.5f, 1.0f, 5.0f, 4.5f,   //
                                    -0.8f, -0.5f, 3.2f, 2.7f, //
                                    2.0f, 3.0f, 7.6f, 6.9f,   //
                                    3.1f, 2.2f, 3.6f, 2.4f,   //
                                    0.0f, 0.0f, 7.0f, 6.0f};
  std::vector<float> r;
  for (float v : onMap)
    r.push_back(v / scale);
  return r;
}
const std::vector<float> batchIndex = {1, 0, 1, 0, 1};
constexpr std::size_t R = 5;

std::string torchScript(const roiAlignParams &p) {
  return "N, C, H, W, R = " + std::to_string(N) + ", " + std::to_string(C) +
         ", " + std::to_string(H) + ", " + std::to_string(W) + ", " +
         std::to_string(R) + "\nPH, PW, ratio, scale, aligned = " +
         std::to_string(p.alignedHeight_) + ", " + std::to_string(p.alignedWidth_) +
         ", " + std::to_string(p.samplingRatio_) + ", " +
         std::to_string(p.spatialScale_) + ", " + (p.aligned_ ? "True" : "False") +
         R"(
import torchvision
x = torch.tensor(inp('x')).reshape(N, C, H, W).requires_grad_(True)
rois = torch.tensor(inp('rois')).reshape(R, 4)
boxes = torch.cat([torch.tensor(inp('index')).reshape(R, 1), rois], 1)
y = torchvision.ops.roi_align(x, boxes, (PH, PW), spatial_scale=scale,
                              sampling_ratio=ratio, aligned=aligned)
(y * torch.tensor(inp('gy')).reshape(y.shape)).sum().backward()
out['y'] = y
out['dx'] = x.grad
)";
}

std::vector<float> inType(const Type &type, std::vector<float> v) {
  return type == HALF ? roundToHalf(v) : v;
}

void runCase(const roiAlignParams &p, const Type &type = FLOAT) {
  const auto x = inType(type, uniformValues(N * C * H * W, -2, 2, 71));
  const auto rois = inType(type, regions(p.spatialScale_));
  const auto gy = inType(
      type, uniformValues(R * C * p.alignedHeight_ * p.alignedWidth_, -1, 1, 72));
  const auto ref = runPython(torchScript(p), {{"x", toDouble(x)},
                                              {"rois", toDouble(rois)},
                                              {"index", toDouble(batchIndex)},
                                              {"gy", toDouble(gy)}});
  Rig rig(4);
  Tensor data = rig.input(type, {N, C, H, W}, "x", x);
  Tensor roisT = rig.input(type, {R, 4}, "rois", rois);
  Tensor index = rig.input(INT, {R}, "index", batchIndex);
  Tensor y = popnn::experimental::roiAlignFwd(rig.graph, rig.prog, data, roisT,
                                              index, p, "roiAlign");
  REQUIRE(y.shape() ==
          std::vector<std::size_t>{R, C, p.alignedHeight_, p.alignedWidth_});
  Tensor gyT = rig.input(type, y.shape(), "gy", gy);
  Tensor dx = popnn::experimental::roiAlignInputGradient(
      rig.graph, rig.prog, data, roisT, index, gyT, p, "roiAlignGrad");
  REQUIRE(dx.shape() == data.shape());
  rig.output(y, "y");
  rig.output(dx, "dx");
  auto got = rig.run();
  // HALF: the results, and the gradient's sums, are rounded to HALF.
  const double tol = type == HALF ? 2e-2 : 1e-5;
  for (const char *name : {"y", "dx"}) {
    INFO(name);
    checkClose(got[name], ref.at(name), tol, tol);
  }
}

} // namespace

TEST_CASE("roiAlignFwd and roiAlignInputGradient match torchvision",
          "[popnn][roialign]") {
  SECTION("aligned, 2x2 samples, 3x2 bins") {
    runCase(roiAlignParams(2, 3, 2, true, 1.0f));
  }
  SECTION("not aligned, 1 sample, 2x3 bins, scale 0.5") {
    runCase(roiAlignParams(1, 2, 3, false, 0.5f));
  }
  SECTION("not aligned, 3x3 samples, 4x4 bins, scale 0.25") {
    runCase(roiAlignParams(3, 4, 4, false, 0.25f));
  }
  SECTION("HALF") { runCase(roiAlignParams(2, 2, 2, true, 1.0f), HALF); }
}

TEST_CASE("ROIAlign errors", "[popnn][roialign]") {
  Rig rig;
  Graph &g = rig.graph;
  auto var = [&](const Type &type, std::vector<std::size_t> shape,
                 const std::string &name) {
    Tensor t = g.addVariable(type, shape, name);
    g.setTileMapping(t, 0);
    return t;
  };
  Tensor data = var(FLOAT, {N, C, H, W}, "data");
  Tensor rois = var(FLOAT, {R, 4}, "rois");
  Tensor index = var(INT, {R}, "index");
  const roiAlignParams p(2, 2, 2, true, 1.0f);
  using popnn::experimental::roiAlignFwd;
  using popnn::experimental::roiAlignInputGradient;
  Tensor flat = var(FLOAT, {N * C, H, W}, "flatData");
  REQUIRE_THROWS_AS(roiAlignFwd(g, rig.prog, flat, rois, index, p),
                    poputil::poplibs_error);
  REQUIRE_THROWS_WITH(roiAlignFwd(g, rig.prog, flat, rois, index, p),
                      Contains("flatData") && Contains("roiAlignFwd"));
  Tensor fiveCoords = var(FLOAT, {R, 5}, "fiveCoords");
  REQUIRE_THROWS_WITH(roiAlignFwd(g, rig.prog, data, fiveCoords, index, p),
                      Contains("fiveCoords"));
  Tensor floatIndex = var(FLOAT, {R}, "floatIndex");
  REQUIRE_THROWS_WITH(roiAlignFwd(g, rig.prog, data, rois, floatIndex, p),
                      Contains("floatIndex") && Contains("INT"));
  Tensor shortIndex = var(INT, {R - 1}, "shortIndex");
  REQUIRE_THROWS_WITH(roiAlignFwd(g, rig.prog, data, rois, shortIndex, p),
                      Contains("shortIndex"));
  REQUIRE_THROWS_WITH(
      roiAlignFwd(g, rig.prog, data, rois, index, roiAlignParams(0, 2, 2, true, 1)),
      Contains("samplingRatio"));
  REQUIRE_THROWS_WITH(
      roiAlignFwd(g, rig.prog, data, rois, index, roiAlignParams(2, 2, 2, true, 0)),
      Contains("spatialScale"));
  Tensor badGrad = var(FLOAT, {R, C, 3, 2}, "badGrad");
  REQUIRE_THROWS_WITH(
      roiAlignInputGradient(g, rig.prog, data, rois, index, badGrad, p),
      Contains("badGrad") && Contains("roiAlignInputGradient"));
}

TEST_CASE("ROIAlign with a batch index outside the batch fails the run",
          "[popnn][roialign]") {
  Rig rig(2);
  Tensor data = rig.input(FLOAT, {N, C, H, W}, "x",
                          uniformValues(N * C * H * W, -1, 1, 5));
  Tensor rois = rig.input(FLOAT, {1, 4}, "rois", {0, 0, 2, 2});
  Tensor index = rig.input(INT, {1}, "index", {float(N)});
  Tensor y = popnn::experimental::roiAlignFwd(
      rig.graph, rig.prog, data, rois, index, roiAlignParams(1, 1, 1, true, 1));
  rig.output(y, "y");
  REQUIRE_THROWS_AS(rig.run(), poplar::application_runtime_error);
}
