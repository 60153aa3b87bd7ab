// ConvParams: sizes after each transform, validation, canonical form,
// comparison, hashing and printing.
#include <poplin/ConvParams.hpp>
#include <poplin/ConvUtil.hpp>

#include <poputil/exceptions.hpp>

#include <algorithm>
#include <string>
#include <tuple>

namespace poplin {

using InputTransform = ConvParams::InputTransform;
using OutputTransform = ConvParams::OutputTransform;

namespace {

auto tieOf(const InputTransform &t) {
  return std::tie(t.truncationLower, t.truncationUpper, t.dilation,
                  t.paddingLower, t.paddingUpper, t.flip);
}
auto tieOf(const OutputTransform &t) {
  return std::tie(t.truncationLower, t.truncationUpper, t.stride,
                  t.paddingLower, t.paddingUpper);
}
// poplar::Type has no ordering; its name orders it.
auto tieOf(const ConvParams &p) {
  return std::make_tuple(
      std::string(p.inputType.toString()), std::string(p.outputType.toString()),
      p.batchSize, std::cref(p.inputFieldShape), std::cref(p.kernelShape),
      p.inputChannelsPerConvGroup, p.outputChannelsPerConvGroup,
      p.numConvGroups, std::cref(p.inputTransform),
      std::cref(p.kernelTransform), std::cref(p.outputTransform));
}

// The size of `size` elements after truncation, dilation and padding.
unsigned transformedSize(std::size_t size, const InputTransform &t,
                         unsigned dim) {
  const std::size_t truncated =
      size - std::min<std::size_t>(size, std::size_t(t.truncationLower[dim]) +
                                             t.truncationUpper[dim]);
  const std::size_t dilated =
      truncated == 0 ? 0 : (truncated - 1) * t.dilation[dim] + 1;
  return static_cast<unsigned>(dilated + t.paddingLower[dim] +
                               t.paddingUpper[dim]);
}

template <class T>
void printContainer(std::ostream &os, const std::vector<T> &v) {
  os << "{";
  for (std::size_t i = 0; i != v.size(); ++i)
    os << (i ? "," : "") << v[i];
  os << "}";
}

void hashCombine(std::size_t &seed, std::size_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}
template <class T> void hashRange(std::size_t &seed, const std::vector<T> &v) {
  for (const auto &x : v)
    hashCombine(seed, std::hash<T>()(x));
}

} // namespace

bool operator<(const InputTransform &a, const InputTransform &b) {
  return tieOf(a) < tieOf(b);
}
bool operator==(const InputTransform &a, const InputTransform &b) {
  return tieOf(a) == tieOf(b);
}
bool operator!=(const InputTransform &a, const InputTransform &b) {
  return !(a == b);
}
bool operator<(const OutputTransform &a, const OutputTransform &b) {
  return tieOf(a) < tieOf(b);
}
bool operator==(const OutputTransform &a, const OutputTransform &b) {
  return tieOf(a) == tieOf(b);
}
bool operator!=(const OutputTransform &a, const OutputTransform &b) {
  return !(a == b);
}
bool operator<(const ConvParams &a, const ConvParams &b) {
  return tieOf(a) < tieOf(b);
}
bool operator==(const ConvParams &a, const ConvParams &b) {
  return tieOf(a) == tieOf(b);
}
bool operator!=(const ConvParams &a, const ConvParams &b) { return !(a == b); }

InputTransform::InputTransform(std::size_t size)
    : truncationLower(size, 0), truncationUpper(size, 0), dilation(size, 1),
      paddingLower(size, 0), paddingUpper(size, 0), flip(size, false) {}

InputTransform::InputTransform(std::vector<unsigned> truncationLower_,
                               std::vector<unsigned> truncationUpper_,
                               std::vector<unsigned> dilation_,
                               std::vector<unsigned> paddingLower_,
                               std::vector<unsigned> paddingUpper_,
                               std::vector<bool> flip_)
    : truncationLower(std::move(truncationLower_)),
      truncationUpper(std::move(truncationUpper_)),
      dilation(std::move(dilation_)), paddingLower(std::move(paddingLower_)),
      paddingUpper(std::move(paddingUpper_)), flip(std::move(flip_)) {}

OutputTransform::OutputTransform(std::size_t size)
    : truncationLower(size, 0), truncationUpper(size, 0), stride(size, 1),
      paddingLower(size, 0), paddingUpper(size, 0) {}

OutputTransform::OutputTransform(std::vector<unsigned> truncationLower_,
                                 std::vector<unsigned> truncationUpper_,
                                 std::vector<unsigned> stride_,
                                 std::vector<unsigned> paddingLower_,
                                 std::vector<unsigned> paddingUpper_)
    : truncationLower(std::move(truncationLower_)),
      truncationUpper(std::move(truncationUpper_)), stride(std::move(stride_)),
      paddingLower(std::move(paddingLower_)),
      paddingUpper(std::move(paddingUpper_)) {}

ConvParams::ConvParams(poplar::Type inputType_, poplar::Type outputType_,
                       std::size_t batchSize_,
                       std::vector<std::size_t> inputFieldShape_,
                       std::vector<std::size_t> kernelShape_,
                       std::size_t inputChannels, std::size_t outputChannels,
                       std::size_t numConvGroups_,
                       InputTransform inputTransform_,
                       InputTransform kernelTransform_,
                       OutputTransform outputTransform_)
    : inputType(inputType_), outputType(outputType_), batchSize(batchSize_),
      inputFieldShape(std::move(inputFieldShape_)),
      kernelShape(std::move(kernelShape_)),
      inputChannelsPerConvGroup(inputChannels),
      outputChannelsPerConvGroup(outputChannels), numConvGroups(numConvGroups_),
      inputTransform(std::move(inputTransform_)),
      kernelTransform(std::move(kernelTransform_)),
      outputTransform(std::move(outputTransform_)) {}

ConvParams::ConvParams(poplar::Type inputType_, poplar::Type outputType_,
                       std::size_t batchSize_,
                       std::vector<std::size_t> inputFieldShape_,
                       std::vector<std::size_t> kernelShape_,
                       std::size_t inputChannels, std::size_t outputChannels,
                       std::size_t numConvGroups_)
    : ConvParams(inputType_, outputType_, batchSize_, inputFieldShape_,
                 std::move(kernelShape_), inputChannels, outputChannels,
                 numConvGroups_, InputTransform(inputFieldShape_.size()),
                 InputTransform(inputFieldShape_.size()),
                 OutputTransform(inputFieldShape_.size())) {}

ConvParams::ConvParams(poplar::Type dataType, std::size_t batchSize_,
                       std::vector<std::size_t> inputFieldShape_,
                       std::vector<std::size_t> kernelShape_,
                       std::size_t inputChannels, std::size_t outputChannels,
                       std::size_t numConvGroups_)
    : ConvParams(dataType, dataType, batchSize_, std::move(inputFieldShape_),
                 std::move(kernelShape_), inputChannels, outputChannels,
                 numConvGroups_) {}

unsigned ConvParams::getTruncatedInputSize(unsigned dim) const {
  const std::size_t cut = std::size_t(inputTransform.truncationLower[dim]) +
                          inputTransform.truncationUpper[dim];
  return static_cast<unsigned>(inputFieldShape[dim] -
                               std::min(cut, inputFieldShape[dim]));
}

unsigned ConvParams::getTruncatedKernelSize(unsigned dim) const {
  const std::size_t cut = std::size_t(kernelTransform.truncationLower[dim]) +
                          kernelTransform.truncationUpper[dim];
  return static_cast<unsigned>(kernelShape[dim] -
                               std::min(cut, kernelShape[dim]));
}

unsigned ConvParams::getTransformedInputSize(unsigned dim) const {
  return transformedSize(inputFieldShape[dim], inputTransform, dim);
}

unsigned ConvParams::getTransformedKernelSize(unsigned dim) const {
  return transformedSize(kernelShape[dim], kernelTransform, dim);
}

std::size_t ConvParams::getUntransformedOutputSize(unsigned dim) const {
  const std::size_t in = getTransformedInputSize(dim);
  const std::size_t k = getTransformedKernelSize(dim);
  return in >= k ? in + 1 - k : 0;
}

std::size_t ConvParams::getOutputSize(unsigned dim) const {
  const std::size_t conv = getUntransformedOutputSize(dim);
  const std::size_t cut = std::size_t(outputTransform.truncationLower[dim]) +
                          outputTransform.truncationUpper[dim];
  const std::size_t truncated = conv - std::min(cut, conv);
  const std::size_t stride = outputTransform.stride[dim];
  return (truncated + stride - 1) / stride + outputTransform.paddingLower[dim] +
         outputTransform.paddingUpper[dim];
}

std::vector<std::size_t> ConvParams::getOutputFieldShape() const {
  std::vector<std::size_t> shape;
  for (unsigned d = 0; d != getNumFieldDims(); ++d)
    shape.push_back(getOutputSize(d));
  return shape;
}

void ConvParams::validate() const {
  using poputil::poplibs_error;
  const std::size_t dims = inputFieldShape.size();
  if (kernelShape.size() != dims)
    throw poplibs_error("poplin::ConvParams: the kernel shape has " +
                        std::to_string(kernelShape.size()) +
                        " dimensions but the input field has " +
                        std::to_string(dims));
  if (numConvGroups == 0)
    throw poplibs_error("poplin::ConvParams: numConvGroups must be non-zero");
  const std::pair<std::size_t, const char *> sizes[] = {
      {inputTransform.truncationLower.size(), "input truncation (lower)"},
      {inputTransform.truncationUpper.size(), "input truncation (upper)"},
      {inputTransform.dilation.size(), "input dilation"},
      {inputTransform.paddingLower.size(), "input padding (lower)"},
      {inputTransform.paddingUpper.size(), "input padding (upper)"},
      {inputTransform.flip.size(), "input flip"},
      {kernelTransform.truncationLower.size(), "kernel truncation (lower)"},
      {kernelTransform.truncationUpper.size(), "kernel truncation (upper)"},
      {kernelTransform.dilation.size(), "kernel dilation"},
      {kernelTransform.paddingLower.size(), "kernel padding (lower)"},
      {kernelTransform.paddingUpper.size(), "kernel padding (upper)"},
      {kernelTransform.flip.size(), "kernel flip"},
      {outputTransform.truncationLower.size(), "output truncation (lower)"},
      {outputTransform.truncationUpper.size(), "output truncation (upper)"},
      {outputTransform.stride.size(), "stride"},
      {outputTransform.paddingLower.size(), "output padding (lower)"},
      {outputTransform.paddingUpper.size(), "output padding (upper)"},
  };
  for (const auto &[size, what] : sizes)
    if (size != dims)
      throw poplibs_error(std::string("poplin::ConvParams: the ") + what +
                          " has " + std::to_string(size) +
                          " dimensions but the input field has " +
                          std::to_string(dims));
  for (unsigned d = 0; d != dims; ++d) {
    const std::string where = " in dimension " + std::to_string(d);
    if (outputTransform.stride[d] == 0)
      throw poplibs_error("poplin::ConvParams: the stride" + where +
                          " must be non-zero");
    if (inputTransform.dilation[d] == 0 || kernelTransform.dilation[d] == 0)
      throw poplibs_error("poplin::ConvParams: the dilation" + where +
                          " must be non-zero (1 is no dilation)");
    if (std::size_t(inputTransform.truncationLower[d]) +
            inputTransform.truncationUpper[d] >
        inputFieldShape[d])
      throw poplibs_error("poplin::ConvParams: the input truncation" + where +
                          " exceeds the field size " +
                          std::to_string(inputFieldShape[d]));
    if (std::size_t(kernelTransform.truncationLower[d]) +
            kernelTransform.truncationUpper[d] >
        kernelShape[d])
      throw poplibs_error("poplin::ConvParams: the kernel truncation" + where +
                          " exceeds the kernel size " +
                          std::to_string(kernelShape[d]));
    const unsigned in = getTransformedInputSize(d);
    const unsigned k = getTransformedKernelSize(d);
    if (k == 0)
      throw poplibs_error("poplin::ConvParams: the transformed kernel" + where +
                          " has size zero");
    if (in < k)
      throw poplibs_error("poplin::ConvParams: the transformed input size " +
                          std::to_string(in) + where +
                          " is less than the transformed kernel size " +
                          std::to_string(k));
    if (std::size_t(outputTransform.truncationLower[d]) +
            outputTransform.truncationUpper[d] >
        getUntransformedOutputSize(d))
      throw poplibs_error("poplin::ConvParams: the output truncation" + where +
                          " exceeds the convolution's result size " +
                          std::to_string(getUntransformedOutputSize(d)));
  }
}

std::ostream &operator<<(std::ostream &os, const ConvParams &p) {
  const auto line = [&](const char *name) -> std::ostream & {
    return os << name;
  };
  line("Params: inputType                  ") << p.inputType << "\n";
  line("        outputType                 ") << p.outputType << "\n";
  line("        batchSize                  ") << p.batchSize << "\n";
  line("        numConvGroups              ") << p.numConvGroups << "\n";
  const auto vec = [&](const char *name, const auto &v) {
    os << name;
    printContainer(os, v);
    os << "\n";
  };
  vec("        inputFieldShape            ", p.inputFieldShape);
  vec("        kernelShape                ", p.kernelShape);
  line("        inputChannelsPerConvGroup  ")
      << p.getNumInputChansPerConvGroup() << "\n";
  line("        outputChannelsPerConvGroup ")
      << p.getNumOutputChansPerConvGroup() << "\n";
  vec("        inputTruncationLower       ", p.inputTransform.truncationLower);
  vec("        inputTruncationUpper       ", p.inputTransform.truncationUpper);
  vec("        inputDilation              ", p.inputTransform.dilation);
  vec("        inputPaddingLower          ", p.inputTransform.paddingLower);
  vec("        inputPaddingUpper          ", p.inputTransform.paddingUpper);
  vec("        flipInput                  ", p.inputTransform.flip);
  vec("        kernelTruncationLower      ", p.kernelTransform.truncationLower);
  vec("        kernelTruncationUpper      ", p.kernelTransform.truncationUpper);
  vec("        kernelDilation             ", p.kernelTransform.dilation);
  vec("        kernelPaddingLower         ", p.kernelTransform.paddingLower);
  vec("        kernelPaddingUpper         ", p.kernelTransform.paddingUpper);
  vec("        flipKernel                 ", p.kernelTransform.flip);
  vec("        outputTruncationLower      ", p.outputTransform.truncationLower);
  vec("        outputTruncationUpper      ", p.outputTransform.truncationUpper);
  vec("        stride                     ", p.outputTransform.stride);
  vec("        outputPaddingLower         ", p.outputTransform.paddingLower);
  vec("        outputPaddingUpper         ", p.outputTransform.paddingUpper);
  vec("        outputFieldShape           ", p.getOutputFieldShape());
  return os;
}

std::size_t hash_value(const InputTransform &it) {
  return std::hash<InputTransform>()(it);
}
std::size_t hash_value(const OutputTransform &ot) {
  return std::hash<OutputTransform>()(ot);
}

// The input gradient of y = conv(x', w') (x', w' the transformed input and
// kernel) is a "full" convolution of the output gradient, restored to the
// size of the convolution's result, with the flipped kernel: the output
// transform is undone on the gradient (its padding truncated, its stride
// turned into dilation, its truncation into padding, with the kernel size
// minus one more padding each side), and the input transform is undone on
// the result (padding truncated, dilation turned into stride, truncation
// into padding). Flipping the forward weights reverses the kernel's
// truncation and padding, so their lower and upper amounts swap; a flipped
// forward input is handled by flipping both operands of the gradient
// convolution.
ConvParams getGradientParams(const ConvParams &fwd) {
  fwd.validate();
  const ConvParams p = fwd.canonicalize();
  const std::size_t dims = p.getNumFieldDims();
  ConvParams bwd = p;
  bwd.inputFieldShape = p.getOutputFieldShape();
  bwd.inputChannelsPerConvGroup = p.outputChannelsPerConvGroup;
  bwd.outputChannelsPerConvGroup = p.inputChannelsPerConvGroup;
  for (unsigned d = 0; d != dims; ++d) {
    const unsigned kernel = p.getTransformedKernelSize(d);
    const auto &it = p.inputTransform;
    const auto &kt = p.kernelTransform;
    const auto &ot = p.outputTransform;
    auto &bi = bwd.inputTransform;
    auto &bk = bwd.kernelTransform;
    auto &bo = bwd.outputTransform;
    bi.truncationLower[d] = ot.paddingLower[d];
    bi.truncationUpper[d] = ot.paddingUpper[d];
    bi.dilation[d] = ot.stride[d];
    bi.paddingLower[d] = ot.truncationLower[d] + kernel - 1;
    bi.paddingUpper[d] = ot.truncationUpper[d] + kernel - 1;
    bi.flip[d] = it.flip[d];
    bk.truncationLower[d] = kt.truncationUpper[d];
    bk.truncationUpper[d] = kt.truncationLower[d];
    bk.paddingLower[d] = kt.paddingUpper[d];
    bk.paddingUpper[d] = kt.paddingLower[d];
    bk.dilation[d] = kt.dilation[d];
    bk.flip[d] = kt.flip[d] != it.flip[d];
    bo.truncationLower[d] = it.paddingLower[d];
    bo.truncationUpper[d] = it.paddingUpper[d];
    bo.stride[d] = it.dilation[d];
    bo.paddingLower[d] = it.truncationLower[d];
    bo.paddingUpper[d] = it.truncationUpper[d];
  }
  return bwd;
}

} // namespace poplin

