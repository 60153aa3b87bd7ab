// A user program built against an installed SDK: it copies a constant
// through a variable on the IPU Model and prints it.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>

using namespace poplar;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  Tensor c = graph.addConstant<float>(FLOAT, {3}, {1.0f, 2.5f, -4.0f});
  Tensor v = graph.addVariable(FLOAT, {3}, "v");
  graph.setTileMapping(c, 0);
  graph.setTileMapping(v, 1);
  program::Sequence prog{program::Copy(c, v), program::PrintTensor("v", v)};
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  return 0;
}
