// Ternary element-wise operations over a list of regions, MultiVertices
// like UnaryOp2D:
//   Select2D: out = in3 ? in1 : in2 (in3 the bool condition)
//   Clamp2D:  out = min(max(in1, in2), in3)
#include "ExprOpDispatch.hpp"

#include <poplar/Vertex.hpp>

namespace popops {

template <class T> class Select2D : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in1;
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in2;
  poplar::Vector<poplar::Input<poplar::Vector<bool>>> in3;
  poplar::Vector<poplar::Output<poplar::Vector<T>>> out;

  void compute(unsigned wid) {
    for (unsigned r = 0; r != out.size(); ++r) {
      const auto range = codelet::workerRange(out[r].size(), wid, numWorkers());
      const T *a = in1[r].data();
      const T *b = in2[r].data();
      const bool *c = in3[r].data();
      T *y = out[r].data();
      for (unsigned i = range.begin; i != range.end; ++i)
        y[i] = ops::select(a[i], b[i], c[i]);
    }
  }
};

template <class T> class Clamp2D : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in1;
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in2;
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in3;
  poplar::Vector<poplar::Output<poplar::Vector<T>>> out;

  void compute(unsigned wid) {
    for (unsigned r = 0; r != out.size(); ++r) {
      const auto range = codelet::workerRange(out[r].size(), wid, numWorkers());
      const T *x = in1[r].data();
      const T *lo = in2[r].data();
      const T *hi = in3[r].data();
      T *y = out[r].data();
      for (unsigned i = range.begin; i != range.end; ++i)
        y[i] = ops::clamp(x[i], lo[i], hi[i]);
    }
  }
};

template class Select2D<float>;
template class Select2D<half>;
template class Select2D<int>;
template class Select2D<unsigned int>;
template class Select2D<short>;
template class Select2D<unsigned short>;
template class Select2D<bool>;

template class Clamp2D<float>;
template class Clamp2D<half>;
template class Clamp2D<int>;
template class Clamp2D<unsigned int>;
template class Clamp2D<short>;
template class Clamp2D<unsigned short>;

} // namespace popops
