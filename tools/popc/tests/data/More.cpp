// A second input of the same .gp: its vertices join those of Vertices.cpp.
#include "CommonBase.hpp"

namespace more {
// Copies in to out.
struct Copy : poplar::Vertex {
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<poplar::Vector<float>> out;
  void compute() {
    for (unsigned i = 0; i != in.size(); ++i)
      out[i] = in[i];
  }
};
} // namespace more
