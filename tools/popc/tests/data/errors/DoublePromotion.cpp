#include <poplar/Vertex.hpp>

// Fine, except under -Werror -Wdouble-promotion.
struct Promote : poplar::Vertex {
  poplar::Input<float> in;
  poplar::Output<float> out;
  void compute() { *out = float(*in * 0.5); }
};
