// popnn layers on the IPU Model (Mk2, 1,472 tiles): host time of one
// engine.run, and the model's simulated cycles of that run.
//
//   RoiAlign    roiAlignFwd then roiAlignInputGradient over a
//               2 x 64 x 32 x 32 map, 16 regions of 7 x 7 bins of 2 x 2
//               samples
//   RnnSequence rnnFwdSequence then rnnBwdSequence with the weight update,
//               64 steps of a batch of 16, 128 inputs to 128 outputs, TANH
//   LstmBuildAndCompile/steps
//               the time to build and compile (not run) an LSTM's forward
//               pass, backward pass and weight update, a batch of 16, 128
//               inputs to 128 outputs: the steps run in a loop, so it
//               stays the same whatever the number of steps
//
// Counters: cycles (the simulation's cycles of one run).
//
//   ./build/benchmarks/popnn_benchmarks --benchmark_filter='RoiAlign|Rnn|Lstm'
#include <benchmark/benchmark.h>

#include <poplin/codelets.hpp>
#include <popnn/Lstm.hpp>
#include <popnn/Recurrent.hpp>
#include <popnn/codelets.hpp>
#include <popnn/experimental/ROIAlign.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

struct Model {
  Device device = IPUModel("ipu2").createDevice();
  Graph graph{device.getTarget()};
  Sequence prog;

  Model() {
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
    popnn::addCodelets(graph);
  }

  // A variable mapped linearly, set to a smooth pattern of values.
  Tensor variable(const std::vector<std::size_t> &shape, const char *name,
                  float scale) {
    Tensor t = graph.addVariable(FLOAT, shape, name);
    poputil::mapTensorLinearly(graph, t);
    std::vector<float> v(t.numElements());
    for (std::size_t i = 0; i != v.size(); ++i)
      v[i] = scale * std::sin(0.37f * static_cast<float>(i));
    graph.setInitialValue(t, ArrayRef<float>(v));
    return t;
  }

  // Runs the program once, then times one run per iteration (the profile
  // is reset before each, so that its cycles are those of one run).
  void time(benchmark::State &state) {
    Engine engine(graph, prog, {{"debug.instrument", "true"}});
    engine.load(device);
    engine.run(0);
    std::uint64_t cycles = 0;
    for (auto _ : state) {
      engine.resetExecutionProfile();
      engine.run(0);
      cycles = engine.getExecutionProfile()["simulation"]["cycles"].asUint();
    }
    state.counters["cycles"] = static_cast<double>(cycles);
  }
};

void RoiAlign(benchmark::State &state) {
  const std::size_t N = 2, C = 64, H = 32, W = 32, R = 16, bins = 7;
  Model m;
  Tensor data = m.variable({N, C, H, W}, "data", 1.0f);
  std::vector<float> boxes;
  std::vector<int> images;
  for (std::size_t r = 0; r != R; ++r) {
    const float x = static_cast<float>(r % 4) * 6, y = static_cast<float>(r / 4) * 6;
    boxes.insert(boxes.end(), {x, y, x + 12.5f, y + 9.5f});
    images.push_back(static_cast<int>(r % N));
  }
  Tensor rois = m.graph.addConstant<float>(FLOAT, {R, 4}, boxes);
  Tensor index = m.graph.addConstant<int>(INT, {R}, images);
  m.graph.setTileMapping(rois, 0);
  m.graph.setTileMapping(index, 0);
  Tensor topGrad = m.variable({R, C, bins, bins}, "topGrad", 1.0f);
  popnn::experimental::roiAlignParams params(2, bins, bins, true, 1.0f);
  Tensor pooled = popnn::experimental::roiAlignFwd(m.graph, m.prog, data, rois,
                                                   index, params, "roiAlign");
  Tensor grad = popnn::experimental::roiAlignInputGradient(
      m.graph, m.prog, data, rois, index, topGrad, params, "roiAlignGrad");
  benchmark::DoNotOptimize(pooled);
  benchmark::DoNotOptimize(grad);
  m.time(state);
}
BENCHMARK(RoiAlign)->Unit(benchmark::kMillisecond)->UseRealTime();

void RnnSequence(benchmark::State &state) {
  const unsigned steps = 64, batch = 16, in = 128, out = 128;
  Model m;
  Graph &g = m.graph;
  Tensor x = popnn::rnn::createInput(g, steps, batch, in, out, FLOAT);
  Tensor wff = popnn::rnn::createWeightsInput(g, steps, batch, in, out, FLOAT);
  Tensor wfb = popnn::rnn::createWeightsFeedback(g, batch, out, FLOAT);
  Tensor h0 = popnn::rnn::createFwdState(g, FLOAT, batch, out, m.prog, true,
                                         false);
  for (Tensor t : {x, wff, wfb}) {
    std::vector<float> v(t.numElements());
    for (std::size_t i = 0; i != v.size(); ++i)
      v[i] = 0.05f * std::sin(0.37f * static_cast<float>(i));
    g.setInitialValue(t, ArrayRef<float>(v));
  }
  Tensor bias = m.variable({out}, "bias", 0.1f);
  Tensor y = popnn::rnn::rnnFwdSequence(g, m.prog, h0, nullptr, bias, wff, wfb,
                                        x, popnn::NonLinearityType::TANH, FLOAT,
                                        false, "rnnFwd");
  Tensor outGrad = m.variable({batch, steps, out}, "outGrad", 1.0f);
  auto grads = popnn::rnn::rnnBwdSequence(
      g, true, false, m.prog, h0, y, bias, wff, wfb, outGrad, x,
      popnn::NonLinearityType::TANH, FLOAT, "rnnBwd");
  benchmark::DoNotOptimize(grads);
  m.time(state);
}
BENCHMARK(RnnSequence)->Unit(benchmark::kMillisecond)->UseRealTime();

void LstmBuildAndCompile(benchmark::State &state) {
  const std::size_t steps = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    Model m;
    popnn::lstm::LstmParams params(FLOAT, 16, steps, {128, 128});
    Tensor in = popnn::lstm::createInput(m.graph, params, "in");
    auto init = popnn::lstm::createInitialState(m.graph, params, "init");
    auto weights = popnn::lstm::createWeights(m.graph, params, "weights");
    Tensor kept;
    Tensor out = popnn::lstm::lstmFwd(m.graph, params, m.prog, init, weights,
                                      in, &kept);
    Tensor outGrad = m.graph.clone(out, "outGrad");
    Tensor inGrad;
    popnn::lstm::LstmWeights weightsGrad;
    popnn::lstm::lstmBwdWithWU(m.graph, params, m.prog, init, kept, weights,
                               in, out, outGrad,
                               static_cast<const Tensor *>(nullptr), &inGrad,
                               weightsGrad);
    Engine engine(m.graph, m.prog);
    benchmark::DoNotOptimize(engine);
  }
}
BENCHMARK(LstmBuildAndCompile)
    ->Arg(16)
    ->Arg(256)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace
