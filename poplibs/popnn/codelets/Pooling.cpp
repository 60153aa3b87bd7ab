// Pooling and its gradients over planes: each plane is the field of one
// (batch, channel) pair, flattened, with up to three field dimensions
// (fewer are given as leading dimensions of size 1). The geometry is
// vertex state: sizes of the input and output fields, the kernel, the
// stride and the lower padding (negative: truncation). Single-worker
// vertices over a few planes each.
#include "PoolingGeometry.hpp"

#include <popnn/PoolingDef.hpp>

#include <poplar/Vertex.hpp>

#include <cmath>
#include <limits>

namespace popnn {

// out = the max, mean or sum of each window of in.
template <class T, PoolingType type> class Pooling : public poplar::Vertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in;
  poplar::Vector<poplar::Output<poplar::Vector<T>>> out;
  POOLING_GEOMETRY_FIELDS

  bool compute() {
    const Geometry g = geometry();
    for (unsigned p = 0; p != out.size(); ++p) {
      const T *x = &in[p][0];
      g.forEachOutput([&](unsigned index, unsigned o0, unsigned o1, unsigned o2) {
        float acc = type == PoolingType::MAX
                        ? -std::numeric_limits<float>::infinity()
                        : 0.0f;
        unsigned count = 0;
        g.forEachInput(o0, o1, o2, [&](unsigned i) {
          const float v = float(x[i]);
          acc = type == PoolingType::MAX ? (v > acc ? v : acc) : acc + v;
          ++count;
        });
        if (count == 0)
          acc = 0.0f; // a window entirely in padding
        else if (type == PoolingType::AVG)
          acc /= float(count);
        out[p][index] = T(acc);
      });
    }
    return true;
  }
};

// inGrad = the gradient of MAX pooling: each output's gradient goes to the
// inputs of its window equal to the pooled value (divided by their number
// when `scaled`).
template <class T, bool scaled> class MaxPoolingGrad : public poplar::Vertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in;
  poplar::Vector<poplar::Input<poplar::Vector<T>>> pooled;
  poplar::Vector<poplar::Input<poplar::Vector<T>>> pooledGrad;
  poplar::Vector<poplar::Output<poplar::Vector<T>>> inGrad;
  POOLING_GEOMETRY_FIELDS

  bool compute() {
    const Geometry g = geometry();
    for (unsigned p = 0; p != inGrad.size(); ++p) {
      // (HALF gradients are rounded after each addition.)
      pooling_codelet::zero<T>(inGrad[p]);
      const T *x = &in[p][0];
      g.forEachOutput([&](unsigned index, unsigned o0, unsigned o1, unsigned o2) {
        const T max = pooled[p][index];
        float grad = float(pooledGrad[p][index]);
        if (scaled) {
          unsigned matches = 0;
          g.forEachInput(o0, o1, o2, [&](unsigned i) { matches += x[i] == max; });
          if (matches != 0)
            grad /= float(matches);
        }
        g.forEachInput(o0, o1, o2, [&](unsigned i) {
          if (x[i] == max)
            inGrad[p][i] = T(float(inGrad[p][i]) + grad);
        });
      });
    }
    return true;
  }
};

// inGrad = the gradient of SUM pooling, or of AVG pooling (`average`): each
// output's gradient, divided by its window's input count for AVG, added to
// every input of its window.
template <class T, bool average> class SumPoolingGrad : public poplar::Vertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> pooledGrad;
  poplar::Vector<poplar::Output<poplar::Vector<T>>> inGrad;
  POOLING_GEOMETRY_FIELDS

  bool compute() {
    const Geometry g = geometry();
    for (unsigned p = 0; p != inGrad.size(); ++p) {
      pooling_codelet::zero<T>(inGrad[p]);
      g.forEachOutput([&](unsigned index, unsigned o0, unsigned o1, unsigned o2) {
        float grad = float(pooledGrad[p][index]);
        const unsigned count = g.count(o0, o1, o2);
        if (average && count != 0)
          grad /= float(count);
        g.forEachInput(o0, o1, o2, [&](unsigned i) {
          inGrad[p][i] = T(float(inGrad[p][i]) + grad);
        });
      });
    }
    return true;
  }
};

template class Pooling<float, PoolingType::MAX>;
template class Pooling<float, PoolingType::AVG>;
template class Pooling<float, PoolingType::SUM>;
template class Pooling<half, PoolingType::MAX>;
template class Pooling<half, PoolingType::AVG>;
template class Pooling<half, PoolingType::SUM>;
template class MaxPoolingGrad<float, false>;
template class MaxPoolingGrad<float, true>;
template class MaxPoolingGrad<half, false>;
template class MaxPoolingGrad<half, true>;
template class SumPoolingGrad<float, false>;
template class SumPoolingGrad<float, true>;
template class SumPoolingGrad<half, false>;
template class SumPoolingGrad<half, true>;

} // namespace popnn
