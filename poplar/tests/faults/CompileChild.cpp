// One of the processes of FaultInjectionTest's concurrent compile: adds the
// codelets of the source given (through the codelet cache the environment
// names), runs the vertex Const and exits with 0 if it wrote the value
// given.
#include "codelet/ConstVertex.hpp"

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
    return sdktest::runConst(graph) == std::atoi(argv[2]) ? 0 : 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
