#include "ops/MelWeightMatrixOp.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

#include <cmath>

namespace popart {

MelWeightMatrixOp::MelWeightMatrixOp(const OperatorIdentifier &id,
                                     const Op::Settings &settings,
                                     const Attributes &a)
    : Op(id, settings),
      dtype(onnxToPopartType(static_cast<int>(a.getInt("output_datatype", 1)))) {}

void MelWeightMatrixOp::setup() {
  const char *why = "input (which fixes the matrix)";
  const int64_t mels = constInputInts(0, why).at(0);
  const int64_t dftLength = constInputInts(1, why).at(0);
  const int64_t sampleRate = constInputInts(2, why).at(0);
  const double lower = constInputValues(3, why).at(0);
  const double upper = constInputValues(4, why).at(0);
  if (mels < 1 || dftLength < 1 || sampleRate < 1 || lower < 0 ||
      upper <= lower)
    throw error("{}: num_mel_bins {}, dft_length {}, sample_rate {} and the "
                "edges {} and {} Hz do not make filters",
                str(), mels, dftLength, sampleRate, lower, upper);
  const int64_t bins = dftLength / 2 + 1;
  // The filters' edges: mel-spaced, as spectrogram bins.
  auto toMel = [](double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); };
  // The edges are spaced by the span / (num_mel_bins + 2), as ONNX's
  // reference has it.
  const double low = toMel(lower), step = (toMel(upper) - low) / double(mels + 2);
  std::vector<int64_t> edges;
  for (int64_t i = 0; i < mels + 2; ++i) {
    const double hz = 700.0 * (std::pow(10.0, (low + double(i) * step) / 2595.0) - 1.0);
    edges.push_back(int64_t(std::floor(double(dftLength + 1) * hz / double(sampleRate))));
  }
  weights.assign(std::size_t(bins * mels), 0.0);
  auto at = [&](int64_t bin, int64_t mel) -> double & {
    if (bin < 0 || bin >= bins)
      throw error("{}: a filter edge (bin {}) lies beyond the {} bins", str(),
                  bin, bins);
    return weights[std::size_t(bin * mels + mel)];
  };
  for (int64_t m = 0; m < mels; ++m) {
    const int64_t left = edges[std::size_t(m)], centre = edges[std::size_t(m + 1)],
                  right = edges[std::size_t(m + 2)];
    if (centre == left)
      at(centre, m) = 1.0;
    else
      for (int64_t j = left; j <= centre; ++j)
        at(j, m) = double(j - left) / double(centre - left);
    for (int64_t j = centre; j < right; ++j)
      at(j, m) = double(right - j) / double(right - centre);
  }
  outInfo(0) = TensorInfo(dtype, {bins, mels});
}

std::vector<char> MelWeightMatrixOp::fold() const {
  return fromDoubles(weights, dtype);
}

} // namespace popart
