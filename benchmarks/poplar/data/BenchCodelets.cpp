// Vertices for the codelet benchmarks.
#include <poplar/Vertex.hpp>

// The least a vertex can do: one element in, one out.
class Increment : public poplar::Vertex {
public:
  poplar::InOut<int> x;
  bool compute() {
    *x += 1;
    return true;
  }
};

// Three scalar edges: two inputs and an output.
class AddScalars : public poplar::Vertex {
public:
  poplar::Input<float> a;
  poplar::Input<float> b;
  poplar::Output<float> out;
  bool compute() {
    *out = *a + *b;
    return true;
  }
};
