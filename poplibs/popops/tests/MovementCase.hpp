// A graph on the device under test with popops' codelets, for the data
// movement tests: variables written from the host (mapped an element per
// tile in turn), outputs read back, and typed host values in and out.
#ifndef POPOPS_TESTS_MOVEMENTCASE_HPP
#define POPOPS_TESTS_MOVEMENTCASE_HPP

#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <string>
#include <vector>

namespace popops_test {

struct Case {
  poplar::Device device = sdktest::createTestDevice(4);
  poplar::Graph graph{device.getTarget()};
  poplar::program::Sequence prog;
  Case() { popops::addCodelets(graph); }

  /// A variable the host writes under `name`.
  poplar::Tensor var(const poplar::Type &type, std::vector<std::size_t> shape,
                     const std::string &name) {
    poplar::Tensor t = graph.addVariable(type, shape, name);
    poputil::mapTensorLinearly(graph, t, 1, 1);
    graph.createHostWrite(name, t);
    return t;
  }
  /// t read back as `name` + "-r".
  void read(const std::string &name, const poplar::Tensor &t) {
    graph.createHostRead(name + "-r", t);
  }
  poplar::Engine engine() {
    poplar::Engine e(graph, prog);
    e.load(device);
    return e;
  }
};

template <class T>
void put(poplar::Engine &e, const std::string &h, const std::vector<T> &v) {
  e.writeTensor(h, v.data(), v.data() + v.size());
}
template <class T>
std::vector<T> get(poplar::Engine &e, const std::string &h, std::size_t n) {
  std::vector<T> v(n);
  e.readTensor(h + "-r", v.data(), v.data() + n);
  return v;
}

} // namespace popops_test

#endif // POPOPS_TESTS_MOVEMENTCASE_HPP
