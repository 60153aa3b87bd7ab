// The element-wise non-linearities and their gradients over a list of
// regions. MultiVertices: each worker takes a slice of every region.
#include "NonLinearityMath.hpp"

#include <poplar/Vertex.hpp>

namespace popnn {

using NL = NonLinearityType;

// out[r][i] = f(in[r][i])
template <class T, NonLinearityType nl>
class NonLinearity2D : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in;
  poplar::Vector<poplar::Output<poplar::Vector<T>>> out;

  void compute(unsigned wid) {
    for (unsigned r = 0; r != out.size(); ++r) {
      const auto range = codelet::workerRange(out[r].size(), wid, numWorkers());
      for (unsigned i = range.begin; i != range.end; ++i)
        out[r][i] = T(codelet::apply<nl>(float(in[r][i])));
    }
  }
};

// data[r][i] = f(data[r][i])
template <class T, NonLinearityType nl>
class NonLinearity2DInPlace : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::InOut<poplar::Vector<T>>> data;

  void compute(unsigned wid) {
    for (unsigned r = 0; r != data.size(); ++r) {
      const auto range =
          codelet::workerRange(data[r].size(), wid, numWorkers());
      for (unsigned i = range.begin; i != range.end; ++i)
        data[r][i] = T(codelet::apply<nl>(float(data[r][i])));
    }
  }
};

// inGrad[r][i] = outGrad[r][i] * f'(act[r][i])
template <class T, NonLinearityType nl>
class NonLinearityGrad2D : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> act;
  poplar::Vector<poplar::Input<poplar::Vector<T>>> outGrad;
  poplar::Vector<poplar::Output<poplar::Vector<T>>> inGrad;

  void compute(unsigned wid) {
    for (unsigned r = 0; r != inGrad.size(); ++r) {
      const auto range =
          codelet::workerRange(inGrad[r].size(), wid, numWorkers());
      for (unsigned i = range.begin; i != range.end; ++i)
        inGrad[r][i] = T(float(outGrad[r][i]) *
                         codelet::derivative<nl>(float(act[r][i])));
    }
  }
};

#define INSTANTIATE(V, nl)                                                     \
  template class V<float, NL::nl>;                                             \
  template class V<half, NL::nl>;
#define INSTANTIATE_ALL(nl)                                                    \
  INSTANTIATE(NonLinearity2D, nl)                                              \
  INSTANTIATE(NonLinearity2DInPlace, nl)                                       \
  INSTANTIATE(NonLinearityGrad2D, nl)

INSTANTIATE_ALL(SIGMOID)
INSTANTIATE_ALL(HARD_SIGMOID)
INSTANTIATE_ALL(RELU)
INSTANTIATE_ALL(TANH)
INSTANTIATE_ALL(GELU)
INSTANTIATE_ALL(GELU_ERF)
INSTANTIATE_ALL(SWISH)

} // namespace popnn
