// Tutorial 4, complete: ((m1 * m2) * m3) with poplin::matMul on the IPU
// Model, then the profile summary of the run.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <iostream>

using namespace poplar;
using namespace poplar::program;

int main() {
  // A simulated IPU and a graph for it.
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());

  // poplin's vertices, and popops' (poplin sums its partial results with
  // popops).
  popops::addCodelets(graph);
  poplin::addCodelets(graph);

  // Three matrices, each spread evenly over the tiles.
  Tensor m1 = graph.addVariable(FLOAT, {900, 600}, "m1");
  Tensor m2 = graph.addVariable(FLOAT, {600, 300}, "m2");
  Tensor m3 = graph.addVariable(FLOAT, {300, 200}, "m3");
  poputil::mapTensorLinearly(graph, m1);
  poputil::mapTensorLinearly(graph, m2);
  poputil::mapTensorLinearly(graph, m3);

  // The host writes the inputs and reads the result.
  graph.createHostWrite("m1-write", m1);
  graph.createHostWrite("m2-write", m2);
  graph.createHostWrite("m3-write", m3);

  // (m1 * m2) * m3: two matrix multiplications in one program.
  Sequence prog;
  Tensor m4 = poplin::matMul(graph, m1, m2, prog, "m4");
  Tensor m5 = poplin::matMul(graph, m4, m3, prog, "m5");
  graph.createHostRead("m5-read", m5);

  // Keep the debug information and instrument the program, so the profile
  // can name every step and count its cycles.
  Engine engine(graph, prog,
                OptionFlags{{"debug.retainDebugInformation", "true"},
                            {"debug.instrument", "true"}});
  engine.load(device);

  std::vector<float> h1(900 * 600, 1.0f), h2(600 * 300, 0.5f),
      h3(300 * 200, 0.25f);
  engine.writeTensor("m1-write", h1.data(), h1.data() + h1.size());
  engine.writeTensor("m2-write", h2.data(), h2.data() + h2.size());
  engine.writeTensor("m3-write", h3.data(), h3.data() + h3.size());

  std::cout << "Running program\n";
  engine.run(0);
  std::cout << "Program complete\n";

  std::vector<float> h5(900 * 200);
  engine.readTensor("m5-read", h5.data(), h5.data() + h5.size());
  // Every element is 600 * 0.5 * 300 * 0.25 = 22500.
  std::cout << "m5[0][0] = " << h5[0] << "\n";

  engine.printProfileSummary(std::cout, {{"showExecutionSteps", "true"}});
  return 0;
}
