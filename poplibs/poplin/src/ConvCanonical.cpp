// ConvParams::canonicalize: the same convolution with the zeros it would
// compute or read made explicit, so that equal convolutions compare equal
// and later passes see no work that does nothing.
#include <poplin/ConvParams.hpp>

#include <algorithm>
#include <utility>

namespace poplin {
namespace {

// The raw index behind position j of a transformed (truncated, dilated,
// padded, flipped) dimension, or -1 for an inserted zero.
long rawIndex(std::size_t size, const ConvParams::InputTransform &t, unsigned d,
              long j) {
  const long kept = long(size) - t.truncationLower[d] - t.truncationUpper[d];
  const long dilated = kept > 0 ? (kept - 1) * t.dilation[d] + 1 : 0;
  const long total = dilated + t.paddingLower[d] + t.paddingUpper[d];
  long i = t.flip[d] ? total - 1 - j : j;
  i -= t.paddingLower[d];
  if (i < 0 || i >= dilated || i % t.dilation[d] != 0)
    return -1;
  return i / t.dilation[d] + t.truncationLower[d];
}

struct Range {
  long first = -1, last = -1; // inclusive; first == -1 when empty
  void add(long i) {
    first = first < 0 ? i : std::min(first, i);
    last = std::max(last, i);
  }
  bool empty() const { return first < 0; }
};

// Which outputs of dimension d have a non-zero term, and which input and
// kernel elements any output uses.
struct Use {
  Range out, in, kernel;
};

Use usage(const ConvParams &p, unsigned d) {
  Use use;
  const auto &ot = p.outputTransform;
  const long outSize = long(p.getOutputSize(d));
  const long kernelSize = p.getTransformedKernelSize(d);
  const long kept = long(p.getUntransformedOutputSize(d)) -
                    ot.truncationLower[d] - ot.truncationUpper[d];
  const long strided = kept > 0 ? (kept + ot.stride[d] - 1) / ot.stride[d] : 0;
  for (long o = 0; o != outSize; ++o) {
    const long j = o - long(ot.paddingLower[d]);
    if (j < 0 || j >= strided)
      continue;
    const long pos = ot.truncationLower[d] + j * long(ot.stride[d]);
    for (long k = 0; k != kernelSize; ++k) {
      const long ki = rawIndex(p.kernelShape[d], p.kernelTransform, d, k);
      const long ii =
          rawIndex(p.inputFieldShape[d], p.inputTransform, d, pos + k);
      if (ki < 0 || ii < 0)
        continue;
      use.out.add(o);
      use.in.add(ii);
      use.kernel.add(ki);
    }
  }
  return use;
}

// A convolution of the same shapes whose output is all zeros: input and
// kernel truncated to nothing and padded to one element, the one-element
// result truncated away and the output padded to its size.
ConvParams zeroConvolution(const ConvParams &params) {
  ConvParams z = params;
  const auto outShape = params.getOutputFieldShape();
  for (unsigned d = 0; d != params.getNumFieldDims(); ++d) {
    for (auto *t : {&z.inputTransform, &z.kernelTransform}) {
      const std::size_t size = t == &z.inputTransform
                                   ? params.inputFieldShape[d]
                                   : params.kernelShape[d];
      t->truncationLower[d] = 0;
      t->truncationUpper[d] = static_cast<unsigned>(size);
      t->dilation[d] = 1;
      t->paddingLower[d] = 1;
      t->paddingUpper[d] = 0;
      t->flip[d] = false;
    }
    z.outputTransform.truncationLower[d] = 0;
    z.outputTransform.truncationUpper[d] = 1;
    z.outputTransform.stride[d] = 1;
    z.outputTransform.paddingLower[d] = 0;
    z.outputTransform.paddingUpper[d] = static_cast<unsigned>(outShape[d]);
  }
  return z;
}

// Moves ignored elements at the ends of a transformed dimension into its
// truncation, keeping the transformed size with padding (scaled by the
// dilation the truncated elements had).
void truncateIgnored(ConvParams::InputTransform &t, unsigned d,
                     std::size_t size, const Range &used) {
  const unsigned lower = static_cast<unsigned>(used.first);
  const unsigned upper = static_cast<unsigned>(long(size) - 1 - used.last);
  if (lower > t.truncationLower[d]) {
    t.paddingLower[d] += (lower - t.truncationLower[d]) * t.dilation[d];
    t.truncationLower[d] = lower;
  }
  if (upper > t.truncationUpper[d]) {
    t.paddingUpper[d] += (upper - t.truncationUpper[d]) * t.dilation[d];
    t.truncationUpper[d] = upper;
  }
}

} // namespace

ConvParams ConvParams::canonicalize() const {
  validate();
  ConvParams p = *this;
  for (unsigned d = 0; d != getNumFieldDims(); ++d) {
    auto &it = p.inputTransform;
    auto &kt = p.kernelTransform;
    auto &ot = p.outputTransform;
    const std::size_t outSize = p.getOutputSize(d);
    // Outputs with no non-zero term become output padding.
    const Use before = usage(p, d);
    if (before.out.empty())
      return zeroConvolution(p);
    const unsigned zerosLower = static_cast<unsigned>(before.out.first);
    const unsigned zerosUpper =
        static_cast<unsigned>(long(outSize) - 1 - before.out.last);
    if (zerosLower > ot.paddingLower[d]) {
      ot.truncationLower[d] += (zerosLower - ot.paddingLower[d]) * ot.stride[d];
      ot.paddingLower[d] = zerosLower;
    }
    if (zerosUpper > ot.paddingUpper[d]) {
      ot.truncationUpper[d] += (zerosUpper - ot.paddingUpper[d]) * ot.stride[d];
      ot.paddingUpper[d] = zerosUpper;
    }
    // Result elements past the last one the stride keeps are truncated.
    std::size_t kept = p.getUntransformedOutputSize(d) - ot.truncationLower[d] -
                       ot.truncationUpper[d];
    const unsigned ignored = static_cast<unsigned>((kept - 1) % ot.stride[d]);
    ot.truncationUpper[d] += ignored;
    kept -= ignored;
    if (kept == 1)
      ot.stride[d] = 1;
    // Input and kernel elements no output uses are truncated.
    truncateIgnored(it, d, p.inputFieldShape[d], usage(p, d).in);
    truncateIgnored(kt, d, p.kernelShape[d], usage(p, d).kernel);
    // Padding at the same end of the input and the kernel cancels, as
    // does input padding against output truncation.
    unsigned &inLower = it.flip[d] ? it.paddingUpper[d] : it.paddingLower[d];
    unsigned &inUpper = it.flip[d] ? it.paddingLower[d] : it.paddingUpper[d];
    unsigned &kLower = kt.flip[d] ? kt.paddingUpper[d] : kt.paddingLower[d];
    unsigned &kUpper = kt.flip[d] ? kt.paddingLower[d] : kt.paddingUpper[d];
    const unsigned kernelLess = p.getTransformedKernelSize(d) - 1;
    unsigned excess = std::min({inLower, kLower, kernelLess});
    inLower -= excess;
    kLower -= excess;
    excess = std::min({inUpper, kUpper, kernelLess});
    inUpper -= excess;
    kUpper -= excess;
    const unsigned resultLess =
        static_cast<unsigned>(p.getUntransformedOutputSize(d) - 1);
    excess = std::min({inLower, ot.truncationLower[d], resultLess});
    inLower -= excess;
    ot.truncationLower[d] -= excess;
    excess = std::min({inUpper, ot.truncationUpper[d], resultLess});
    inUpper -= excess;
    ot.truncationUpper[d] -= excess;
    // Dilation and flipping of a one-element field do nothing.
    for (auto *t : {&it, &kt}) {
      const std::size_t size =
          t == &it ? p.inputFieldShape[d] : p.kernelShape[d];
      if (size <=
          std::size_t(t->truncationLower[d]) + 1 + t->truncationUpper[d]) {
        t->dilation[d] = 1;
        if (t->flip[d]) {
          t->flip[d] = false;
          std::swap(t->paddingLower[d], t->paddingUpper[d]);
        }
      }
    }
  }
  return p;
}

} // namespace poplin
