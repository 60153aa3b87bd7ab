// The vanilla recurrent layer of popnn/Recurrent.hpp as a program for the
// original writes it: one unit, relu, input weight 0.5, feedback weight
// 0.5, no bias, the inputs 1 2 3; the forward pass by rnnFwdSequence and
// the backward pass, with the weight update, by rnnBwdSequence.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Recurrent.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>

#include <cstdio>
#include <tuple>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  Sequence prog;

  const unsigned steps = 3, batch = 1, in = 1, out = 1;
  Tensor x = popnn::rnn::createInput(graph, steps, batch, in, out, FLOAT);
  Tensor wff = popnn::rnn::createWeightsInput(graph, steps, batch, in, out, FLOAT);
  Tensor wfb = popnn::rnn::createWeightsFeedback(graph, batch, out, FLOAT);
  Tensor h0 = popnn::rnn::createFwdState(graph, FLOAT, batch, out, prog, true,
                                         false);
  Tensor bias = graph.addVariable(FLOAT, {out}, "bias");
  graph.setTileMapping(bias, 0);
  graph.setInitialValue(x, ArrayRef<float>({1, 2, 3}));
  graph.setInitialValue(wff, ArrayRef<float>({0.5f}));
  graph.setInitialValue(wfb, ArrayRef<float>({0.5f}));
  graph.setInitialValue(bias, ArrayRef<float>({0.0f}));

  Tensor y = popnn::rnn::rnnFwdSequence(graph, prog, h0, nullptr, bias, wff,
                                        wfb, x, popnn::NonLinearityType::RELU,
                                        FLOAT, false, "rnnFwd");
  // The gradient of the sum of the outputs, [batch][steps][output].
  Tensor ones = graph.addConstant<float>(FLOAT, {batch, steps, out}, 1.0f);
  graph.setTileMapping(ones, 0);
  Tensor dx, dwff, dwfb, db;
  std::tie(dx, dwff, dwfb, db) = popnn::rnn::rnnBwdSequence(
      graph, true, false, prog, h0, y, bias, wff, wfb, ones, x,
      popnn::NonLinearityType::RELU, FLOAT, "rnnBwd");
  graph.createHostRead("y", y);
  graph.createHostRead("dx", dx);
  graph.createHostRead("dwff", dwff);
  graph.createHostRead("dwfb", dwfb);
  graph.createHostRead("db", db);

  Engine engine(graph, prog);
  engine.load(device);
  engine.run();
  float yv[3], dxv[3], w[3];
  engine.readTensor("y", yv, yv + 3);
  engine.readTensor("dx", dxv, dxv + 3);
  engine.readTensor("dwff", w, w + 1);
  engine.readTensor("dwfb", w + 1, w + 2);
  engine.readTensor("db", w + 2, w + 3);
  // y1 = 0.5, y2 = 1 + 0.25, y3 = 1.5 + 0.625; the gradients at the adders
  // 1.75, 1.5, 1 (each step's 1 plus half the next's).
  std::printf("outputs: %.4f %.4f %.4f\n", yv[0], yv[1], yv[2]);
  std::printf("input gradients: %.4f %.4f %.4f\n", dxv[0], dxv[1], dxv[2]);
  std::printf("weight gradients: input %.4f feedback %.4f bias %.4f\n", w[0],
              w[1], w[2]);
  return 0;
}
