// A user program built against an installed SDK with poprand: draws whose
// outcome is certain (probability 1), so the output does not depend on the
// generator's values.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poprand/RandomGen.hpp>
#include <poprand/codelets.hpp>

using namespace poplar;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  poprand::addCodelets(graph);
  Tensor x = graph.addConstant<float>(FLOAT, {3}, {1.0f, 2.0f, 3.0f});
  graph.setTileMapping(x, 0);
  program::Sequence prog;
  Tensor b = poprand::bernoulli(graph, nullptr, 0, x, INT, 1.0, prog);
  Tensor d = poprand::dropout(graph, nullptr, 0, x, x, 1.0, 2.0, prog);
  prog.add(program::PrintTensor("b", b));
  prog.add(program::PrintTensor("d", d));
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  return 0;
}
