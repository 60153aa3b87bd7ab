// A graph on the device under test (SDK_TEST_DEVICE) with popops' codelets,
// inputs set from host values and outputs read back after one run, values
// held as double whatever the element type.
#ifndef POPOPS_TESTS_TESTRIG_HPP
#define POPOPS_TESTS_TESTRIG_HPP

#include "ElementwiseReference.hpp"

#include <poplar/Device.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

#include <map>
#include <string>
#include <vector>

namespace popops_test {

class Rig {
public:
  explicit Rig(unsigned tilesPerIPU = 4);

  poplar::Graph &graph() { return g; }
  poplar::program::Sequence &prog() { return sequence; }
  const poplar::Target &target() const { return device.getTarget(); }
  unsigned numTiles() const { return device.getTarget().getNumTiles(); }

  /// A variable holding `values`, spread over the tiles an element at a
  /// time (grain 1), so that operations span several tiles.
  poplar::Tensor input(const std::string &name, const poplar::Type &type,
                       const std::vector<std::size_t> &shape,
                       const Values &values);
  /// Sets the value t holds when the engine is loaded.
  void setValues(const poplar::Tensor &t, const Values &values);
  /// Reads t after the run; t must be a whole variable or a view of one.
  void read(const std::string &name, const poplar::Tensor &t);

  /// Compiles, loads and runs the program once, then reads the outputs.
  void run();
  const Values &values(const std::string &name) const;

private:
  poplar::Device device;
  poplar::Graph g;
  poplar::program::Sequence sequence;
  std::vector<std::pair<std::string, poplar::Tensor>> reads;
  std::map<std::string, Values> results;
};

/// 0, 1, 2, ... count - 1 as values.
Values iotaValues(std::size_t count, double start = 0, double step = 1);

} // namespace popops_test

#endif // POPOPS_TESTS_TESTRIG_HPP
