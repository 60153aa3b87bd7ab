// The vertices of popnn's losses: per row, the loss and its gradient
// (deltas); the arg max/min of rows; counting correct classifications.
// Single-worker vertices over a few rows each (a batch has few rows).
#include <poplar/Vertex.hpp>

#include <cmath>
#include <limits>

namespace popnn {

// MASKED_LABEL_CODE (popops/EncodingConstants.hpp) as a label of type L.
template <class L> constexpr L maskedLabel() { return static_cast<L>(-1); }

// Per row r with label l = label[r]:
//   SUM_SQUARED_LOSS   (crossEntropy false):
//     deltas = p - onehot(l); loss = 0.5 * sum(deltas^2)
//   CROSS_ENTROPY_LOSS (crossEntropy true), s = modelOutputScaling:
//     deltas = (p - s * onehot(l)) * deltasScale / s
//     loss = -log(max(p[l] / s, smallest normal float))
// A masked label gives zero deltas and loss; a label past the row's end
// gives NaN in both, so that the error shows.
template <class T, class L, bool crossEntropy>
class LossTransform : public poplar::Vertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> probs;
  poplar::Input<poplar::Vector<L>> label;
  poplar::Vector<poplar::Output<poplar::Vector<T>>> deltas;
  poplar::Output<poplar::Vector<T>> loss;
  poplar::Input<T> deltasScale;
  poplar::Input<T> modelOutputScaling;

  bool compute() {
    const float s = float(*modelOutputScaling);
    const float deltaFactor = float(*deltasScale) / s;
    for (unsigned r = 0; r != probs.size(); ++r) {
      const unsigned n = probs[r].size();
      const L l = label[r];
      if (l == maskedLabel<L>()) {
        for (unsigned j = 0; j != n; ++j)
          deltas[r][j] = T(0.0f);
        loss[r] = T(0.0f);
        continue;
      }
      const unsigned target = static_cast<unsigned>(l);
      if (target >= n) {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        for (unsigned j = 0; j != n; ++j)
          deltas[r][j] = T(nan);
        loss[r] = T(nan);
        continue;
      }
      float sum = 0.0f;
      for (unsigned j = 0; j != n; ++j) {
        const float p = float(probs[r][j]);
        if constexpr (crossEntropy) {
          const float d = (p - (j == target ? s : 0.0f)) * deltaFactor;
          deltas[r][j] = T(d);
        } else {
          const float d = p - (j == target ? 1.0f : 0.0f);
          deltas[r][j] = T(d);
          sum += d * d;
        }
      }
      if constexpr (crossEntropy) {
        const float p = float(probs[r][target]) / s;
        loss[r] = T(-std::log(std::fmax(p, std::numeric_limits<float>::min())));
      } else {
        loss[r] = T(0.5f * sum);
      }
    }
    return true;
  }
};

// value[r], index[r] = the largest (isMax) or smallest element of row r
// and its first position.
template <class T, bool isMax> class ArgMinMaxRows : public poplar::Vertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> in;
  poplar::Output<poplar::Vector<T>> value;
  poplar::Output<poplar::Vector<unsigned>> index;

  bool compute() {
    for (unsigned r = 0; r != in.size(); ++r) {
      unsigned best = 0;
      T bestValue = in[r][0];
      for (unsigned j = 1; j < in[r].size(); ++j) {
        const T v = in[r][j];
        if (isMax ? (v > bestValue) : (v < bestValue)) {
          bestValue = v;
          best = j;
        }
      }
      value[r] = bestValue;
      index[r] = best;
    }
    return true;
  }
};

// numCorrect += the number of rows r with predicted[r] == label[r] (masked
// labels never match): the count accumulates over runs until the program
// zeroes it.
template <class L> class CalcAccuracy : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<unsigned>> predicted;
  poplar::Input<poplar::Vector<L>> label;
  poplar::InOut<unsigned> numCorrect;

  bool compute() {
    unsigned count = 0;
    for (unsigned r = 0; r != predicted.size(); ++r)
      if (label[r] != maskedLabel<L>() &&
          predicted[r] == static_cast<unsigned>(label[r]))
        ++count;
    *numCorrect += count;
    return true;
  }
};

template class LossTransform<float, unsigned, false>;
template class LossTransform<float, unsigned, true>;
template class LossTransform<float, int, false>;
template class LossTransform<float, int, true>;
template class LossTransform<half, unsigned, false>;
template class LossTransform<half, unsigned, true>;
template class LossTransform<half, int, false>;
template class LossTransform<half, int, true>;

template class ArgMinMaxRows<float, true>;
template class ArgMinMaxRows<float, false>;
template class ArgMinMaxRows<half, true>;
template class ArgMinMaxRows<half, false>;
template class ArgMinMaxRows<int, true>;
template class ArgMinMaxRows<int, false>;
template class ArgMinMaxRows<unsigned, true>;
template class ArgMinMaxRows<unsigned, false>;

template class CalcAccuracy<unsigned>;
template class CalcAccuracy<int>;

} // namespace popnn
