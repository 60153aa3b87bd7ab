// popnn/Rnn.hpp's driver running a cell a program writes: the running sum
// of a sequence, forwards and in reverse, each step's sum stored in an
// output, the sequence split into two shards.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popnn/Rnn.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>

#include <cstdio>
#include <vector>

using namespace poplar;
using namespace poplar::program;

static std::vector<Tensor> runningSum(Graph &graph, Sequence &prog,
                                      const Tensor &x, const Tensor &sums,
                                      bool reverse) {
  popnn::rnn::RnnParams params(FLOAT, 1, 4, {1, 1});
  Tensor init = popnn::rnn::createInitialState(graph, params, true, 1, 2)[0];
  popops::zero(graph, init, prog);
  auto cell = [](Graph &g, const popnn::rnn::TimeStepState &,
                 const popnn::rnn::RnnBatchwiseFlags &,
                 std::vector<Tensor> &state, const popnn::rnn::RnnSlice &slice,
                 std::vector<Tensor> &, Sequence *, const DebugNameAndId &dnai) {
    Sequence step;
    popops::addInPlace(g, state[0], slice.inputs[0], step, {dnai, "sum"});
    step.add(Copy(state[0], slice.outputs[0][0]));
    return step;
  };
  OptionFlags options;
  return popnn::rnn::Rnn(graph, params, reverse, {init}, {}, {x}, nullptr,
                         nullptr, {sums}, {}, prog, cell, 2, options,
                         reverse ? "reverseSum" : "sum");
}

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  popnn::addCodelets(graph);
  Sequence prog;

  popnn::rnn::RnnParams params(FLOAT, 1, 4, {1, 1});
  Tensor x = popnn::rnn::createInputTensor(graph, params, 2, "x");
  graph.setInitialValue(x, ArrayRef<float>({1, 2, 3, 4}));
  Tensor sums = popnn::rnn::createOutputTensor(graph, params, 2, "sums");
  Tensor reverseSums = popnn::rnn::createOutputTensor(graph, params, 2, "rsums");
  Tensor total = runningSum(graph, prog, x, sums, false)[0];
  runningSum(graph, prog, x, reverseSums, true);
  graph.createHostRead("sums", sums);
  graph.createHostRead("reverseSums", reverseSums);
  graph.createHostRead("total", total);

  Engine engine(graph, prog);
  engine.load(device);
  engine.run();
  float s[4], r[4], t;
  engine.readTensor("sums", s, s + 4);
  engine.readTensor("reverseSums", r, r + 4);
  engine.readTensor("total", &t, &t + 1);
  std::printf("running sums: %.0f %.0f %.0f %.0f\n", s[0], s[1], s[2], s[3]);
  std::printf("reverse running sums: %.0f %.0f %.0f %.0f\n", r[0], r[1], r[2],
              r[3]);
  std::printf("final state: %.0f\n", t);
  return 0;
}
