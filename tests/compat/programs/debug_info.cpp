// A library operation with its debug record, as PopLibs writes them:
// PoplibsOpDebugInfo with the arguments named by DI_ARGS, the output added,
// contexts made from the record, the records streamed to a JSON file.
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poputil/DebugInfo.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

using namespace poplar;

static Tensor scaledCopy(Graph &graph, const Tensor &in, float scale,
                         const DebugContext &debugContext = {}) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, scale));
  Tensor out = graph.clone(in, {di, "out"});
  di.addOutput(out);
  std::cout << "record " << (di.getId() > 0 ? "numbered" : "unnumbered")
            << ", path " << di.getPathName() << "\n";
  return out;
}

int main() {
  DebugInfo::initializeStreamer("debug.json", DebugSerializationFormat::JSON);
  IPUModel ipuModel;
  Graph graph(ipuModel.createDevice().getTarget());
  Tensor in = graph.addVariable(FLOAT, {2, 2}, "in");
  scaledCopy(graph, in, 0.5f, "layer1");
  DebugInfo::closeStreamer();
  std::ifstream file("debug.json");
  std::stringstream json;
  json << file.rdbuf();
  for (const char *key : {"\"api\":\"scaledCopy\"", "\"scale\":0.5",
                          "\"layer\":\"poplibs\"", "\"outputs\""})
    std::cout << key << (json.str().find(key) != std::string::npos
                             ? " found\n"
                             : " missing\n");
  return 0;
}
