// A variable mapped whole to tile 0: the operand the bad-input tests hand
// to the function under test.
#ifndef SDK_TESTS_SUPPORT_MAPPEDVARIABLE_HPP
#define SDK_TESTS_SUPPORT_MAPPEDVARIABLE_HPP

#include <poplar/Graph.hpp>

#include <string>
#include <vector>

namespace sdktest {

inline poplar::Tensor mapped(poplar::Graph &graph, const poplar::Type &type,
                             std::vector<std::size_t> shape,
                             const std::string &name) {
  poplar::Tensor t = graph.addVariable(type, shape, name);
  graph.setTileMapping(t, 0);
  return t;
}

} // namespace sdktest

#endif
