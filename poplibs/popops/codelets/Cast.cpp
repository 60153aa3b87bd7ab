// Casts over a list of regions: out[r][i] = cast<Out>(in[r][i]), with the
// conversions of ElementwiseOps.hpp (ops::cast). A MultiVertex.
#include "CodeletUtil.hpp"
#include "ElementwiseOps.hpp"

#include <poplar/Vertex.hpp>

namespace popops {

template <class In, class Out> class Cast2D : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<In>>> in;
  poplar::Vector<poplar::Output<poplar::Vector<Out>>> out;

  void compute(unsigned wid) {
    for (unsigned r = 0; r != out.size(); ++r) {
      const auto range = codelet::workerRange(out[r].size(), wid, numWorkers());
      const In *x = in[r].data();
      Out *y = out[r].data();
      for (unsigned i = range.begin; i != range.end; ++i)
        y[i] = ops::cast<Out>(x[i]);
    }
  }
};

// Every pair of types of castTypes() in src/ExprOpInfo.cpp (the same type
// twice for cast(graph, src, dst, cs) between tensors of one type).
#define CAST_FROM(In)                                                          \
  template class Cast2D<In, float>;                                            \
  template class Cast2D<In, half>;                                             \
  template class Cast2D<In, int>;                                              \
  template class Cast2D<In, unsigned int>;                                     \
  template class Cast2D<In, short>;                                            \
  template class Cast2D<In, unsigned short>;                                   \
  template class Cast2D<In, bool>;                                             \
  template class Cast2D<In, char>;                                             \
  template class Cast2D<In, signed char>;                                      \
  template class Cast2D<In, unsigned char>;

CAST_FROM(float)
CAST_FROM(half)
CAST_FROM(int)
CAST_FROM(unsigned int)
CAST_FROM(short)
CAST_FROM(unsigned short)
CAST_FROM(bool)
CAST_FROM(char)
CAST_FROM(signed char)
CAST_FROM(unsigned char)

} // namespace popops
