// Vertex types exercising every kind of field, for the vertex tests.
#include <poplar/Vertex.hpp>

using namespace poplar;

class ScalarFields : public Vertex {
public:
  Input<float> a;
  Input<int> b;
  Output<float> sum;
  InOut<int> counter;

  bool compute() {
    *sum = a + static_cast<float>(b);
    *counter += 1;
    return true;
  }
};

class VectorFields : public Vertex {
public:
  Input<Vector<float>> in;
  Output<Vector<float>> out;
  InOut<Vector<int>> acc;

  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = in[i] * 2 + 1;
    for (unsigned i = 0; i < acc.size(); ++i)
      acc[i] += static_cast<int>(i);
    return true;
  }
};

class StateFields : public Vertex {
public:
  Input<Vector<float, VectorLayout::ONE_PTR>> in;
  Output<Vector<float, VectorLayout::SPAN, 8>> out;
  float scale;
  unsigned offset;
  Vector<float> weights;

  void compute() {
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = in[i] * scale + weights[i % weights.size()] + offset;
  }
};

class ListFields : public Vertex {
public:
  Vector<Input<Vector<float>>> rows;
  Input<VectorList<float, VectorListLayout::DELTANELEMENTS>> more;
  Vector<Output<float>> firsts;
  Output<Vector<float>> sums;

  bool compute() {
    for (unsigned r = 0; r < rows.size(); ++r) {
      float s = 0;
      for (float x : rows[r])
        s += x;
      for (float x : more[r])
        s += x;
      sums[r] = s;
      *firsts[r] = rows[r][0];
    }
    return true;
  }
};

template <class T> class Scale : public Vertex {
public:
  Input<Vector<T>> in;
  Output<Vector<T>> out;
  T factor;

  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = in[i] * factor;
    return true;
  }
};
template class Scale<float>;
template class Scale<half>;
template class Scale<int>;

namespace ops {
// A namespaced template with a non-type argument.
template <class T, bool Negate> class Copy : public Vertex {
public:
  Input<T> in;
  Output<T> out;
  void compute() { *out = Negate ? -in : T(in); }
};
template class Copy<float, true>;
template class Copy<int, false>;
} // namespace ops

class WorkerSplit : public MultiVertex {
public:
  Input<Vector<float>> in;
  Output<Vector<float>> out;
  Output<Vector<unsigned>> worker;

  void compute(unsigned workerId) {
    for (unsigned i = workerId; i < in.size(); i += numWorkers()) {
      out[i] = in[i] + 1;
      worker[i] = workerId;
    }
  }
};

class Reverse : public SupervisorVertex {
public:
  InOut<Vector<float>> data;

  bool compute() {
    for (unsigned i = 0, j = data.size(); i + 1 < j; ++i, --j) {
      float t = data[i];
      data[i] = data[j - 1];
      data[j - 1] = t;
    }
    return true;
  }
};

class Check : public Vertex {
public:
  Input<int> x;
  bool compute() { return x > 0; }
};

// A vertex that writes only some of its outputs: the rest keep their values.
class WriteEven : public Vertex {
public:
  Output<Vector<int>> out;
  bool compute() {
    for (unsigned i = 0; i < out.size(); i += 2)
      out[i] = -1;
    return true;
  }
};
