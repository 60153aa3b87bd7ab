// Index arithmetic on ConvParams, one field dimension at a time: which
// input element an output element reads through a kernel element, and the
// ranges of each that take part. Every transform is a map from positions
// of the transformed field to the original's (or to an inserted zero).
#include <poplin/ConvUtil.hpp>

#include <poputil/exceptions.hpp>

#include <algorithm>
#include <string>

namespace poplin {
namespace {

constexpr unsigned none = ~0u;

struct FieldTransform {
  unsigned size, truncLower, truncUpper, dilation, padLower, padUpper;
  bool flip;

  unsigned dilatedSize() const {
    const unsigned kept =
        size > truncLower + truncUpper ? size - truncLower - truncUpper : 0;
    return getDilatedSize(kept, dilation);
  }
  unsigned transformedSize() const {
    return dilatedSize() + padLower + padUpper;
  }
  // The transformed position of index i, or none if truncated away.
  unsigned forward(unsigned i) const {
    if (i < truncLower || i >= size - std::min(size, truncUpper))
      return none;
    const unsigned j = (i - truncLower) * dilation + padLower;
    return flip ? transformedSize() - 1 - j : j;
  }
  // The index at transformed position j, or none for an inserted zero.
  unsigned backward(long j) const {
    if (j < 0 || j >= long(transformedSize()))
      return none;
    long k = flip ? long(transformedSize()) - 1 - j : j;
    k -= padLower;
    if (k < 0 || k >= long(dilatedSize()) || k % dilation != 0)
      return none;
    return unsigned(k / dilation) + truncLower;
  }
};

void checkDim(unsigned dim, const ConvParams &params, const char *fn) {
  if (dim >= params.getNumFieldDims())
    throw poputil::poplibs_error(std::string("poplin::") + fn + ": dimension " +
                                 std::to_string(dim) +
                                 " is out of range for a convolution of " +
                                 std::to_string(params.getNumFieldDims()) +
                                 " field dimensions");
}

FieldTransform inputOf(unsigned d, const ConvParams &p) {
  const auto &t = p.inputTransform;
  return {unsigned(p.inputFieldShape[d]), t.truncationLower[d],
          t.truncationUpper[d],           t.dilation[d],
          t.paddingLower[d],              t.paddingUpper[d],
          t.flip[d]};
}

FieldTransform kernelOf(unsigned d, const ConvParams &p) {
  const auto &t = p.kernelTransform;
  return {unsigned(p.kernelShape[d]), t.truncationLower[d],
          t.truncationUpper[d],       t.dilation[d],
          t.paddingLower[d],          t.paddingUpper[d],
          t.flip[d]};
}

// The position in the convolution's result of output index o, or -1 for
// output padding (or an index beyond the output).
long resultPosition(unsigned d, unsigned o, const ConvParams &p) {
  const auto &t = p.outputTransform;
  const std::size_t size = p.getOutputSize(d);
  if (o >= size || o < t.paddingLower[d] || o >= size - t.paddingUpper[d])
    return -1;
  return long(o - t.paddingLower[d]) * t.stride[d] + t.truncationLower[d];
}

// [begin, end) of the indices in [range.first, range.second) for which
// valid(i) holds; {first, first} when none does.
template <class F>
std::pair<unsigned, unsigned> span(std::pair<unsigned, unsigned> range,
                                   F valid) {
  unsigned lo = none, hi = 0;
  for (unsigned i = range.first; i < range.second; ++i)
    if (valid(i)) {
      lo = std::min(lo, i);
      hi = i + 1;
    }
  return lo == none ? std::make_pair(range.first, range.first)
                    : std::make_pair(lo, hi);
}

// The smallest range holding every value f(i) != none for i in range.
template <class F>
std::pair<unsigned, unsigned> image(std::pair<unsigned, unsigned> range, F f) {
  unsigned lo = none, hi = 0;
  for (unsigned i = range.first; i < range.second; ++i) {
    const unsigned v = f(i);
    if (v != none) {
      lo = std::min(lo, v);
      hi = std::max(hi, v + 1);
    }
  }
  return lo == none ? std::make_pair(0u, 0u) : std::make_pair(lo, hi);
}

} // namespace

unsigned getDilatedSize(unsigned size, unsigned dilation) {
  return size == 0 ? 0 : 1 + (size - 1) * dilation;
}

unsigned getInputIndex(unsigned dim, unsigned outputIndex, unsigned kernelIndex,
                       const ConvParams &params) {
  checkDim(dim, params, "getInputIndex");
  const long pos = resultPosition(dim, outputIndex, params);
  const unsigned k = kernelOf(dim, params).forward(kernelIndex);
  if (pos < 0 || k == none)
    return none;
  return inputOf(dim, params).backward(pos + long(k));
}

unsigned getKernelIndex(unsigned dim, unsigned outputIndex, unsigned inputIndex,
                        const ConvParams &params) {
  checkDim(dim, params, "getKernelIndex");
  const long pos = resultPosition(dim, outputIndex, params);
  const unsigned i = inputOf(dim, params).forward(inputIndex);
  if (pos < 0 || i == none)
    return none;
  return kernelOf(dim, params).backward(long(i) - pos);
}

std::pair<unsigned, unsigned>
getOutputRangeForKernelIndex(unsigned dim,
                             std::pair<unsigned, unsigned> outputRange,
                             unsigned kernelIndex, const ConvParams &params) {
  return span(outputRange, [&](unsigned o) {
    return getInputIndex(dim, o, kernelIndex, params) != none;
  });
}

std::pair<unsigned, unsigned>
getOutputRangeForInputIndex(unsigned dim,
                            std::pair<unsigned, unsigned> outputRange,
                            unsigned inputIndex, const ConvParams &params) {
  return span(outputRange, [&](unsigned o) {
    return getKernelIndex(dim, o, inputIndex, params) != none;
  });
}

std::pair<unsigned, unsigned>
getOutputRangeForKernelRange(unsigned dim,
                             std::pair<unsigned, unsigned> outputRange,
                             std::pair<unsigned, unsigned> kernelIndexRange,
                             const ConvParams &params) {
  return span(outputRange, [&](unsigned o) {
    for (unsigned k = kernelIndexRange.first; k < kernelIndexRange.second; ++k)
      if (getInputIndex(dim, o, k, params) != none)
        return true;
    return false;
  });
}

std::pair<unsigned, unsigned>
getOutputRangeForInputRange(unsigned dim,
                            std::pair<unsigned, unsigned> outputRange,
                            std::pair<unsigned, unsigned> inputRange,
                            const ConvParams &params) {
  return span(outputRange, [&](unsigned o) {
    for (unsigned i = inputRange.first; i < inputRange.second; ++i)
      if (getKernelIndex(dim, o, i, params) != none)
        return true;
    return false;
  });
}

std::pair<unsigned, unsigned>
getInputRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
              unsigned kernelIndex, const ConvParams &params) {
  return image(outputRange, [&](unsigned o) {
    return getInputIndex(dim, o, kernelIndex, params);
  });
}

