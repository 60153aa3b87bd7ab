// One of the processes of FaultInjectionTest's concurrent compile: adds the
// codelets of the source given (through the codelet cache the environment
// names), runs the vertex Const and exits with 0 if it wrote the value
// given.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <codelet source> <value>\n", argv[0]);
    return 2;
  }
  try {
    poplar::Graph graph(poplar::Target::createCPUTarget());
    graph.addCodelets(argv[1]);
    poplar::Tensor out = graph.addVariable(poplar::INT, {}, "out");
    poplar::ComputeSet cs = graph.addComputeSet("const");
    graph.addVertex(cs, "Const", {{"out", out}});
    graph.createHostRead("out", out);
    poplar::Engine engine(graph, poplar::program::Execute(cs));
    engine.load(poplar::Device::createCPUDevice());
    engine.run();
    int value = 0;
    engine.readTensor("out", &value, &value + 1);
    return value == std::atoi(argv[2]) ? 0 : 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
