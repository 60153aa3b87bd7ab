// CTC loss and beam search decoding as a program for the original
// writes them: plans, planned inputs, the loss of a one-symbol label and
// the decoding of peaked data, on an IPU Model.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popnn/CTCInference.hpp>
#include <popnn/CTCLoss.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poplin/codelets.hpp>

#include <cmath>
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
  popnn::addCodelets(graph);
  Sequence prog;

  // Loss: two steps, classes {blank, a}, label "a".
  auto lossPlan = popnn::ctc::plan(graph, FLOAT, FLOAT, 1, 2, 1, 2);
  Tensor data = popnn::ctc::createDataInput(graph, FLOAT, 1, 2, 2, lossPlan);
  Tensor labels =
      popnn::ctc::createLabelsInput(graph, UNSIGNED_INT, 1, 1, lossPlan);
  Tensor lengths = graph.addConstant<unsigned>(UNSIGNED_INT, {1}, 2u);
  Tensor labelLengths = graph.addConstant<unsigned>(UNSIGNED_INT, {1}, 1u);
  graph.setTileMapping(lengths, 0);
  graph.setTileMapping(labelLengths, 0);
  const float p[] = {std::log(0.5f), std::log(0.5f), std::log(0.25f),
                     std::log(0.75f)};
  graph.setInitialValue(data, ArrayRef<float>(p, 4));
  graph.setInitialValue(labels, ArrayRef<unsigned>({1u}));
  auto lossAndGrad = popnn::ctc::calcLossAndGradientLogProbabilities(
      graph, FLOAT, data, labels, lengths, labelLengths, prog, 0, lossPlan);
  graph.createHostRead("loss", lossAndGrad.first);

  // Decoding: the most likely labelling of peaked data is "abb".
  auto inferPlan = popnn::ctc_infer::plan(graph, FLOAT, 1, 6, 3, 4);
  Tensor peaked =
      popnn::ctc_infer::createDataInput(graph, FLOAT, 1, 6, 3, inferPlan);
  const unsigned best[] = {1, 1, 2, 0, 2, 2};
  std::vector<float> lp;
  for (unsigned t = 0; t != 6; ++t)
    for (unsigned c = 0; c != 3; ++c)
      lp.push_back(std::log(c == best[t] ? 0.9f : 0.05f));
  graph.setInitialValue(peaked, ArrayRef<float>(lp));
  Tensor steps = graph.addConstant<unsigned>(UNSIGNED_INT, {1}, 6u);
  graph.setTileMapping(steps, 0);
  auto decoded = popnn::ctc_infer::beamSearchDecoderLogProbabilities(
      graph, peaked, steps, prog, 0, 4, 2, inferPlan);
  graph.createHostRead("length", std::get<1>(decoded));
  graph.createHostRead("labels", std::get<2>(decoded));

  Engine engine(graph, prog);
  engine.load(device);
  engine.run();
  float loss;
  engine.readTensor("loss", &loss, &loss + 1);
  // Paths for "a": (a,a) (blank,a) (a,blank): 0.5*0.75 + 0.5*0.75 + 0.5*0.25
  std::printf("CTC loss: %.4f (expected %.4f)\n", loss, -std::log(0.875f));
  unsigned length[2], decodedLabels[12];
  engine.readTensor("length", length, length + 2);
  engine.readTensor("labels", decodedLabels, decodedLabels + 12);
  std::printf("Best path:");
  for (unsigned i = 0; i != length[0]; ++i)
    std::printf(" %u", decodedLabels[i]);
  std::printf("\n");
  return 0;
}