std::pair<unsigned, unsigned>
getKernelRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
               unsigned inputIndex, const ConvParams &params) {
  return image(outputRange, [&](unsigned o) {
    return getKernelIndex(dim, o, inputIndex, params);
  });
}

std::pair<unsigned, unsigned>
getInputRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
              std::pair<unsigned, unsigned> kernelIndexRange,
              const ConvParams &params) {
  std::pair<unsigned, unsigned> r(none, 0);
  for (unsigned k = kernelIndexRange.first; k < kernelIndexRange.second; ++k) {
    const auto one = getInputRange(dim, outputRange, k, params);
    if (one.first != one.second)
      r = {std::min(r.first, one.first), std::max(r.second, one.second)};
  }
  return r.first == none ? std::make_pair(0u, 0u) : r;
}

std::pair<unsigned, unsigned>
getKernelRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
               std::pair<unsigned, unsigned> inputRange,
               const ConvParams &params) {
  std::pair<unsigned, unsigned> r(none, 0);
  for (unsigned i = inputRange.first; i < inputRange.second; ++i) {
    const auto one = getKernelRange(dim, outputRange, i, params);
    if (one.first != one.second)
      r = {std::min(r.first, one.first), std::max(r.second, one.second)};
  }
  return r.first == none ? std::make_pair(0u, 0u) : r;
}

// The weight deltas dW = sum over outputs of dY x X': a convolution whose
// input is the forward input (the same transform; its batch is the forward
// input channels and its channels the forward batch), whose kernel is the
// output gradient with the output transform undone (padding truncated,
// stride turned into dilation, truncation into padding), and whose result,
// of the transformed kernel's size, has the kernel transform undone
// (padding truncated, dilation turned into stride, truncation into
// padding). A flipped forward kernel is handled by flipping both operands,
// which flips the result.
ConvParams getWeightUpdateParams(const ConvParams &fwd) {
  fwd.validate();
  const ConvParams p = fwd.canonicalize();
  const std::size_t dims = p.getNumFieldDims();
  ConvParams wu = p;
  wu.batchSize = p.inputChannelsPerConvGroup;
  wu.inputChannelsPerConvGroup = p.batchSize;
  wu.outputChannelsPerConvGroup = p.outputChannelsPerConvGroup;
  wu.kernelShape = p.getOutputFieldShape();
  for (unsigned d = 0; d != dims; ++d) {
    const auto &kt = p.kernelTransform;
    const auto &ot = p.outputTransform;
    auto &wi = wu.inputTransform;
    auto &wk = wu.kernelTransform;
    auto &wo = wu.outputTransform;
    wi.flip[d] = p.inputTransform.flip[d] != kt.flip[d];
    wk.truncationLower[d] = ot.paddingLower[d];
    wk.truncationUpper[d] = ot.paddingUpper[d];
    wk.dilation[d] = ot.stride[d];
    wk.paddingLower[d] = ot.truncationLower[d];
    wk.paddingUpper[d] = ot.truncationUpper[d];
    wk.flip[d] = kt.flip[d];
    wo.truncationLower[d] = kt.paddingLower[d];
    wo.truncationUpper[d] = kt.paddingUpper[d];
    wo.stride[d] = kt.dilation[d];
    wo.paddingLower[d] = kt.truncationLower[d];
    wo.paddingUpper[d] = kt.truncationUpper[d];
  }
  return wu;
}

} // namespace poplin
