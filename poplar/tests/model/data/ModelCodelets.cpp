// Vertices of each kind for the IPU Model's cycle and memory tests.
#include <poplar/Vertex.hpp>

using namespace poplar;

class Sum : public Vertex {
public:
  Input<Vector<float>> in;
  Output<float> out;

  bool compute() {
    float s = 0;
    for (unsigned i = 0; i < in.size(); ++i)
      s += in[i];
    *out = s;
    return true;
  }
};

class Scale : public MultiVertex {
public:
  Input<Vector<float>> in;
  Output<Vector<float>> out;

  void compute(unsigned workerId) {
    for (unsigned i = workerId; i < in.size(); i += numWorkers())
      out[i] = 2 * in[i];
  }
};

class Negate : public SupervisorVertex {
public:
  InOut<Vector<float>> data;

  bool compute() {
    for (unsigned i = 0; i < data.size(); ++i)
      data[i] = -data[i];
    return true;
  }
};

// Used without a cycle estimate: the IPU Model uses its default.
class Unestimated : public Vertex {
public:
  Input<Vector<float>> in;
  Output<float> out;
  float bias;

  bool compute() {
    *out = bias + in[0];
    return true;
  }
};
