#include <poplar/Vertex.hpp>

struct Broken : poplar::Vertex {
  poplar::Input<float> in
  void compute() {}
};
