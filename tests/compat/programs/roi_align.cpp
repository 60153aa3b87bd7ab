// ROIAlign as a program for the original writes it: a 4x4 feature map
// whose value at (y, x) is 4y + x, one region over it pooled into 2x2 bins
// of 2x2 samples, and the gradient of the bins' sum at the map.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popnn/codelets.hpp>
#include <popnn/experimental/ROIAlign.hpp>
#include <popops/codelets.hpp>

#include <cstdio>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  popnn::addCodelets(graph);
  Sequence prog;

  std::vector<float> map(16);
  for (unsigned y = 0; y != 4; ++y)
    for (unsigned x = 0; x != 4; ++x)
      map[y * 4 + x] = float(4 * y + x);
  Tensor data = graph.addConstant<float>(FLOAT, {1, 1, 4, 4}, map);
  Tensor rois = graph.addConstant<float>(FLOAT, {1, 4}, {0, 0, 3, 3});
  Tensor index = graph.addConstant<int>(INT, {1}, {0});
  Tensor ones = graph.addConstant<float>(FLOAT, {1, 1, 2, 2}, {1, 1, 1, 1});
  for (Tensor t : {data, rois, index, ones})
    graph.setTileMapping(t, 0);

  popnn::experimental::roiAlignParams params(2, 2, 2, false, 1.0f);
  Tensor pooled = popnn::experimental::roiAlignFwd(graph, prog, data, rois,
                                                   index, params, "roiAlign");
  Tensor grad = popnn::experimental::roiAlignInputGradient(
      graph, prog, data, rois, index, ones, params, "roiAlignGrad");
  graph.createHostRead("pooled", pooled);
  graph.createHostRead("grad", grad);

  Engine engine(graph, prog);
  engine.load(device);
  engine.run();
  float p[4], g[16];
  engine.readTensor("pooled", p, p + 4);
  engine.readTensor("grad", g, g + 16);
  // The map is linear, so a bin's value is 4 * (its mean y) + (its mean x):
  // the samples sit at 0.375, 1.125 (bin 0) and 1.875, 2.625 (bin 1).
  std::printf("pooled: %.4f %.4f %.4f %.4f (expected 3.7500 5.2500 9.7500 "
              "11.2500)\n", p[0], p[1], p[2], p[3]);
  float sum = 0;
  for (float v : g)
    sum += v;
  // Each of the 16 samples spreads a quarter of its bin's gradient.
  std::printf("gradient sum: %.4f (expected 4.0000)\n", sum);
  // Row 1 gets 0.375 + 0.875 + 0.125 of the samples' rows, column 1 alike.
  std::printf("gradient at (1, 1): %.4f (expected %.4f)\n", g[5],
              1.375 * 1.375 / 4);
  return 0;
}
