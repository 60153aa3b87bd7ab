// The headers a program for the original includes make poplar's
// exceptions visible: this file includes only these four.
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>

using namespace poplar;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  Tensor v = graph.addVariable(FLOAT, {4}, "v");
  // Not mapped to any tile: compiling the graph fails.
  try {
    Engine engine(graph, program::Copy(v, v));
    std::cout << "compiled an unmapped tensor\n";
    return 1;
  } catch (const poplar::poplar_error &e) {
    std::cout << "caught poplar::poplar_error for the unmapped tensor\n";
  }
  try {
    v.slice(2, 9);
    return 1;
  } catch (const poplar::poplar_error &e) {
    std::cout << "caught poplar::poplar_error for the slice\n";
  }
  try {
    DeviceManager manager = DeviceManager::createDeviceManager();
    manager.getDevice(0);
    return 1;
  } catch (const poplar::poplar_error &e) {
    std::cout << "caught poplar::poplar_error for device 0\n";
  }
  return 0;
}
