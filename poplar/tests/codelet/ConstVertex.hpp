// Runs the test codelets' vertex `Const` (a single Output<int> field, out)
// on the CPU device and returns what it wrote.
#ifndef POPLAR_TESTS_CODELET_CONSTVERTEX_HPP
#define POPLAR_TESTS_CODELET_CONSTVERTEX_HPP

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace sdktest {

inline int runConst(poplar::Graph &graph) {
  poplar::Tensor out = graph.addVariable(poplar::INT, {}, "out");
  poplar::ComputeSet cs = graph.addComputeSet("const");
  graph.addVertex(cs, "Const", {{"out", out}});
  graph.createHostRead("out", out);
  poplar::Engine engine(graph, poplar::program::Execute(cs));
  engine.load(poplar::Device::createCPUDevice());
  engine.run();
  int value = 0;
  engine.readTensor("out", &value, &value + 1);
  return value;
}

} // namespace sdktest

#endif
