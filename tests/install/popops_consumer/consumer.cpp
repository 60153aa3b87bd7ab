// A user program built against an installed SDK with popops: a fused map
// and a named operation on the IPU Model, printed.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace popops::expr;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  Tensor x = graph.addConstant<float>(FLOAT, {3}, {1.0f, 2.5f, -4.0f});
  graph.setTileMapping(x, 0);
  program::Sequence prog;
  Tensor y = popops::map(graph, _1 * 2.0f + 1.0f, {x}, prog);
  Tensor z = popops::abs(graph, y, prog);
  prog.add(program::PrintTensor("z", z));
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  return 0;
}
