// The vertices of CTC loss and CTC beam search decoding: one batch entry
// each, over its [maxTime][numClasses] log probabilities (gathered from
// the [maxTime][batch][numClasses] input). Log-space sums throughout, in
// float partials.
#include <poplar/Vertex.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace popnn {
namespace {

constexpr float logZero = -std::numeric_limits<float>::infinity();

// log(exp(a) + exp(b)) without overflow.
inline float logAdd(float a, float b) {
  if (a == logZero)
    return b;
  if (b == logZero)
    return a;
  const float m = std::max(a, b);
  return m + std::log1p(std::exp(-std::fabs(a - b)));
}

// The extended label: blanks around and between the symbols.
inline unsigned extendedSymbol(const unsigned *label, unsigned s,
                               unsigned blank) {
  return (s & 1u) ? label[s / 2] : blank;
}

// Checks lengths and symbols; false for anything out of range.
inline bool validInput(unsigned dataLength, unsigned labelLength,
                       unsigned maxTime, unsigned maxLabel, const unsigned *label,
                       unsigned numClasses, unsigned blank) {
  if (dataLength > maxTime || labelLength > maxLabel)
    return false;
  for (unsigned i = 0; i != labelLength; ++i)
    if (label[i] >= numClasses || label[i] == blank)
      return false;
  return true;
}

// The forward (alpha) or backward (beta) variables of every step,
// [dataLength][2 * labelLength + 1], each including the step's own
// probability.
template <class T>
void ctcVariables(const T *lp, unsigned numClasses, unsigned dataLength,
                  const unsigned *label, unsigned labelLength, unsigned blank,
                  bool backward, std::vector<float> &v) {
  const unsigned S = 2 * labelLength + 1;
  v.assign(std::size_t(dataLength) * S, logZero);
  if (dataLength == 0)
    return;
  auto at = [&](unsigned t, unsigned s) -> float & {
    return v[std::size_t(t) * S + s];
  };
  auto prob = [&](unsigned t, unsigned s) {
    return float(lp[std::size_t(t) * numClasses +
                    extendedSymbol(label, s, blank)]);
  };
  const unsigned t0 = backward ? dataLength - 1 : 0;
  for (unsigned s = 0; s != S; ++s) {
    const bool edge = backward ? s + 2 >= S : s < 2;
    if (edge)
      at(t0, s) = prob(t0, s);
  }
  for (unsigned i = 1; i != dataLength; ++i) {
    const unsigned t = backward ? dataLength - 1 - i : i;
    const unsigned prev = backward ? t + 1 : t - 1;
    for (unsigned s = 0; s != S; ++s) {
      float sum = at(prev, s);
      // Neighbours: s-1, s-2 forwards; s+1, s+2 backwards. Skipping a
      // blank is allowed between different symbols only.
      const int step = backward ? 1 : -1;
      const int n1 = int(s) + step, n2 = int(s) + 2 * step;
      if (n1 >= 0 && n1 < int(S))
        sum = logAdd(sum, at(prev, unsigned(n1)));
      if ((s & 1u) && n2 >= 0 && n2 < int(S) &&
          extendedSymbol(label, unsigned(n2), blank) !=
              extendedSymbol(label, s, blank))
        sum = logAdd(sum, at(prev, unsigned(n2)));
      at(t, s) = sum == logZero ? logZero : sum + prob(t, s);
    }
  }
}

// Negative log likelihood of the label from the forward variables.
inline float negLogLikelihood(const std::vector<float> &alpha,
                              unsigned dataLength, unsigned labelLength) {
  if (dataLength == 0)
    return labelLength == 0 ? 0.0f : std::numeric_limits<float>::infinity();
  const unsigned S = 2 * labelLength + 1;
  const float *last = alpha.data() + std::size_t(dataLength - 1) * S;
  float p = last[S - 1];
  if (S > 1)
    p = logAdd(p, last[S - 2]);
  return -p;
}

} // namespace

// The CTC loss of one batch entry (negative log likelihood of the label).
template <class InType, class OutType>
class CTCLoss : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<InType>> logProbs; // [maxTime * numClasses]
  poplar::Input<poplar::Vector<unsigned>> label;  // [maxLabelLength]
  poplar::Input<unsigned> dataLength;
  poplar::Input<unsigned> labelLength;
  poplar::Output<OutType> loss;
  unsigned numClasses;
  unsigned blankClass;
  bool zeroInfinity;

  bool compute() {
    const unsigned maxTime = logProbs.size() / numClasses;
    if (!validInput(*dataLength, *labelLength, maxTime, label.size(), &label[0],
                    numClasses, blankClass))
      return false;
    std::vector<float> alpha;
    ctcVariables(&logProbs[0], numClasses, *dataLength, &label[0], *labelLength,
                 blankClass, false, alpha);
    float nll = negLogLikelihood(alpha, *dataLength, *labelLength);
    if (zeroInfinity && std::isinf(nll))
      nll = 0.0f;
    *loss = OutType(nll);
    return true;
  }
};

