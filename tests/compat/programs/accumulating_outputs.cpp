// Outputs of the original that accumulate, update in place or keep state
// between runs, each checked against a host loop over the same runs:
// popnn::calcAccuracy's numCorrect (an InOut: zeroed once, it counts every
// batch), popops::reduceWithOutput with update, popops::multiUpdateAdd,
// popops::CircBuf's index, and poprand's generator state (without a seed
// every run draws new numbers; with a seed every run draws the same).
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popnn/Loss.hpp>
#include <popnn/codelets.hpp>
#include <poplin/codelets.hpp>
#include <popops/CircBuf.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>
#include <poprand/RandomGen.hpp>
#include <poprand/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

const unsigned rows = 4, classes = 3, runs = 3;

// The model outputs and labels of run r: each row a permutation of
// {0, 0.1, 2.2} (no ties), labels cycling through the classes.
void batch(unsigned r, std::vector<float> &outputs,
           std::vector<unsigned> &labels) {
  for (unsigned i = 0; i != rows; ++i) {
    for (unsigned j = 0; j != classes; ++j)
      outputs[i * classes + j] = float((i + r + 2 * j) % 3) + 0.1f * j;
    labels[i] = (i + 2 * r) % classes;
  }
}

} // namespace

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  poprand::addCodelets(graph);
  Sequence prog;

  // calcAccuracy: numCorrect is zeroed by the host once.
  Tensor outputs = graph.addVariable(FLOAT, {rows, classes}, "outputs");
  Tensor labels = graph.addVariable(UNSIGNED_INT, {rows}, "labels");
  Tensor numCorrect = graph.addVariable(UNSIGNED_INT, {1}, "numCorrect");
  poputil::mapTensorLinearly(graph, outputs);
  poputil::mapTensorLinearly(graph, labels);
  graph.setTileMapping(numCorrect, 0);
  prog.add(popnn::calcAccuracy(graph, outputs, labels, numCorrect));

  // reduceWithOutput with update: acc += the sum of in.
  Tensor in = graph.addConstant<float>(FLOAT, {4}, {1, 2, 3, 4});
  Tensor acc = graph.addVariable(FLOAT, {}, "acc");
  graph.setTileMapping(in, 1);
  graph.setTileMapping(acc, 1);
  popops::reduceWithOutput(graph, in, acc, {0},
                           {popops::Operation::ADD, true}, prog);

  // multiUpdateAdd: rows 1, 1 and 3 of t get one each run.
  Tensor t = graph.addVariable(FLOAT, {4, 2}, "t");
  poputil::mapTensorLinearly(graph, t);
  Tensor ones = graph.addConstant<float>(FLOAT, {3, 1, 2}, 1.0f);
  Tensor scale = graph.addConstant<float>(FLOAT, {}, 1.0f);
  graph.setTileMapping(ones, 2);
  graph.setTileMapping(scale, 2);
  popops::multiUpdateAdd(graph, t, ones, {1, 1, 3}, scale, 0, prog);

  // CircBuf: each run adds the value the host wrote.
  popops::CircBuf buf(graph, FLOAT, 4, {1});
  Tensor value = graph.addVariable(FLOAT, {1}, "value");
  graph.setTileMapping(value, 3);
  buf.add(value, prog);
  Tensor last = buf.prev(0, prog);

  // poprand: the graph's generator, and a fixed seed.
  Tensor ref = graph.addVariable(FLOAT, {8}, "ref");
  poputil::mapTensorLinearly(graph, ref);
  Tensor fresh = poprand::uniform(graph, nullptr, 0, ref, FLOAT, 0, 1, prog);
  Tensor seed = graph.addConstant<unsigned>(UNSIGNED_INT, {2}, {7, 11});
  graph.setTileMapping(seed, 0);
  Tensor seeded = poprand::uniform(graph, &seed, 0, ref, FLOAT, 0, 1, prog);

  graph.createHostWrite("outputs", outputs);
  graph.createHostWrite("labels", labels);
  graph.createHostWrite("numCorrect", numCorrect);
  graph.createHostRead("numCorrect", numCorrect);
  graph.createHostWrite("acc", acc);
  graph.createHostRead("acc", acc);
  graph.createHostWrite("t", t);
  graph.createHostRead("t", t);
  graph.createHostWrite("value", value);
  graph.createHostRead("index", buf.getIndex());
  graph.createHostRead("last", last);
  graph.createHostRead("fresh", fresh);
  graph.createHostRead("seeded", seeded);

  Engine engine(graph, prog);
  engine.load(device);
  const unsigned zero = 0;
  const float half = 0.5f;
  const std::vector<float> zeros(8, 0.0f);
  engine.writeTensor("numCorrect", &zero, &zero + 1);
  engine.writeTensor("acc", &half, &half + 1);
  engine.writeTensor("t", zeros.data(), zeros.data() + 8);

  unsigned hostCorrect = 0;
  std::vector<float> firstFresh(8), firstSeeded(8), f(8), s(8);
  bool freshDiffers = false, seededSame = true;
  std::vector<float> out(rows * classes);
  std::vector<unsigned> lab(rows);
  for (unsigned r = 0; r != runs; ++r) {
    batch(r, out, lab);
    engine.writeTensor("outputs", out.data(), out.data() + out.size());
    engine.writeTensor("labels", lab.data(), lab.data() + lab.size());
    const float v = 10.0f + r;
    engine.writeTensor("value", &v, &v + 1);
    engine.run(0);
    for (unsigned i = 0; i != rows; ++i) {
      unsigned best = 0;
      for (unsigned j = 1; j != classes; ++j)
        if (out[i * classes + j] > out[i * classes + best])
          best = j;
      hostCorrect += best == lab[i];
    }
    engine.readTensor("fresh", f.data(), f.data() + 8);
    engine.readTensor("seeded", s.data(), s.data() + 8);
    if (r == 0) {
      firstFresh = f;
      firstSeeded = s;
    } else {
      freshDiffers = freshDiffers || f != firstFresh;
      seededSame = seededSame && s == firstSeeded;
    }
  }

  unsigned correct = 0, index = 0;
  float accValue = 0, lastValue = 0;
  std::vector<float> tValues(8);
  engine.readTensor("numCorrect", &correct, &correct + 1);
  engine.readTensor("acc", &accValue, &accValue + 1);
  engine.readTensor("t", tValues.data(), tValues.data() + 8);
  engine.readTensor("index", &index, &index + 1);
  engine.readTensor("last", &lastValue, &lastValue + 1);

  std::cout << "numCorrect after " << runs << " batches: " << correct
            << " (host loop: " << hostCorrect << ")\n";
  std::cout << "reduce with update: " << accValue
            << " (host loop: " << 0.5f + runs * 10.0f << ")\n";
  std::cout << "multiUpdateAdd rows:";
  for (unsigned i = 0; i != 4; ++i)
    std::cout << " " << tValues[2 * i];
  std::cout << " (host loop: 0 " << 2 * runs << " 0 " << runs << ")\n";
  std::cout << "CircBuf index " << index << ", last " << lastValue
            << " (host loop: " << runs % 4 << ", " << 10 + runs - 1 << ")\n";
  std::cout << "poprand without a seed: " << (freshDiffers ? "new" : "the same")
            << " numbers each run\n";
  std::cout << "poprand with a seed: " << (seededSame ? "the same" : "new")
            << " numbers each run\n";
  return correct == hostCorrect ? 0 : 1;
}
