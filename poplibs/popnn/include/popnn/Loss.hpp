// Losses of a classifier and their gradients, accuracy, and the arg
// max/min and top-k of rows.
//
// modelOutputs is [batch][classes] (FLOAT or HALF); expected holds one
// label per row (UNSIGNED_INT or INT). A label of MASKED_LABEL_CODE
// (popops/EncodingConstants.hpp) leaves its row out: zero loss, zero
// deltas, not counted by the accuracy.
#ifndef POPNN_LOSS_HPP
#define POPNN_LOSS_HPP

#include <popnn/popnn_export.hpp>
#include <popops/EncodingConstants.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <utility>

namespace popnn {

enum LossType {
  /// loss = 0.5 * sum over classes of (p - onehot)^2; deltas = p - onehot
  SUM_SQUARED_LOSS,
  /// loss = -log(p[label] / s); deltas = (p - s * onehot) * deltasScale / s,
  /// where s is modelOutputScaling (1 unless given): p are probabilities,
  /// for example softmax outputs, so that deltas is the gradient of the
  /// loss with respect to the softmax's input.
  CROSS_ENTROPY_LOSS
};

/// A program writing the loss of each row to `loss` ([batch]) and the
/// gradients to `deltas` (modelOutputs' shape). deltasScale and
/// modelOutputScaling are single-element tensors of modelOutputs' type
/// used by CROSS_ENTROPY_LOSS (see LossType).
POPNN_API poplar::program::Program
calcLoss(poplar::Graph &graph, const poplar::Tensor &modelOutputs,
         const poplar::Tensor &expected, const poplar::Tensor &loss,
         const poplar::Tensor &deltas, const poplar::Tensor &deltasScale,
         const poplar::Tensor &modelOutputScaling, LossType lossType,
         const poplar::DebugContext &debugContext = {});
POPNN_API poplar::program::Program
calcLoss(poplar::Graph &graph, const poplar::Tensor &modelOutputs,
         const poplar::Tensor &expected, const poplar::Tensor &loss,
         const poplar::Tensor &deltas, LossType lossType,
         const poplar::DebugContext &debugContext = {});
/// The above, also adding the number of correctly classified rows to
/// numCorrect (calcAccuracy).
POPNN_API poplar::program::Program
calcLoss(poplar::Graph &graph, const poplar::Tensor &modelOutputs,
         const poplar::Tensor &expected, const poplar::Tensor &loss,
         const poplar::Tensor &deltas, const poplar::Tensor &deltasScale,
         const poplar::Tensor &modelOutputScaling,
         const poplar::Tensor &numCorrect, LossType lossType,
         const poplar::DebugContext &debugContext = {});
POPNN_API poplar::program::Program
calcLoss(poplar::Graph &graph, const poplar::Tensor &modelOutputs,
         const poplar::Tensor &expected, const poplar::Tensor &loss,
         const poplar::Tensor &deltas, const poplar::Tensor &numCorrect,
         LossType lossType, const poplar::DebugContext &debugContext = {});

/// A program adding to numCorrect (one UNSIGNED_INT element) the number of
/// rows whose arg max is their label: numCorrect accumulates over runs, so
/// a program zeroes it where a count should start.
POPNN_API poplar::program::Program
calcAccuracy(poplar::Graph &graph, const poplar::Tensor &modelOutputs,
             const poplar::Tensor &expected, const poplar::Tensor &numCorrect,
             const poplar::DebugContext &debugContext = {});

/// The position (UNSIGNED_INT, [rows]) of the largest / smallest element
/// of each row of a 2-D tensor (FLOAT, HALF, INT or UNSIGNED_INT); ties go
/// to the first.
POPNN_API poplar::Tensor argMax(poplar::Graph &graph,
                                const poplar::Tensor &input,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {});
POPNN_API poplar::Tensor argMin(poplar::Graph &graph,
                                const poplar::Tensor &input,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {});
/// The largest / smallest value of each row and its position.
POPNN_API std::pair<poplar::Tensor, poplar::Tensor>
maxAndArgMax(poplar::Graph &graph, const poplar::Tensor &input,
             poplar::program::Sequence &prog,
             const poplar::DebugContext &debugContext = {});
POPNN_API std::pair<poplar::Tensor, poplar::Tensor>
minAndArgMin(poplar::Graph &graph, const poplar::Tensor &input,
             poplar::program::Sequence &prog,
             const poplar::DebugContext &debugContext = {});

/// The K largest elements of each row of a 2-D tensor ([rows][K]), in
/// descending order when `sort` (else in the order of the row); their
/// positions are written to `indices` (UNSIGNED_INT, [rows][K]).
POPNN_API poplar::Tensor topK(poplar::Graph &graph, const poplar::Tensor &input,
                              poplar::Tensor &indices, unsigned K, bool sort,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {});

} // namespace popnn

#endif // POPNN_LOSS_HPP
