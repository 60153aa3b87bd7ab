// Connectionist Temporal Classification (CTC) decoding by prefix beam
// search: the most likely labellings of [maxTime][batchSize][numClasses]
// log probabilities (or logits, with a log softmax first), repeated
// symbols merged and blanks removed.
#ifndef POPNN_CTCINFERENCE_HPP
#define POPNN_CTCINFERENCE_HPP

#include <popnn/CTCPlan.hpp>
#include <popnn/popnn_export.hpp>

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <tuple>

namespace popnn {
namespace ctc_infer {

/// A plan for the beam search. Options: `partialsType` (float; half is
/// refused) and `availableMemoryProportion` (0 to 1, default 0.6).
POPNN_API ctc::Plan plan(const poplar::Graph &graph, const poplar::Type &inType,
                         unsigned batchSize, unsigned maxTime,
                         unsigned numClasses, unsigned beamwidth,
                         const poplar::OptionFlags &options = {});

/// A [maxTime][batchSize][numClasses] data input mapped as the plan says.
POPNN_API poplar::Tensor
createDataInput(poplar::Graph &graph, const poplar::Type &type,
                const std::size_t batchSize, const std::size_t maxTime,
                const std::size_t numClasses, const ctc::Plan &plan,
                const poplar::DebugContext &debugContext = {});

/// The \p topPaths (at most \p beamwidth) most likely labellings of each
/// batch entry, most likely first: labelProbs [batchSize][topPaths] (their
/// log probabilities, of the type of \p logProbs), labelLengths
/// [batchSize][topPaths] and decodedLabels [batchSize][topPaths][maxTime]
/// (UNSIGNED_INT, zero past each length).
POPNN_API std::tuple<poplar::Tensor, poplar::Tensor, poplar::Tensor>
beamSearchDecoderLogProbabilities(poplar::Graph &graph,
                                  const poplar::Tensor &logProbs,
                                  const poplar::Tensor &dataLengths,
                                  poplar::program::Sequence &prog,
                                  unsigned blankClass, unsigned beamwidth,
                                  unsigned topPaths, const ctc::Plan &plan,
                                  const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = {});

/// As beamSearchDecoderLogProbabilities, from logits.
POPNN_API std::tuple<poplar::Tensor, poplar::Tensor, poplar::Tensor>
beamSearchDecoderLogits(poplar::Graph &graph, const poplar::Tensor &logits,
                        const poplar::Tensor &dataLengths,
                        poplar::program::Sequence &prog, unsigned blankClass,
                        unsigned beamwidth, unsigned topPaths,
                        const ctc::Plan &plan,
                        const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = {});

} // namespace ctc_infer
} // namespace popnn

#endif // POPNN_CTCINFERENCE_HPP
