// A host model of poplin::ConvParams written from the definitions: every
// transform is an index map (transformed position -> source position, or
// none for an inserted zero), and the convolution enumerates every
// (output, input, weight) triple that contributes. The forward, input
// gradient and weight gradient passes are sums over the same triples.
#ifndef POPLIN_TESTS_CONVORACLE_HPP
#define POPLIN_TESTS_CONVORACLE_HPP

#include <poplin/ConvParams.hpp>

#include <cstddef>
#include <functional>
#include <vector>

namespace convoracle {

// Source index of transformed position j, or -1 for a zero.
inline long mapInput(std::size_t size, unsigned tl, unsigned tu, unsigned dil,
                     unsigned pl, unsigned pu, bool flip, long j) {
  const long truncated = long(size) - tl - tu;
  const long dilated = truncated > 0 ? (truncated - 1) * dil + 1 : 0;
  const long total = dilated + pl + pu;
  long jj = flip ? total - 1 - j : j;
  jj -= pl;
  if (jj < 0 || jj >= dilated || jj % dil != 0)
    return -1;
  return jj / dil + tl;
}

// Calls f(outFlat, inFlat, weightFlat) for every contributing triple, with
// out [B][G*Co][outField], in [B][G*Ci][inField], weights
// [G][Co][Ci][kernel].
inline void forEachTriple(
    const poplin::ConvParams &p,
    const std::function<void(std::size_t, std::size_t, std::size_t)> &f) {
  const std::size_t nd = p.getNumFieldDims();
  const auto outShape = p.getOutputFieldShape();
  std::size_t outElems = 1, inElems = 1, kElems = 1;
  for (std::size_t d = 0; d != nd; ++d) {
    outElems *= outShape[d];
    inElems *= p.inputFieldShape[d];
    kElems *= p.kernelShape[d];
  }
  const std::size_t G = p.numConvGroups, Ci = p.inputChannelsPerConvGroup,
                    Co = p.outputChannelsPerConvGroup;
  std::vector<std::size_t> o(nd);
  for (std::size_t of = 0; of != outElems; ++of) {
    // Output index -> position in the convolution's result.
    std::size_t rest = of;
    for (std::size_t d = nd; d-- > 0;) {
      o[d] = rest % outShape[d];
      rest /= outShape[d];
    }
    std::vector<long> pos(nd);
    bool padding = false;
    for (std::size_t d = 0; d != nd; ++d) {
      const auto &ot = p.outputTransform;
      const long conv = long(p.getUntransformedOutputSize(d));
      const long kept = conv - ot.truncationLower[d] - ot.truncationUpper[d];
      const long count =
          kept > 0 ? (kept + ot.stride[d] - 1) / ot.stride[d] : 0;
      const long jj = long(o[d]) - ot.paddingLower[d];
      if (jj < 0 || jj >= count)
        padding = true;
      pos[d] = ot.truncationLower[d] + jj * ot.stride[d];
    }
    if (padding)
      continue;
    // Walk the transformed kernel positions.
    std::vector<std::size_t> kt(nd, 0);
    std::vector<std::size_t> ktSize(nd);
    std::size_t ktElems = 1;
    for (std::size_t d = 0; d != nd; ++d) {
      ktSize[d] = p.getTransformedKernelSize(d);
      ktElems *= ktSize[d];
    }
    for (std::size_t t = 0; t != ktElems; ++t) {
      std::size_t r = t;
      for (std::size_t d = nd; d-- > 0;) {
        kt[d] = r % ktSize[d];
        r /= ktSize[d];
      }
      std::size_t inFlat = 0, kFlat = 0;
      bool zero = false;
      for (std::size_t d = 0; d != nd && !zero; ++d) {
        const auto &it = p.inputTransform;
        const auto &kt2 = p.kernelTransform;
        const long ks = mapInput(p.kernelShape[d], kt2.truncationLower[d],
                                 kt2.truncationUpper[d], kt2.dilation[d],
                                 kt2.paddingLower[d], kt2.paddingUpper[d],
                                 kt2.flip[d], long(kt[d]));
        const long is =
            mapInput(p.inputFieldShape[d], it.truncationLower[d],
                     it.truncationUpper[d], it.dilation[d], it.paddingLower[d],
                     it.paddingUpper[d], it.flip[d], pos[d] + long(kt[d]));
        if (ks < 0 || is < 0) {
          zero = true;
          break;
        }
        inFlat = inFlat * p.inputFieldShape[d] + std::size_t(is);
        kFlat = kFlat * p.kernelShape[d] + std::size_t(ks);
      }
      if (zero)
        continue;
      for (std::size_t b = 0; b != p.batchSize; ++b)
        for (std::size_t g = 0; g != G; ++g)
          for (std::size_t co = 0; co != Co; ++co)
            for (std::size_t ci = 0; ci != Ci; ++ci)
              f(((b * G + g) * Co + co) * outElems + of,
                ((b * G + g) * Ci + ci) * inElems + inFlat,
                ((g * Co + co) * Ci + ci) * kElems + kFlat);
    }
  }
}

inline std::size_t product(const std::vector<std::size_t> &v) {
  std::size_t n = 1;
  for (auto x : v)
    n *= x;
  return n;
}

inline std::size_t outputElems(const poplin::ConvParams &p) {
  return p.batchSize * p.getNumOutputChans() * product(p.getOutputFieldShape());
}
inline std::size_t inputElems(const poplin::ConvParams &p) {
  return p.batchSize * p.getNumInputChans() * product(p.inputFieldShape);
}
inline std::size_t weightElems(const poplin::ConvParams &p) {
  return p.numConvGroups * p.outputChannelsPerConvGroup *
         p.inputChannelsPerConvGroup * product(p.kernelShape);
}

inline std::vector<double> forward(const poplin::ConvParams &p,
                                   const std::vector<float> &in,
                                   const std::vector<float> &w) {
  std::vector<double> out(outputElems(p), 0.0);
  forEachTriple(p, [&](std::size_t o, std::size_t i, std::size_t k) {
    out[o] += double(in[i]) * double(w[k]);
  });
  return out;
}

inline std::vector<double> inputGradient(const poplin::ConvParams &p,
                                         const std::vector<float> &dy,
                                         const std::vector<float> &w) {
  std::vector<double> dx(inputElems(p), 0.0);
  forEachTriple(p, [&](std::size_t o, std::size_t i, std::size_t k) {
    dx[i] += double(dy[o]) * double(w[k]);
  });
  return dx;
}

inline std::vector<double> weightGradient(const poplin::ConvParams &p,
                                          const std::vector<float> &dy,
                                          const std::vector<float> &in) {
  std::vector<double> dw(weightElems(p), 0.0);
  forEachTriple(p, [&](std::size_t o, std::size_t i, std::size_t k) {
    dw[k] += double(dy[o]) * double(in[i]);
  });
  return dw;
}

} // namespace convoracle

#endif // POPLIN_TESTS_CONVORACLE_HPP
