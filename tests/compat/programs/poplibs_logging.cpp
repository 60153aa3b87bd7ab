// A program using poplin and popops, run with POPLIBS_LOG_LEVEL=INFO: the
// log names each operation with the original's PL: prefix.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <iostream>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  Tensor a = graph.addVariable(FLOAT, {2, 3}, "a");
  Tensor b = graph.addVariable(FLOAT, {3, 4}, "b");
  poputil::mapTensorLinearly(graph, a);
  poputil::mapTensorLinearly(graph, b);
  Sequence prog;
  Tensor c = poplin::matMul(graph, a, b, prog, "product");
  popops::reduce(graph, c, {0}, {popops::Operation::ADD}, prog, "columns");
  Engine engine(graph, prog);
  std::cout << "built" << std::endl;
  return 0;
}
