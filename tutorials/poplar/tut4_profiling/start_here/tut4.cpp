// Tutorial 4, start here: three matrices on the IPU Model. Extend it to
// compute ((m1 * m2) * m3) with poplin::matMul (<poplin/MatMul.hpp>, and
// poplin::addCodelets), then run it and study the profile it prints.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <iostream>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  Tensor m1 = graph.addVariable(FLOAT, {900, 600}, "m1");
  Tensor m2 = graph.addVariable(FLOAT, {600, 300}, "m2");
  Tensor m3 = graph.addVariable(FLOAT, {300, 200}, "m3");
  poputil::mapTensorLinearly(graph, m1);
  poputil::mapTensorLinearly(graph, m2);
  poputil::mapTensorLinearly(graph, m3);

  Sequence prog;
  // TODO: the matrix multiplications.

  Engine engine(graph, prog,
                OptionFlags{{"debug.retainDebugInformation", "true"},
                            {"debug.instrument", "true"}});
  engine.load(device);

  std::cout << "Running program\n";
  engine.run(0);
  std::cout << "Program complete\n";

  engine.printProfileSummary(std::cout, {{"showExecutionSteps", "true"}});
  return 0;
}
