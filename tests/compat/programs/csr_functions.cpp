// Floating-point behaviour as programs for the original set it: with
// exceptions on, an overflowing product stops the run on the IPU Model
// with a poplar error; off, it gives infinity; NaN on overflow for half.
#include <poplar/CSRFunctions.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

#include <cmath>
#include <iostream>

using namespace poplar;
using namespace poplar::program;

static void run(const FloatingPointBehaviour &behaviour, const Type &type,
                float value) {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 2;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  Sequence prog;
  setFloatingPointBehaviour(graph, prog, behaviour, "Set");
  Tensor t = graph.addVariable(type, {1}, "t");
  graph.setTileMapping(t, 0);
  Tensor init = graph.addConstant(type, {1}, value);
  graph.setTileMapping(init, 0);
  prog.add(Copy(init, t));
  popops::mulInPlace(graph, t, t, prog);
  Tensor result = popops::cast(graph, t, FLOAT, prog);
  graph.createHostRead("result", result);
  Engine engine(graph, prog);
  engine.load(device);
  try {
    engine.run();
    float r;
    engine.readTensor("result", &r, &r + 1);
    std::cout << type << ": " << (std::isnan(r) ? "nan" : std::isinf(r) ? "inf" : "finite")
              << "\n";
  } catch (const poplar::poplar_error &e) {
    std::cout << type << ": caught " << e.type << "\n";
  }
}

int main() {
  FloatingPointBehaviour all; // every exception on
  run(all, FLOAT, 1e30f);
  run(all, HALF, 60000);
  FloatingPointBehaviour none(false, false, false, false, false);
  run(none, FLOAT, 1e30f);
  run(none, HALF, 60000);
  run(FloatingPointBehaviour(false, false, false, false, true), HALF, 60000);
  return 0;
}
