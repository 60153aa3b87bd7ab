// Runs the vertices of vertex_fields_codelets.cpp and prints what they
// computed.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <cmath>
#include <iostream>
#include <limits>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Target target = device.getTarget();
  Graph graph(target);
  graph.addCodelets("vertex_fields_codelets.cpp");

  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor in = graph.addConstant<float>(FLOAT, {5}, {1, 2, 3, 4, nan});
  Tensor scale = graph.addConstant<float>(FLOAT, {1}, {10});
  Tensor out = graph.addVariable(FLOAT, {5}, "out");
  Tensor h = graph.addVariable(HALF, {3}, "h");
  Tensor counts = graph.addVariable(UNSIGNED_INT, {2}, "counts");
  Tensor lists = graph.addConstant<float>(FLOAT, {6}, {1, 2, 3, 4, 5, 6});
  Tensor sums = graph.addVariable(FLOAT, {3}, "sums");
  for (Tensor t : {in, scale, out, h, counts, lists, sums})
    graph.setTileMapping(t, 0);

  ComputeSet cs = graph.addComputeSet("fields");
  VertexRef v = graph.addVertex(cs, "FieldsVertex");
  graph.connect(v["in"], in);
  graph.connect(v["scale"], scale);
  graph.connect(v["out"], out);
  graph.connect(v["h"], h);
  graph.connect(v["count"], counts[0]);
  graph.connect(v["nans"], counts[1]);
  graph.setTileMapping(v, 0);
  VertexRef l = graph.addVertex(cs, "ListSumVertex");
  graph.connect(l["in"], {lists.slice(0, 1), lists.slice(1, 3), lists.slice(3, 6)});
  graph.connect(l["sums"], sums);
  graph.setTileMapping(l, 0);

  graph.createHostWrite("h", h);
  for (const char *name : {"out", "h", "counts", "sums"})
    graph.createHostRead(name, name == std::string("out")      ? out
                               : name == std::string("h")      ? h
                               : name == std::string("counts") ? counts
                                                               : sums);
  Engine engine(graph, Execute(cs));
  engine.load(device);
  const std::vector<float> hIn = {-1.5f, 2.0f, -0.25f};
  std::vector<unsigned short> hBits(3);
  copyFloatToDeviceHalf(target, hIn.data(), hBits.data(), 3);
  engine.writeTensor("h", hBits.data(), hBits.data() + 3);
  engine.run(0);

  std::vector<float> hOut(5), hH(3), hSums(3);
  std::vector<unsigned> hCounts(2);
  engine.readTensor("out", hOut.data(), hOut.data() + 5);
  engine.readTensor("h", hBits.data(), hBits.data() + 3);
  copyDeviceHalfToFloat(target, hBits.data(), hH.data(), 3);
  engine.readTensor("counts", hCounts.data(), hCounts.data() + 2);
  engine.readTensor("sums", hSums.data(), hSums.data() + 3);
  std::cout << "count " << hCounts[0] << ", NaNs " << hCounts[1] << "\nout";
  for (float x : hOut)
    std::cout << " " << x;
  std::cout << "\nh";
  for (float x : hH)
    std::cout << " " << x;
  std::cout << "\nsums";
  for (float x : hSums)
    std::cout << " " << x;
  std::cout << "\n";
  return 0;
}