// The loss and its gradient for one batch entry: with respect to the
// logits the log probabilities came from by log softmax
// (includeSoftmaxGradient), or to the log probabilities themselves.
// Steps past the entry's data length get zero gradient.
template <class InType, class OutType>
class CTCLossGradient : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<InType>> logProbs; // [maxTime * numClasses]
  poplar::Input<poplar::Vector<unsigned>> label;  // [maxLabelLength]
  poplar::Input<unsigned> dataLength;
  poplar::Input<unsigned> labelLength;
  poplar::Output<OutType> loss;
  poplar::Output<poplar::Vector<OutType>> gradient; // like logProbs
  unsigned numClasses;
  unsigned blankClass;
  bool zeroInfinity;
  bool includeSoftmaxGradient;

  bool compute() {
    const unsigned C = numClasses, T = *dataLength, L = *labelLength;
    const unsigned maxTime = logProbs.size() / C;
    if (!validInput(T, L, maxTime, label.size(), &label[0], C, blankClass))
      return false;
    std::vector<float> alpha, beta;
    ctcVariables(&logProbs[0], C, T, &label[0], L, blankClass, false, alpha);
    ctcVariables(&logProbs[0], C, T, &label[0], L, blankClass, true, beta);
    const float nll = negLogLikelihood(alpha, T, L);
    const bool zeroed = zeroInfinity && std::isinf(nll);
    *loss = OutType(zeroed ? 0.0f : nll);
    std::fill(&gradient[0], &gradient[0] + gradient.size(), OutType(0.0f));
    if (zeroed || T == 0)
      return true;
    const unsigned S = 2 * L + 1;
    std::vector<float> sums(C);
    for (unsigned t = 0; t != T; ++t) {
      // log sum over the positions of each symbol of alpha * beta / y.
      std::fill(sums.begin(), sums.end(), logZero);
      for (unsigned s = 0; s != S; ++s) {
        const unsigned c = extendedSymbol(&label[0], s, blankClass);
        const std::size_t i = std::size_t(t) * S + s;
        if (alpha[i] != logZero && beta[i] != logZero)
          sums[c] = logAdd(sums[c], alpha[i] + beta[i]);
      }
      for (unsigned c = 0; c != C; ++c) {
        const float lp = float(logProbs[t * C + c]);
        const float occupancy =
            sums[c] == logZero ? 0.0f : std::exp(sums[c] + nll - lp);
        const float g = includeSoftmaxGradient ? std::exp(lp) - occupancy
                                               : -occupancy;
        gradient[t * C + c] = OutType(g);
      }
    }
    return true;
  }
};

// CTC prefix beam search for one batch entry: the topPaths most likely
// labellings (repeats merged, blanks removed) with their log
// probabilities, most likely first.
template <class InType> class CTCBeamSearch : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<InType>> logProbs; // [maxTime * numClasses]
  poplar::Input<unsigned> dataLength;
  poplar::Output<poplar::Vector<InType>> labelProbs;     // [topPaths]
  poplar::Output<poplar::Vector<unsigned>> labelLengths; // [topPaths]
  poplar::Output<poplar::Vector<unsigned>> decodedLabels; // [topPaths*maxTime]
  unsigned numClasses;
  unsigned blankClass;
  unsigned beamWidth;

  struct Beam {
    std::vector<unsigned> prefix;
    float blank = logZero;    // ending in a blank
    float nonBlank = logZero; // ending in the prefix's last symbol
    float total() const { return logAdd(blank, nonBlank); }
  };

  bool compute() {
    const unsigned C = numClasses;
    const unsigned maxTime = logProbs.size() / C;
    const unsigned topPaths = labelProbs.size();
    if (*dataLength > maxTime)
      return false;
    std::vector<Beam> beams(1);
    beams[0].blank = 0.0f;
    std::vector<Beam> next;
    for (unsigned t = 0; t != *dataLength; ++t) {
      const InType *lp = &logProbs[t * C];
      next.clear();
      auto find = [&](const std::vector<unsigned> &prefix) -> Beam & {
        for (auto &b : next)
          if (b.prefix == prefix)
            return b;
        next.push_back(Beam());
        next.back().prefix = prefix;
        return next.back();
      };
      for (const Beam &b : beams) {
        Beam &same = find(b.prefix);
        same.blank = logAdd(same.blank, b.total() + float(lp[blankClass]));
        if (!b.prefix.empty()) {
          const unsigned last = b.prefix.back();
          same.nonBlank = logAdd(same.nonBlank, b.nonBlank + float(lp[last]));
        }
        for (unsigned c = 0; c != C; ++c) {
          if (c == blankClass)
            continue;
          std::vector<unsigned> extended = b.prefix;
          extended.push_back(c);
          // A repeat of the last symbol extends only from a blank.
          const float from = !b.prefix.empty() && b.prefix.back() == c
                                 ? b.blank
                                 : b.total();
          Beam &e = find(extended);
          e.nonBlank = logAdd(e.nonBlank, from + float(lp[c]));
        }
      }
      // Most likely first; equal ones in prefix order, for determinism.
      std::stable_sort(next.begin(), next.end(),
                       [](const Beam &a, const Beam &b) {
                         const float ta = a.total(), tb = b.total();
                         return ta != tb ? ta > tb : a.prefix < b.prefix;
                       });
      if (next.size() > beamWidth)
        next.resize(beamWidth);
      beams.swap(next);
    }
    for (unsigned p = 0; p != topPaths; ++p) {
      const bool have = p < beams.size();
      labelProbs[p] = InType(have ? beams[p].total() : logZero);
      const unsigned n = have ? unsigned(beams[p].prefix.size()) : 0;
      labelLengths[p] = n;
      for (unsigned i = 0; i != maxTime; ++i)
        decodedLabels[p * maxTime + i] = i < n ? beams[p].prefix[i] : 0u;
    }
    return true;
  }
};

template class CTCLoss<float, float>;
template class CTCLoss<half, half>;
template class CTCLoss<half, float>;
template class CTCLoss<float, half>;
template class CTCLossGradient<float, float>;
template class CTCLossGradient<half, half>;
template class CTCLossGradient<half, float>;
template class CTCLossGradient<float, half>;
template class CTCBeamSearch<float>;
template class CTCBeamSearch<half>;

} // namespace popnn
