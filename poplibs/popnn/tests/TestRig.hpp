// A graph on the test device with the codelets popnn needs, and host
// transfers of FLOAT and HALF tensors as float vectors.
#ifndef POPNN_TESTS_TESTRIG_HPP
#define POPNN_TESTS_TESTRIG_HPP

#include <poplar/Device.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace popnntest {

struct Rig {
  poplar::Device device;
  poplar::Graph graph;
  poplar::program::Sequence prog;
  explicit Rig(unsigned tiles = 4);

  /// A variable mapped linearly over the tiles, written from the host
  /// before the program runs.
  poplar::Tensor input(const poplar::Type &type,
                       const std::vector<std::size_t> &shape,
                       const std::string &name, std::vector<float> values);
  /// Read back after the program runs.
  void output(const poplar::Tensor &t, const std::string &name);

  /// Compiles, writes the inputs, runs, reads the outputs (as floats).
  std::map<std::string, std::vector<float>> run();

private:
  std::map<std::string, std::pair<poplar::Tensor, std::vector<float>>> inputs;
  std::map<std::string, poplar::Tensor> outputs;
};

/// Uniform values in [lo, hi) from a fixed seed.
std::vector<float> uniformValues(std::size_t n, float lo, float hi,
                                 unsigned seed);
/// The values as the nearest device halves would have them.
std::vector<float> roundToHalf(const std::vector<float> &v);
std::vector<double> toDouble(const std::vector<float> &v);

/// Checks |got - want| <= absTol + relTol * |want| element by element.
void checkClose(const std::vector<float> &got, const std::vector<double> &want,
                double relTol, double absTol);

} // namespace popnntest

#endif
