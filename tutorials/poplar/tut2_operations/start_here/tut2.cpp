// Tutorial 2: using PopLibs. The graph below has two 2x2 variables set from
// constants; follow the steps of the Poplar and PopLibs user guide to add
// popops' codelets and element-wise additions before the engine is made.
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  // The IPU Model device and a graph for it.
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());

  // Two 2x2 variables, one element per tile: v1 row by row on tiles 0..3,
  // v2 column by column.
  Tensor v1 = graph.addVariable(FLOAT, {2, 2}, "v1");
  Tensor v2 = graph.addVariable(FLOAT, {2, 2}, "v2");
  for (unsigned row = 0; row < 2; ++row) {
    for (unsigned col = 0; col < 2; ++col) {
      graph.setTileMapping(v1[row][col], row * 2 + col);
      graph.setTileMapping(v2[row][col], col * 2 + row);
    }
  }

  // Their initial values, as constants copied in by the program.
  Tensor init1 = graph.addConstant<float>(FLOAT, {4}, {1.0, 1.5, 2.0, 2.5});
  Tensor init2 = graph.addConstant<float>(FLOAT, {4}, {4.0, 3.0, 2.0, 1.0});
  graph.setTileMapping(init1, 0);
  graph.setTileMapping(init2, 0);

  Sequence prog;
  prog.add(Copy(init1, v1.flatten()));
  prog.add(Copy(init2, v2.flatten()));

  // Add the codelets and the operations here.

  Engine engine(graph, prog);
  engine.load(device);

  std::cout << "Running program\n";
  engine.run(0);
  std::cout << "Program complete\n";

  return 0;
}
