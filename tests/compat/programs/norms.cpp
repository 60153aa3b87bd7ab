// Normalisation through poplin/Norms.hpp as a program for the original
// writes it: the statistics of two channels, whitening and scaling, and a
// distributed form whose callback stands for two replicas holding the
// same batch.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/Norms.hpp>
#include <poplin/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Fill.hpp>
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
  poplin::addCodelets(graph);
  Sequence prog;

  // [N=2][C=2][F=2]: channel 0 holds 1 2 3 4, channel 1 holds 2 4 6 8.
  Tensor acts = graph.addConstant<float>(FLOAT, {2, 2, 2},
                                         {1, 2, 2, 4, 3, 4, 6, 8});
  graph.setTileMapping(acts, 0);
  auto stats = poplin::normStatistics(graph, acts, 0.0f, prog, false);
  Tensor whitened = poplin::normWhiten(graph, acts, stats.first, stats.second,
                                       prog);
  auto params = poplin::createNormParams(graph, acts);
  popops::fill(graph, params.first, prog, 2.0f);
  popops::fill(graph, params.second, prog, 1.0f);
  Tensor out = poplin::normalise(graph, whitened, params.first, params.second,
                                 prog);
  unsigned groupSize = 0;
  poplin::DistributedNormReduceCallback twoReplicas =
      [&](Graph &g, const std::vector<Tensor> &in, Sequence &p, unsigned size,
          const DebugContext &dc, const OptionFlags &) {
        groupSize = size;
        std::vector<Tensor> sums;
        for (const Tensor &t : in)
          sums.push_back(popops::mul(g, t, float(size), p, dc));
        return sums;
      };
  auto distributed = poplin::distributedNormStatistics(
      graph, acts, 0.0f, prog, true, twoReplicas, 4);
  graph.createHostRead("mean", stats.first);
  graph.createHostRead("invStdDev", stats.second);
  graph.createHostRead("out", out);
  graph.createHostRead("distributed", distributed.second);

  Engine engine(graph, prog);
  engine.load(device);
  engine.run();
  float mean[2], istd[2], o[8], d[2];
  engine.readTensor("mean", mean, mean + 2);
  engine.readTensor("invStdDev", istd, istd + 2);
  engine.readTensor("out", o, o + 8);
  engine.readTensor("distributed", d, d + 2);
  std::printf("mean: %.4f %.4f\n", mean[0], mean[1]);
  std::printf("invStdDev: %.4f %.4f\n", istd[0], istd[1]);
  std::printf("normalised channel 0: %.4f %.4f %.4f %.4f\n", o[0], o[1], o[4],
              o[5]);
  // Over 8 elements per channel, unbiased: variance 10/7 and 40/7.
  std::printf("distributed over %u replicas: %.4f %.4f\n", groupSize, d[0],
              d[1]);
  return 0;
}
