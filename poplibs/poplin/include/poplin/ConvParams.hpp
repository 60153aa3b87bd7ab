// The description of a convolution: batch, channels, groups, the field and
// kernel shapes, and the transforms applied to the input, the kernel and
// the output (truncation, dilation, padding, flipping and striding).
//
// Each spatial dimension of the input is truncated, then dilated (zeros
// placed between its elements), then padded with zeros, then flipped; the
// kernel likewise. The transformed kernel slides over the transformed
// input with step one; the result is truncated, strided (every stride-th
// element kept) and padded with zeros to give the output.
#ifndef POPLIN_CONVPARAMS_HPP
#define POPLIN_CONVPARAMS_HPP

#include <poplar/Type.hpp>
#include <poplin/poplin_export.hpp>

#include <cstddef>
#include <functional>
#include <ostream>
#include <vector>

namespace poplin {

struct POPLIN_API ConvParams {
  struct POPLIN_API InputTransform {
    // Elements removed from each end of each spatial dimension, first.
    std::vector<unsigned> truncationLower;
    std::vector<unsigned> truncationUpper;
    // Then (dilation - 1) zeros placed between neighbouring elements.
    std::vector<unsigned> dilation;
    // Then zeros added at each end.
    std::vector<unsigned> paddingLower;
    std::vector<unsigned> paddingUpper;
    // Last, whether the dimension is reversed.
    std::vector<bool> flip;

    InputTransform() = default;
    /// The identity transform of `size` dimensions.
    explicit InputTransform(std::size_t size);
    InputTransform(std::vector<unsigned> truncationLower,
                   std::vector<unsigned> truncationUpper,
                   std::vector<unsigned> dilation,
                   std::vector<unsigned> paddingLower,
                   std::vector<unsigned> paddingUpper, std::vector<bool> flip);
  };

  struct POPLIN_API OutputTransform {
    // Elements removed from each end of the convolution's result, first.
    std::vector<unsigned> truncationLower;
    std::vector<unsigned> truncationUpper;
    // Then every stride-th element kept.
    std::vector<unsigned> stride;
    // Then zeros added at each end.
    std::vector<unsigned> paddingLower;
    std::vector<unsigned> paddingUpper;

    OutputTransform() = default;
    /// The identity transform of `size` dimensions.
    explicit OutputTransform(std::size_t size);
    OutputTransform(std::vector<unsigned> truncationLower,
                    std::vector<unsigned> truncationUpper,
                    std::vector<unsigned> stride,
                    std::vector<unsigned> paddingLower,
                    std::vector<unsigned> paddingUpper);
  };

  poplar::Type inputType;
  poplar::Type outputType;
  std::size_t batchSize = 0;
  std::vector<std::size_t> inputFieldShape;
  std::vector<std::size_t> kernelShape;
  std::size_t inputChannelsPerConvGroup = 0;
  std::size_t outputChannelsPerConvGroup = 0;
  std::size_t numConvGroups = 1;
  InputTransform inputTransform;
  InputTransform kernelTransform;
  OutputTransform outputTransform;

  ConvParams() = default;
  ConvParams(poplar::Type dataType, std::size_t batchSize,
             std::vector<std::size_t> inputFieldShape,
             std::vector<std::size_t> kernelShape, std::size_t inputChannels,
             std::size_t outputChannels, std::size_t numConvGroups);
  ConvParams(poplar::Type inputType, poplar::Type outputType,
             std::size_t batchSize, std::vector<std::size_t> inputFieldShape,
             std::vector<std::size_t> kernelShape, std::size_t inputChannels,
             std::size_t outputChannels, std::size_t numConvGroups);
  ConvParams(poplar::Type inputType, poplar::Type outputType,
             std::size_t batchSize, std::vector<std::size_t> inputFieldShape,
             std::vector<std::size_t> kernelShape, std::size_t inputChannels,
             std::size_t outputChannels, std::size_t numConvGroups,
             InputTransform inputTransform, InputTransform kernelTransform,
             OutputTransform outputTransform);