namespace std {

std::size_t hash<poplin::ConvParams::InputTransform>::operator()(
    const poplin::ConvParams::InputTransform &it) const {
  std::size_t seed = 0;
  poplin::hashRange(seed, it.truncationLower);
  poplin::hashRange(seed, it.truncationUpper);
  poplin::hashRange(seed, it.dilation);
  poplin::hashRange(seed, it.paddingLower);
  poplin::hashRange(seed, it.paddingUpper);
  poplin::hashRange(seed, it.flip);
  return seed;
}

std::size_t hash<poplin::ConvParams::OutputTransform>::operator()(
    const poplin::ConvParams::OutputTransform &ot) const {
  std::size_t seed = 0;
  poplin::hashRange(seed, ot.truncationLower);
  poplin::hashRange(seed, ot.truncationUpper);
  poplin::hashRange(seed, ot.stride);
  poplin::hashRange(seed, ot.paddingLower);
  poplin::hashRange(seed, ot.paddingUpper);
  return seed;
}

std::size_t
hash<poplin::ConvParams>::operator()(const poplin::ConvParams &p) const {
  std::size_t seed = 0;
  poplin::hashCombine(seed, std::hash<std::string>()(p.inputType.toString()));
  poplin::hashCombine(seed, std::hash<std::string>()(p.outputType.toString()));
  poplin::hashCombine(seed, p.batchSize);
  poplin::hashRange(seed, p.inputFieldShape);
  poplin::hashRange(seed, p.kernelShape);
  poplin::hashCombine(seed, p.inputChannelsPerConvGroup);
  poplin::hashCombine(seed, p.outputChannelsPerConvGroup);
  poplin::hashCombine(seed, p.numConvGroups);
  poplin::hashCombine(
      seed, hash<poplin::ConvParams::InputTransform>()(p.inputTransform));
  poplin::hashCombine(
      seed, hash<poplin::ConvParams::InputTransform>()(p.kernelTransform));
  poplin::hashCombine(
      seed, hash<poplin::ConvParams::OutputTransform>()(p.outputTransform));
  return seed;
}

} // namespace std
