// Defines a vertex type name that TestCodelets.cpp also defines.
#include <poplar/Vertex.hpp>

class ScalarFields : public poplar::Vertex {
public:
  poplar::Output<float> sum;
  bool compute() { *sum = 0; return true; }
};