  /// The size of the convolution's result in `dim` before the output
  /// transform.
  std::size_t getUntransformedOutputSize(unsigned dim) const;
  /// The size of the output in `dim`.
  std::size_t getOutputSize(unsigned dim) const;
  std::size_t getNumOutputChansPerConvGroup() const {
    return outputChannelsPerConvGroup;
  }
  std::size_t getNumOutputChans() const {
    return outputChannelsPerConvGroup * numConvGroups;
  }
  std::size_t getInputSize(unsigned dim) const { return inputFieldShape[dim]; }
  std::size_t getNumInputChansPerConvGroup() const {
    return inputChannelsPerConvGroup;
  }
  std::size_t getNumInputChans() const {
    return inputChannelsPerConvGroup * numConvGroups;
  }
  std::size_t getNumConvGroups() const { return numConvGroups; }
  std::size_t getNumFieldDims() const { return inputFieldShape.size(); }
  std::size_t getBatchSize() const { return batchSize; }

  /// The input's size in `dim` after truncation.
  unsigned getTruncatedInputSize(unsigned dim) const;
  /// The kernel's size in `dim` after truncation.
  unsigned getTruncatedKernelSize(unsigned dim) const;
  /// The input's size in `dim` after its whole transform.
  unsigned getTransformedInputSize(unsigned dim) const;
  /// The kernel's size in `dim` after its whole transform.
  unsigned getTransformedKernelSize(unsigned dim) const;
  /// The output's field shape.
  std::vector<std::size_t> getOutputFieldShape() const;

  /// Throws poputil::poplibs_error when the parameters are inconsistent,
  /// naming what is wrong.
  void validate() const;
  /// The same convolution in a canonical form: outputs with no non-zero
  /// term become output padding, result elements the stride skips are
  /// truncated, input and kernel elements no output uses are truncated
  /// (their place kept by padding), padding that cancels (input against
  /// kernel, input against output truncation) is removed, and striding of
  /// one element and dilation or flipping of one-element fields dropped.
  /// A convolution whose output is all zeros becomes the zero
  /// convolution of the same shapes.
  ConvParams canonicalize() const;
};

POPLIN_API bool operator<(const ConvParams::InputTransform &a,
                          const ConvParams::InputTransform &b);
POPLIN_API bool operator==(const ConvParams::InputTransform &a,
                           const ConvParams::InputTransform &b);
POPLIN_API bool operator!=(const ConvParams::InputTransform &a,
                           const ConvParams::InputTransform &b);
POPLIN_API bool operator<(const ConvParams::OutputTransform &a,
                          const ConvParams::OutputTransform &b);
POPLIN_API bool operator==(const ConvParams::OutputTransform &a,
                           const ConvParams::OutputTransform &b);
POPLIN_API bool operator!=(const ConvParams::OutputTransform &a,
                           const ConvParams::OutputTransform &b);
POPLIN_API bool operator<(const ConvParams &a, const ConvParams &b);
POPLIN_API bool operator==(const ConvParams &a, const ConvParams &b);
POPLIN_API bool operator!=(const ConvParams &a, const ConvParams &b);

/// Prints every field, one a line, as "Params: inputType  FLOAT" and so on.
POPLIN_API std::ostream &operator<<(std::ostream &os, const ConvParams &p);

POPLIN_API std::size_t hash_value(const ConvParams::InputTransform &it);
POPLIN_API std::size_t hash_value(const ConvParams::OutputTransform &ot);

} // namespace poplin

namespace std {

template <> struct POPLIN_API hash<poplin::ConvParams::InputTransform> {
  std::size_t operator()(const poplin::ConvParams::InputTransform &it) const;
};

template <> struct POPLIN_API hash<poplin::ConvParams::OutputTransform> {
  std::size_t operator()(const poplin::ConvParams::OutputTransform &ot) const;
};

template <> struct POPLIN_API hash<poplin::ConvParams> {
  std::size_t operator()(const poplin::ConvParams &params) const;
};

} // namespace std

#endif // POPLIN_CONVPARAMS_HPP
