// Tutorial 6: the device code. Complete the compute function of
// DotProductVertex.
#include <poplar/Vertex.hpp>

using namespace poplar;

class DotProductVertex : public Vertex {
public:
  Input<Vector<float>> a;
  Input<Vector<float>> b;
  Output<float> out;

  bool compute() {
    // Write the dot product of a and b to out here.
    return true;
  }
};
