// Helpers for tests that build a graph, run it and read results back.
#ifndef POPLAR_TESTS_RUNTIME_ENGINETESTUTIL_HPP
#define POPLAR_TESTS_RUNTIME_ENGINETESTUTIL_HPP

#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace sdktest {

/// A device of the variant under test with its graph.
struct TestGraph {
  poplar::Device device = createTestDevice(4);
  poplar::Graph graph{device.getTarget()};

  /// A variable mapped round-robin over the tiles in pieces (single
  /// elements for small variables) so that copies cross tiles, with read
  /// and write handles named after it.
  poplar::Tensor variable(const poplar::Type &type,
                          std::vector<std::size_t> shape,
                          const std::string &name) {
    poplar::Tensor t = graph.addVariable(type, shape, name);
    poplar::Tensor flat = t.flatten();
    const unsigned tiles = graph.getTarget().getNumTiles();
    const std::size_t n = flat.numElements();
    const std::size_t piece = n <= 64 ? 1 : (n + 63) / 64;
    for (std::size_t i = 0, k = 0; i < n; i += piece, ++k)
      graph.setTileMapping(flat.slice(i, std::min(n, i + piece)),
                           static_cast<unsigned>(k % tiles));
    graph.createHostWrite(name + "-write", t);
    graph.createHostRead(name + "-read", t);
    return t;
  }
};

template <class T>
std::vector<T> readBack(poplar::Engine &engine, const std::string &name,
                        std::size_t n) {
  std::vector<T> values(n);
  engine.readTensor(name + "-read", values.data(), values.data() + n);
  return values;
}

template <class T>
void writeTo(poplar::Engine &engine, const std::string &name,
             const std::vector<T> &values) {
  engine.writeTensor(name + "-write", values.data(),
                     values.data() + values.size());
}

} // namespace sdktest

#endif
