// Helpers on ConvParams: the parameters of the passes of training, and the
// index arithmetic of one field dimension (which input element an output
// element reads through a kernel element). Indices without a counterpart
// (padding, dilation's inserted zeros, truncated elements) give ~0u; ranges
// are [begin, end), empty when nothing takes part.
#ifndef POPLIN_CONVUTIL_HPP
#define POPLIN_CONVUTIL_HPP

#include <poplin/ConvParams.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/poplin_export.hpp>

#include <utility>

namespace poplin {

/// The size of a field of `size` elements with dilation - 1 zeros between
/// neighbours.
POPLIN_API unsigned getDilatedSize(unsigned size, unsigned dilation);

/// The input index output element outputIndex reads through kernel element
/// kernelIndex, in dimension dim; ~0u if it reads none.
POPLIN_API unsigned getInputIndex(unsigned dim, unsigned outputIndex,
                                  unsigned kernelIndex,
                                  const ConvParams &params);
/// The kernel index through which output element outputIndex reads input
/// element inputIndex; ~0u if it does not read it.
POPLIN_API unsigned getKernelIndex(unsigned dim, unsigned outputIndex,
                                   unsigned inputIndex,
                                   const ConvParams &params);

/// The part of outputRange whose elements read an input through
/// kernelIndex (or any index of kernelIndexRange).
POPLIN_API std::pair<unsigned, unsigned>
getOutputRangeForKernelIndex(unsigned dim,
                             std::pair<unsigned, unsigned> outputRange,
                             unsigned kernelIndex, const ConvParams &params);
POPLIN_API std::pair<unsigned, unsigned> getOutputRangeForKernelRange(
    unsigned dim, std::pair<unsigned, unsigned> outputRange,
    std::pair<unsigned, unsigned> kernelIndexRange, const ConvParams &params);
/// The part of outputRange whose elements read inputIndex (or any index of
/// inputRange).
POPLIN_API std::pair<unsigned, unsigned>
getOutputRangeForInputIndex(unsigned dim,
                            std::pair<unsigned, unsigned> outputRange,
                            unsigned inputIndex, const ConvParams &params);
POPLIN_API std::pair<unsigned, unsigned> getOutputRangeForInputRange(
    unsigned dim, std::pair<unsigned, unsigned> outputRange,
    std::pair<unsigned, unsigned> inputRange, const ConvParams &params);

/// The input indices the outputs of outputRange read through kernelIndex
/// (or the indices of kernelIndexRange).
POPLIN_API std::pair<unsigned, unsigned>
getInputRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
              unsigned kernelIndex, const ConvParams &params);
POPLIN_API std::pair<unsigned, unsigned>
getInputRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
              std::pair<unsigned, unsigned> kernelIndexRange,
              const ConvParams &params);
/// The kernel indices through which the outputs of outputRange read
/// inputIndex (or the indices of inputRange).
POPLIN_API std::pair<unsigned, unsigned>
getKernelRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
               unsigned inputIndex, const ConvParams &params);
POPLIN_API std::pair<unsigned, unsigned>
getKernelRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
               std::pair<unsigned, unsigned> inputRange,
               const ConvParams &params);

inline std::pair<unsigned, unsigned>
getInputRange(unsigned dim, unsigned outputIndex,
              std::pair<unsigned, unsigned> kernelIndexRange,
              const ConvParams &params) {
  return getInputRange(dim, std::make_pair(outputIndex, outputIndex + 1),
                       kernelIndexRange, params);
}
inline std::pair<unsigned, unsigned>
getInputRange(unsigned dim, unsigned outputIndex, const ConvParams &params) {
  return getInputRange(
      dim, outputIndex,
      std::make_pair(0u, static_cast<unsigned>(params.kernelShape[dim])),
      params);
}
inline std::pair<unsigned, unsigned>
getInputRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
              const ConvParams &params) {
  return getInputRange(
      dim, outputRange,
      std::make_pair(0u, static_cast<unsigned>(params.kernelShape[dim])),
      params);
}

/// The params of the convolution that takes the output gradient of the
/// convolution `params` describes to its input gradient, to be run with
/// transposeAndFlipWeights = true on the forward weights. Its input is the
/// forward output ([B, outChans, outField...]) and its output has the
/// forward input's shape.
POPLIN_API ConvParams getGradientParams(const ConvParams &params);

/// The params of the convolution that gives the weight deltas of the
/// convolution `params` describes: its input is the forward input with
/// batch and channels exchanged ([inChans, B * groups, field...]), its
/// kernel the output gradient ([groups, outChans, B, outField...]), and its
/// output ([inChans, groups * outChans, kernel...]) the weight deltas with
/// their input channels outermost.
POPLIN_API ConvParams getWeightUpdateParams(const ConvParams &fwdParams);

} // namespace poplin

#endif // POPLIN_CONVUTIL_HPP
