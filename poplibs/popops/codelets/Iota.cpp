// Iota2D: region r of `out` set to offsets[r], offsets[r] + 1, ... (the
// host gives each region the value of its first element). A MultiVertex.
#include "CodeletUtil.hpp"

#include <poplar/Vertex.hpp>

namespace popops {

template <class T> class Iota2D : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Output<poplar::Vector<T>>> out;
  poplar::Vector<T> offsets;

  void compute(unsigned wid) {
    for (unsigned r = 0; r != out.size(); ++r) {
      const auto range = codelet::workerRange(out[r].size(), wid, numWorkers());
      T *y = out[r].data();
      for (unsigned i = range.begin; i != range.end; ++i)
        y[i] = T(offsets[r] + T(i));
    }
  }
};

template class Iota2D<int>;
template class Iota2D<unsigned int>;

} // namespace popops
