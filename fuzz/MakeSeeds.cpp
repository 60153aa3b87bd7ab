// Writes seeds for the profile harness: the autoReport files (profile.pop,
// debug.cbor) of a small program on a four-tile IPU Model, into the
// directory given as the argument.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Program.hpp>

#include <cstdio>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <directory>\n", argv[0]);
    return 2;
  }
  poplar::IPUModel model("ipu2");
  model.tilesPerIPU = 4;
  poplar::Device device = model.createDevice();
  poplar::Graph graph(device.getTarget());
  poplar::Tensor a = graph.addVariable(poplar::FLOAT, {4, 8}, "a");
  poplar::Tensor b = graph.addVariable(poplar::FLOAT, {4, 8}, "b");
  poplar::Tensor c = graph.addConstant(poplar::INT, {3}, 7, "c");
  for (unsigned t = 0; t != 4; ++t) {
    graph.setTileMapping(a[t], t);
    graph.setTileMapping(b[t], 3 - t);
  }
  graph.setTileMapping(c, 1);
  poplar::program::Sequence prog;
  prog.add(poplar::program::Copy(a, b));
  prog.add(poplar::program::Repeat(2, poplar::program::Copy(b.transpose().flatten(), a.flatten())));
  poplar::Engine engine(graph, prog,
                        {{"autoReport.all", "true"}, {"autoReport.directory", argv[1]}});
  engine.load(device);
  engine.run(0, "seed");
  return 0;
}
