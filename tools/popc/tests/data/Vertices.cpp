// Vertex types of every kind popc registers; PopcTest.cpp checks the
// table popc makes of them. Compiled with -DPOPC_TEST_OFFSET=... and
// -I include.
#include <poplar/Vertex.hpp>

#include "CommonBase.hpp"

using namespace poplar;

// The sum of a region, plus an offset set on the command line.
class SumVertex : public Vertex {
public:
  Input<Vector<float>> in;
  Output<float> out;

  bool compute() {
    float sum = POPC_TEST_OFFSET;
    for (float x : in)
      sum += x;
    *out = sum;
    return true;
  }
};

// Every field shape and kind, and every element type.
struct AllFields : Vertex {
  Input<float> a;
  Output<Vector<half>> b;
  InOut<Vector<int, VectorLayout::ONE_PTR, 8>> c;
  Input<VectorList<float, VectorListLayout::DELTANELEMENTS>> d;
  Vector<Input<Vector<float>>> e;
  Vector<Output<unsigned short>, VectorLayout::COMPACT_PTR> f;
  unsigned g;
  Vector<unsigned char> h;
  bool i;
  char j;
  signed char k;
  short l;
  long long m;
  unsigned long long n;
  Input<Vector<bool, VectorLayout::SPAN, 4, true>> o;
  void compute() {}
};

// Each worker scales its share of a region.
class ScaleMulti : public MultiVertex {
public:
  InOut<Vector<float>> data;
  float factor;
  void compute(unsigned workerId) {
    for (unsigned i = workerId; i < data.size(); i += numWorkers())
      data[i] *= factor;
  }
};

class Supervised : public SupervisorVertex {
public:
  Vector<Input<Vector<float>>> in; // copied, region by region, to out
  Input<VectorList<float>> lens;   // unused
  Output<Vector<float>> out;
  bool compute() {
    unsigned k = 0;
    for (const auto &region : in)
      for (float x : region)
        out[k++] = x;
    return k == out.size();
  }
};

template <class T> class Scale : public Vertex {
public:
  Input<Vector<T>> in;
  Output<Vector<T>> out;
  float k;
  void compute() {
    for (unsigned i = 0; i != in.size(); ++i)
      out[i] = float(in[i]) * k;
  }
};
template class Scale<float>;
#define POPC_TEST_INSTANTIATE(T) template class Scale<T>;
POPC_TEST_INSTANTIATE(half)

namespace ns {

enum class Op { ADD, SUB };

template <class T, bool flag> class Bar : public Vertex {
public:
  InOut<T> x;
  void compute() { *x = flag ? *x + 1 : *x - 1; }
};
template class Bar<int, true>;

template <Op op, class T> struct Apply : SupervisorVertexIf<sizeof(T) == 4> {
  Input<T> a, b;
  Output<T> out;
  void compute() { *out = op == Op::ADD ? *a + *b : *a - *b; }
};
template struct Apply<Op::ADD, float>;
template struct Apply<Op::SUB, short>;

template <class T, unsigned N = 4> struct Fixed : Vertex {
  Input<Vector<T>> in;
  void compute() {}
};
template struct Fixed<unsigned>;

namespace inner {
struct Nested : MultiVertex {
  Output<int> out;
  void compute(unsigned) {}
};
} // namespace inner

} // namespace ns

// Fields through a dependent base class template.
template <class T> struct Base : Vertex {
  Input<Vector<T>> first;
};
template <class T> struct Derived : Base<T> {
  Output<T> second;
  void compute() { *second = this->first[0]; }
};
template class Derived<float>;

// A base given as a template argument (a mixin).
template <class B> struct WithOffset : B {
  float offset;
};
struct Mixed : WithOffset<Vertex> {
  Output<float> out;
  void compute() { *out = offset; }
};

// An explicit specialization is a vertex type of its own.
template <class T> struct Special : Vertex {
  Input<T> in;
  void compute() {}
};
template <> struct Special<int> : MultiVertex {
  Output<int> special;
  void compute(unsigned) {}
};
template struct Special<float>;
