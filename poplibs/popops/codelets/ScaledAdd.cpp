// ScaledAdd2D: A = a * A + b * B (or a * A - b * B when subtract), over a
// list of regions, where a = scaleA, or 1 - scaleA when xMinusAx
// (ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY). Floating point computes in
// float and rounds once to the type of A; integers wrap. A MultiVertex.
#include "CodeletUtil.hpp"
#include "ElementwiseOps.hpp"

#include <poplar/Vertex.hpp>

namespace popops {

template <class T, class ScaleT, bool subtract, bool xMinusAx>
class ScaledAdd2D : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::InOut<poplar::Vector<T>>> A;
  poplar::Vector<poplar::Input<poplar::Vector<T>>> B;
  poplar::Input<ScaleT> scaleA;
  poplar::Input<ScaleT> scaleB;

  void compute(unsigned wid) {
    using C = std::conditional_t<ops::isFloat<T>, float, ops::Wrap<T>>;
    C a = C(ops::Calc<ScaleT>(*scaleA));
    const C b = C(ops::Calc<ScaleT>(*scaleB));
    if constexpr (xMinusAx)
      a = C(1) - a;
    for (unsigned r = 0; r != A.size(); ++r) {
      const auto range = codelet::workerRange(A[r].size(), wid, numWorkers());
      T *x = A[r].data();
      const T *y = B[r].data();
      for (unsigned i = range.begin; i != range.end; ++i) {
        if constexpr (subtract)
          x[i] = T(a * C(x[i]) - b * C(y[i]));
        else
          x[i] = T(a * C(x[i]) + b * C(y[i]));
      }
    }
  }
};

#define SCALED_ADD(T, ScaleT)                                                  \
  template class ScaledAdd2D<T, ScaleT, false, false>;                         \
  template class ScaledAdd2D<T, ScaleT, true, false>;                          \
  template class ScaledAdd2D<T, ScaleT, false, true>;                          \
  template class ScaledAdd2D<T, ScaleT, true, true>;

SCALED_ADD(float, float)
SCALED_ADD(half, half)
SCALED_ADD(half, float)
SCALED_ADD(int, int)
SCALED_ADD(unsigned int, unsigned int)

} // namespace popops
