#include <poplar/Vertex.hpp>

// libclang skips function bodies; the host compiler finds this error.
struct Typo : poplar::Vertex {
  poplar::Output<float> out;
  void compute() { *out = undeclaredName; }
};
