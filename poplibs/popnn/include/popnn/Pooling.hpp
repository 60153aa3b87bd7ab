// Pooling over the spatial (field) dimensions of [batch][channels][field...]
// tensors, with 1, 2 or 3 field dimensions, and its gradients.
#ifndef POPNN_POOLING_HPP
#define POPNN_POOLING_HPP

#include <popnn/PoolingDef.hpp>
#include <popnn/popnn_export.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <cstdint>
#include <ostream>
#include <vector>

namespace popnn {
namespace pooling {

/// The shape of a pooling. Along field dimension d the input is padded
/// with inputTruncationOrPaddingLower[d] elements before and
/// inputTruncationOrPaddingUpper[d] after (negative amounts truncate), and
/// windows of kernelShape[d] elements start every stride[d] elements:
///   output[d] = (input[d] + lower[d] + upper[d] - kernel[d]) / stride[d] + 1.
/// Padding elements take no part (MAX ignores them, AVG does not count them).
struct POPNN_API PoolParams {
  PoolingType poolingType;
  std::vector<std::size_t> inputFieldShape;
  std::vector<std::size_t> kernelShape;
  std::vector<unsigned> stride;
  std::vector<int> inputTruncationOrPaddingLower;
  std::vector<int> inputTruncationOrPaddingUpper;
  std::size_t numChannels;
  std::size_t batchSize;
  poplar::Type dType;

  PoolParams(PoolingType poolingType, std::vector<std::size_t> inputFieldShape,
             std::vector<std::size_t> kernelShape, std::vector<unsigned> stride,
             std::vector<int> inputTruncationOrPaddingLower,
             std::vector<int> inputTruncationOrPaddingUpper,
             std::size_t numChannels, std::size_t batchSize, poplar::Type dType)
      : poolingType(poolingType), inputFieldShape(std::move(inputFieldShape)),
        kernelShape(std::move(kernelShape)), stride(std::move(stride)),
        inputTruncationOrPaddingLower(std::move(inputTruncationOrPaddingLower)),
        inputTruncationOrPaddingUpper(std::move(inputTruncationOrPaddingUpper)),
        numChannels(numChannels), batchSize(batchSize), dType(dType) {}

  std::size_t getNumFieldDims() const { return inputFieldShape.size(); }
  std::vector<std::size_t> getOutputFieldShape() const;
};

POPNN_API std::ostream &operator<<(std::ostream &o, const PoolParams &params);
/// "max", "avg" or "sum".
POPNN_API const char *asString(const PoolingType &method);
POPNN_API std::vector<std::size_t> getOutputFieldShape(const PoolParams &params);
/// Floating-point operations: one per window element of every output (and
/// one more per output for AVG's scaling).
POPNN_API std::uint64_t getFwdFlops(const PoolParams &params);
POPNN_API std::uint64_t getBwdFlops(const PoolParams &params);

/// The pooled tensor, [batch][channels][output field...]. No options are
/// used.
POPNN_API poplar::Tensor pool(poplar::Graph &graph, const PoolParams &params,
                              const poplar::Tensor &in,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});

/// The gradient with respect to `in` given that with respect to `pooled`.
/// For MAX the gradient of an output goes to every input of its window
/// equal to it, divided by their number when useScaledGradient; AVG
/// divides it by the window's input count; SUM copies it.
POPNN_API poplar::Tensor
poolInputGradient(poplar::Graph &graph, const PoolParams &params,
                  const poplar::Tensor &in, const poplar::Tensor &pooled,
                  const poplar::Tensor &pooledGradient, bool useScaledGradient,
                  poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {});
/// For AVG and SUM, which do not need the forward tensors.
/// fwdChansPerGroup is accepted for compatibility (the result is laid out
/// plane by plane whatever it is).
POPNN_API poplar::Tensor
poolInputGradient(poplar::Graph &graph, const PoolParams &params,
                  const unsigned fwdChansPerGroup,
                  const poplar::Tensor &pooledGradient,
                  poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {});

} // namespace pooling
} // namespace popnn

#endif // POPNN_POOLING_HPP
