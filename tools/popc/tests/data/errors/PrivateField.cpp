#include <poplar/Vertex.hpp>

class Hidden : public poplar::Vertex {
  poplar::Input<float> secret;

public:
  void compute() {}
};
