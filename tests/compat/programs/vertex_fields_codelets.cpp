// Codelets written as for the original: fields used through operator->,
// size(), data(), begin()/end(); ONE_PTR and SPAN layouts; half from
// poplar/HalfFloat.hpp; the ipu:: maths functions and IPU built-ins.
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

#include <ipu_builtins.h>
#include <ipu_memory_intrinsics>
#include <ipu_vector_math>

using namespace poplar;

static constexpr auto ONE_PTR = poplar::VectorLayout::ONE_PTR;
static constexpr auto SPAN = poplar::VectorLayout::SPAN;

// out[i] = in[i] * scale[0] + in[i]; h[i] = 2 |h[i]|; count = in's size;
// nans = how many elements of in are NaN.
class FieldsVertex : public Vertex {
public:
  Input<Vector<float, SPAN, 8>> in;
  Input<Vector<float, ONE_PTR>> scale;
  Output<Vector<float, ONE_PTR, 8>> out;
  InOut<Vector<half>> h;
  Output<unsigned> count;
  Output<unsigned> nans;

  bool compute() {
    *count = in->size();
    const float *p = in->data();
    float *o = &out[0];
    unsigned n = 0;
    for (auto it = in->begin(); it != in->end(); ++it) {
      ipu::store_postinc(&o, *it * scale[0] + *p++, 1);
      n += __builtin_ipu_isnan(*it);
    }
    *nans = n;
    for (auto &x : h)
      x = ipu::fabs(x) * half(2.0f);
    return true;
  }
};

// The sum of each region of a list, through operator-> on each item.
class ListSumVertex : public MultiVertex {
public:
  Input<VectorList<float, VectorListLayout::DELTANELEMENTS>> in;
  Output<Vector<float>> sums;

  void compute(unsigned workerId) {
    for (unsigned r = workerId; r < in.size(); r += numWorkers()) {
      float s = 0;
      for (unsigned i = 0; i != in[r].size(); ++i)
        s += in[r].data()[i];
      sums[r] = ipu::fmax(s, -1000.0f);
    }
  }
};
