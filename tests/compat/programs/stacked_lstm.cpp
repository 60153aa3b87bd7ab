// A two-layer bidirectional LSTM as a program for the original builds it:
// the original's lstmFwd takes one layer and one direction, so the program
// calls it per layer and direction, the backward direction on the
// time-reversed input (a view), the directions' outputs concatenated as
// the next layer's input. With the same weights in both directions and an
// input that reads the same backwards, the first layer's backward
// direction's outputs are its forward direction's in reverse.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Lstm.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using namespace popnn::lstm;

static void fill(Graph &graph, const Tensor &t, float phase) {
  std::vector<float> v(t.numElements());
  for (std::size_t i = 0; i != v.size(); ++i)
    v[i] = 0.5f * std::sin(phase + 0.7f * float(i));
  graph.setInitialValue(t, ArrayRef<float>(v));
}

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  Sequence prog;

  const std::size_t steps = 5, batch = 2, inputSize = 3, hidden = 4;
  LstmParams first(FLOAT, batch, steps, {inputSize, hidden});
  Tensor x = createInput(graph, first, "x");
  // A palindrome in time: step t equals step steps - 1 - t.
  std::vector<float> xs(x.numElements());
  for (std::size_t t = 0; t != steps; ++t)
    for (std::size_t i = 0; i != batch * inputSize; ++i)
      xs[t * batch * inputSize + i] =
          std::cos(float(std::min(t, steps - 1 - t)) + float(i));
  graph.setInitialValue(x, ArrayRef<float>(xs));

  Tensor layerIn = x, firstLayer;
  for (std::size_t layer = 0; layer != 2; ++layer) {
    LstmParams params(FLOAT, batch, steps,
                      {layer == 0 ? inputSize : 2 * hidden, hidden});
    LstmWeights weights = createWeights(graph, params, "weights");
    fill(graph, weights.inputWeights, float(layer));
    fill(graph, weights.outputWeights, float(layer) + 1);
    fill(graph, weights.biases, float(layer) + 2);
    LstmState init = createInitialState(graph, params, "init");
    zeroInitialState(graph, init, prog);
    Tensor forward =
        lstmFwd(graph, params, init, layerIn, weights, nullptr, prog, "fwd")
            .first;
    Tensor backward = lstmFwd(graph, params, init, layerIn.reverse(0), weights,
                              nullptr, prog, "bwd")
                          .first.reverse(0);
    layerIn = concat(forward, backward, 2);
    if (layer == 0)
      firstLayer = layerIn;
  }
  graph.createHostRead("first", firstLayer);
  graph.createHostRead("out", layerIn);

  Engine engine(graph, prog);
  engine.load(device);
  engine.run();
  std::vector<float> out(firstLayer.numElements()), last(layerIn.numElements());
  engine.readTensor("first", out.data(), out.data() + out.size());
  engine.readTensor("out", last.data(), last.data() + last.size());
  std::printf("output shape: [%zu][%zu][%zu]\n", layerIn.dim(0), layerIn.dim(1),
              layerIn.dim(2));
  // out[t][b][0:hidden] (forward) against out[steps-1-t][b][hidden:2*hidden].
  float worst = 0;
  for (std::size_t t = 0; t != steps; ++t)
    for (std::size_t b = 0; b != batch; ++b)
      for (std::size_t h = 0; h != hidden; ++h) {
        const float f = out[(t * batch + b) * 2 * hidden + h];
        const float r =
            out[((steps - 1 - t) * batch + b) * 2 * hidden + hidden + h];
        worst = std::max(worst, std::fabs(f - r));
      }
  std::printf("first layer's backward direction mirrors its forward one: %s\n",
              worst < 1e-5f ? "yes" : "no");
  bool bounded = true; // an LSTM's outputs are within (-1, 1)
  for (float v : last)
    bounded = bounded && std::fabs(v) < 1.0f;
  std::printf("outputs within (-1, 1): %s\n", bounded ? "yes" : "no");
  return 0;
}
