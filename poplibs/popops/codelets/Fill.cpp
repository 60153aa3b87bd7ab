// Fill2D: every element of a list of regions set to the vertex state `in`
// (popops::fill and popops::zero). A MultiVertex.
#include "CodeletUtil.hpp"

#include <poplar/Vertex.hpp>

namespace popops {

template <class T> class Fill2D : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Output<poplar::Vector<T>>> out;
  T in;

  void compute(unsigned wid) {
    const T value = in;
    for (unsigned r = 0; r != out.size(); ++r) {
      const auto range = codelet::workerRange(out[r].size(), wid, numWorkers());
      T *y = out[r].data();
      for (unsigned i = range.begin; i != range.end; ++i)
        y[i] = value;
    }
  }
};

// castTypes() of src/ExprOpInfo.cpp.
template class Fill2D<float>;
template class Fill2D<half>;
template class Fill2D<int>;
template class Fill2D<unsigned int>;
template class Fill2D<short>;
template class Fill2D<unsigned short>;
template class Fill2D<bool>;
template class Fill2D<char>;
template class Fill2D<signed char>;
template class Fill2D<unsigned char>;

} // namespace popops
