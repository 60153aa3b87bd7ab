#include <poplar/Vertex.hpp>

struct Precise : poplar::Vertex {
  poplar::Input<float> in;
  double scale;
  void compute() {}
};
