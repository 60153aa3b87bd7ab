#include <poplar/Vertex.hpp>

struct Shape : poplar::Vertex {
  poplar::Input<float> in;
  virtual float area() = 0;
  void compute() {}
};
