#include <poplar/Vertex.hpp>

// A base without compute() is fine; a vertex without one is not.
struct Base : poplar::Vertex {
  poplar::Input<float> in;
};
struct Lazy : Base {
  poplar::Output<float> out;
};
