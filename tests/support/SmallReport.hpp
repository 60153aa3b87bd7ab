// A small program on a four-tile IPU Model (copies between tiles, a
// repeat), run once with every autoReport file written: the base of pva's
// corrupt-report tests and the seeds of the profile fuzzer.
#ifndef SDK_TESTS_SUPPORT_SMALLREPORT_HPP
#define SDK_TESTS_SUPPORT_SMALLREPORT_HPP

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Program.hpp>

#include <string>

namespace sdktest {

/// Writes profile.pop, debug.cbor and archive.a into `directory`.
inline void writeSmallReport(const std::string &directory) {
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
  prog.add(poplar::program::Repeat(
      2, poplar::program::Copy(b.transpose().flatten(), a.flatten())));
  poplar::Engine engine(graph, prog,
                        {{"autoReport.all", "true"}, {"autoReport.directory", directory}});
  engine.load(device);
  engine.run(0, "small");
}

} // namespace sdktest

#endif
