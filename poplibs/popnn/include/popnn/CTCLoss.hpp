// Connectionist Temporal Classification (CTC) loss and its gradient.
//
// Data are [maxTime][batchSize][numClasses] log probabilities (or logits,
// to which the ...Logits forms apply a log softmax first), labels are
// [batchSize][maxLabelLength] UNSIGNED_INT, with dataLengths and
// labelLengths [batchSize] UNSIGNED_INT giving the valid steps and symbols
// of each entry. The loss of an entry is the negative log probability of
// its label (PyTorch's ctc_loss with reduction 'none').
#ifndef POPNN_CTCLOSS_HPP
#define POPNN_CTCLOSS_HPP

#include <popnn/CTCPlan.hpp>
#include <popnn/popnn_export.hpp>

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <utility>

namespace popnn {
namespace ctc {

/// A plan for the CTC loss. Options: `partialsType` (float; half is
/// refused, partials here are always float) and
/// `availableMemoryProportion` (0 to 1, default 0.6).
POPNN_API Plan plan(const poplar::Graph &graph, const poplar::Type &inType,
                    const poplar::Type &outType, unsigned batchSize,
                    unsigned maxTime, unsigned maxLabelLength,
                    unsigned numClasses, const poplar::OptionFlags &options = {});

/// A [maxTime][batchSize][numClasses] data input mapped as the plan says.
POPNN_API poplar::Tensor
createDataInput(poplar::Graph &graph, const poplar::Type &type,
                const std::size_t batchSize, const std::size_t maxTime,
                const std::size_t numClasses, const Plan &plan,
                const poplar::DebugContext &debugContext = {});

/// A [batchSize][maxLabelLength] labels input mapped as the plan says.
POPNN_API poplar::Tensor
createLabelsInput(poplar::Graph &graph, const poplar::Type &type,
                  const std::size_t batchSize,
                  const std::size_t maxLabelLength, const Plan &plan,
                  const poplar::DebugContext &debugContext = {});

/// The loss [batchSize] and its gradient [maxTime][batchSize][numClasses].
/// Options: `includeSoftmaxGradient` (default true: the gradient with
/// respect to the logits the log probabilities came from; false: with
/// respect to the log probabilities) and `zeroInfinity` (default false:
/// an impossible alignment gives an infinite loss; true: zero loss and
/// gradient).
POPNN_API std::pair<poplar::Tensor, poplar::Tensor>
calcLossAndGradientLogProbabilities(
    poplar::Graph &graph, const poplar::Type &outType,
    const poplar::Tensor &logProbs, const poplar::Tensor &labels,
    const poplar::Tensor &dataLengths, const poplar::Tensor &labelLengths,
    poplar::program::Sequence &prog, const unsigned blankClass,
    const Plan &plan, const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

/// As calcLossAndGradientLogProbabilities, from logits.
POPNN_API std::pair<poplar::Tensor, poplar::Tensor> calcLossAndGradientLogits(
    poplar::Graph &graph, const poplar::Type &outType,
    const poplar::Tensor &logits, const poplar::Tensor &labels,
    const poplar::Tensor &dataLengths, const poplar::Tensor &labelLengths,
    poplar::program::Sequence &prog, const unsigned blankClass,
    const Plan &plan, const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

/// The loss [batchSize] only. Option: `zeroInfinity`.
POPNN_API poplar::Tensor calcCTCLossLogProbabilities(
    poplar::Graph &graph, const poplar::Type &outType,
    const poplar::Tensor &logProbs, const poplar::Tensor &labels,
    const poplar::Tensor &dataLengths, const poplar::Tensor &labelLengths,
    poplar::program::Sequence &prog, const unsigned blankClass,
    const Plan &plan, const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

/// The loss [batchSize] only, from logits.
POPNN_API poplar::Tensor calcCTCLossLogits(
    poplar::Graph &graph, const poplar::Type &outType,
    const poplar::Tensor &logits, const poplar::Tensor &labels,
    const poplar::Tensor &dataLengths, const poplar::Tensor &labelLengths,
    poplar::program::Sequence &prog, const unsigned blankClass,
    const Plan &plan, const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

} // namespace ctc
} // namespace popnn

#endif // POPNN_CTCLOSS_HPP
