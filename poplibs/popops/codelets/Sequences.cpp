// SequenceSlice (popops::sequenceSlice) and Histogram
// (popops::histogram). Single-worker vertices.
#include <poplar/Vertex.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace popops {

/// dst[dstOffset[i] + r] = src[srcOffset[i] + r] for r < nElements[i], for
/// each entry i up to the first with nElements 0; rows out of either range
/// are skipped. With zeroUnused, rows of dst no entry writes become 0.
/// The rows are the columns one tile holds.
template <class T> class SequenceSlice : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<unsigned>> srcOffset;
  poplar::Input<poplar::Vector<unsigned>> dstOffset;
  poplar::Input<poplar::Vector<unsigned>> nElements;
  poplar::Vector<poplar::Input<poplar::Vector<T>>> src;
  poplar::Vector<poplar::InOut<poplar::Vector<T>>> dst;
  bool zeroUnused;

  bool compute() {
    std::vector<bool> written(dst.size(), false);
    for (unsigned i = 0; i < nElements.size(); ++i) {
      const unsigned n = nElements[i];
      if (n == 0)
        break;
      for (unsigned r = 0; r < n; ++r) {
        const unsigned long long s = 0ull + srcOffset[i] + r;
        const unsigned long long d = 0ull + dstOffset[i] + r;
        if (s >= src.size() || d >= dst.size())
          continue;
        std::copy(src[s].begin(), src[s].end(), dst[d].begin());
        written[d] = true;
      }
    }
    if (zeroUnused)
      for (unsigned d = 0; d < dst.size(); ++d)
        if (!written[d])
          std::fill(dst[d].begin(), dst[d].end(), T(0));
    return true;
  }
};
template class SequenceSlice<float>;
template class SequenceSlice<half>;
template class SequenceSlice<int>;
template class SequenceSlice<unsigned>;

/// Counts of the data in the bins the (ascending) levels bound: bin 0 for
/// x < levels[0], bin i for levels[i-1] <= x < levels[i], the last for
/// x >= levels[N-1]; with `absolute`, |x| is counted. NaN counts in bin 0.
template <class T, class OutT> class Histogram : public poplar::Vertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> data;
  poplar::Input<poplar::Vector<T>> levels;
  poplar::Output<poplar::Vector<OutT>> histogram;
  bool absolute;

  bool compute() {
    const unsigned n = levels.size();
    std::vector<float> bounds(n);
    for (unsigned i = 0; i < n; ++i)
      bounds[i] = float(levels[i]);
    std::vector<unsigned> counts(n + 1, 0);
    for (unsigned r = 0; r < data.size(); ++r)
      for (const auto &element : data[r]) {
        float x = float(element);
        if (absolute)
          x = std::fabs(x);
        // The number of levels <= x (0 for NaN).
        const auto bin =
            std::upper_bound(bounds.begin(), bounds.end(), x,
                             [](float v, float l) { return !(l <= v); }) -
            bounds.begin();
        ++counts[x == x ? bin : 0];
      }
    for (unsigned i = 0; i <= n; ++i)
      histogram[i] = OutT(counts[i]);
    return true;
  }
};
template class Histogram<float, unsigned>;
template class Histogram<half, unsigned>;
template class Histogram<float, float>;
template class Histogram<half, float>;

} // namespace popops
