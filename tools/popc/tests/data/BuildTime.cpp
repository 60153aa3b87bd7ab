// Compiled by add_gp_library at build time (see ../CMakeLists.txt), with
// -Werror -Wdouble-promotion as the PopLibs codelets are.
#include "CommonBase.hpp"

// out[i] = in[i] * POPC_TEST_FACTOR
struct Triple : poplar::Vertex {
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<poplar::Vector<float>> out;
  void compute() {
    for (unsigned i = 0; i != in.size(); ++i)
      out[i] = in[i] * POPC_TEST_FACTOR;
  }
};
