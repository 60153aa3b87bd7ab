// The vanilla recurrent layer, one step of which is
//
//   y[s] = nl(x[s] Wff + y[s-1] Wfb + b)
//
// with x[s] the step's input ([batch][inputSize]), Wff the input weights
// ([inputSize][outputSize]), Wfb the feedback weights
// ([outputSize][outputSize]), b the biases ([outputSize]) and nl a
// non-linearity. The input products of all the steps can be made at once
// (forwardWeightInput); the feedback is a step at a time (forwardIterate).
// The step functions build a layer however the caller likes; rnnFwdSequence
// and rnnBwdSequence run a whole sequence in a Repeat loop.
#ifndef POPNN_RECURRENT_HPP
#define POPNN_RECURRENT_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/MatMul.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/popnn_export.hpp>

#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace popnn {
namespace rnn {

/// The products a layer of these sizes multiplies, each with the options
/// to plan it with (poplin::preplanMatMuls): those of the feedback weights
/// and, if hasFeedforwardWeights, of the input weights; for each, the
/// forward product and, unless inferenceOnly, the backward and weight
/// update ones (poplin::fc::getMatMulPrePlanParameters).
POPNN_API std::vector<std::pair<poplin::MatMulParams, poplar::OptionFlags>>
getMatMulPrePlanParameters(std::size_t numSteps, std::size_t batchSize,
                           std::size_t inputSize, std::size_t outputSize,
                           const poplar::Type &dType,
                           const poplar::Type &partialsType = poplar::FLOAT,
                           bool inferenceOnly = false,
                           bool hasFeedforwardWeights = true);

/// Floating-point operations of the forward pass (with the input products
/// when weightInput).
POPNN_API std::uint64_t getFwdFlops(unsigned sequenceSize, unsigned batchSize,
                                    unsigned inputSize, unsigned outputSize,
                                    bool weightInput = true);
/// Of the backward pass (with the input gradients when calcInputGrad).
POPNN_API std::uint64_t getBwdFlops(unsigned sequenceSize, unsigned batchSize,
                                    unsigned inputSize, unsigned outputSize,
                                    bool calcInputGrad = true);
/// Of the weight update.
POPNN_API std::uint64_t getWuFlops(unsigned sequenceSize, unsigned batchSize,
                                   unsigned inputSize, unsigned outputSize);

/// An input of shape [numSteps][batchSize][inputSize], each step laid out
/// as the left operand of its product with the input weights.
POPNN_API poplar::Tensor
createInput(poplar::Graph &graph, unsigned numSteps, unsigned batchSize,
            unsigned inputSize, unsigned outputSize, const poplar::Type &dType,
            const poplar::Type &partialsType = poplar::FLOAT,
            bool inferenceOnly = false,
            const poplar::DebugContext &debugContext = {},
            poplin::matmul::PlanningCache *planningCache = nullptr);

/// The forward state, [batchSize][outputSize]: the previous output. Zeroed
/// by prog when initState.
POPNN_API poplar::Tensor
createFwdState(poplar::Graph &graph, const poplar::Type &dType,
               unsigned batchSize, unsigned outputSize,
               poplar::program::Sequence &prog, bool initState,
               bool inferenceOnly,
               const poplar::DebugContext &debugContext = {},
               poplin::matmul::PlanningCache *planningCache = nullptr);

/// The previous output held in a forward state (a view of it).
POPNN_API poplar::Tensor getOutputFromFwdState(const poplar::Tensor &fwdState);

/// The input weights Wff, [inputSize][outputSize]. sequenceSize is not used
/// (the products are made per step).
POPNN_API poplar::Tensor createWeightsInput(
    poplar::Graph &graph, unsigned sequenceSize, unsigned batchSize,
    unsigned inputSize, unsigned outputSize, const poplar::Type &dType,
    const poplar::Type &partialsType = poplar::FLOAT,
    bool inferenceOnly = false, const poplar::DebugContext &debugContext = {},
    poplin::matmul::PlanningCache *planningCache = nullptr);

/// The feedback weights Wfb, [outputSize][outputSize].
POPNN_API poplar::Tensor createWeightsFeedback(
    poplar::Graph &graph, unsigned batchSize, unsigned outputSize,
    const poplar::Type &dType, const poplar::Type &partialsType = poplar::FLOAT,
    bool inferenceOnly = false, const poplar::DebugContext &debugContext = {},
    poplin::matmul::PlanningCache *planningCache = nullptr);

/// x[s] Wff for every step: actIn [numSteps][batchSize][inputSize] by
/// weights [inputSize][outputSize], giving [numSteps][batchSize][outputSize].
POPNN_API poplar::Tensor forwardWeightInput(
    poplar::Graph &graph, const poplar::Tensor &actIn,
    const poplar::Tensor &weights, poplar::program::Sequence &prog,
    const poplar::Type &partialsType = poplar::FLOAT,
    bool inferenceOnly = false, const poplar::DebugContext &debugContext = {},
    poplin::matmul::PlanningCache *planningCache = nullptr);

/// The recurrence over the steps of feedFwdIn ([numSteps][batch][output],
/// the input products): y[s] = nl(feedFwdIn[s] + y[s-1] Wfb + biases), y[-1]
/// the initial state ([batch][output]). Returns y, [numSteps][batch][output].
POPNN_API poplar::Tensor forwardIterate(
    poplar::Graph &graph, const poplar::Tensor &feedFwdIn,
    const poplar::Tensor &initState, const poplar::Tensor &feedbackWeights,
    const poplar::Tensor &biases, poplar::program::Sequence &prog,
    popnn::NonLinearityType nonLinearityType,
    const poplar::Type &partialsType = poplar::FLOAT,
    bool inferenceOnly = false, const poplar::DebugContext &debugContext = {},
    poplin::matmul::PlanningCache *planningCache = nullptr);

/// The backward state, [batchSize][outputSize], zeroed by prog: the
/// gradient at the adder of the step after the last.
POPNN_API poplar::Tensor
createBwdState(poplar::Graph &graph, const poplar::Type &dType,
               unsigned batchSize, unsigned outputSize,
               poplar::program::Sequence &prog,
               const poplar::DebugContext &debugContext = {},
               poplin::matmul::PlanningCache *planningCache = nullptr);

/// One step of the backward pass, from the last step to the first:
///   d = nl'(actOut) * (nextLayerGrad + bwdState Wfb^T)
/// (nl' from the step's output actOut), the gradient at the step's adder and
/// the new backward state; and the gradient at the step's input, d Wff^T.
/// Returns (input gradient, d).
POPNN_API std::pair<poplar::Tensor, poplar::Tensor> backwardGradientStep(
    poplar::Graph &graph, const poplar::Tensor &nextLayerGrad,
    const poplar::Tensor &bwdState, const poplar::Tensor &actOut,
    const poplar::Tensor &weightsInput, const poplar::Tensor &weightsFeedback,
    poplar::program::Sequence &prog, popnn::NonLinearityType nonLinearityType,
    const poplar::Type &partialsType = poplar::FLOAT,
    const poplar::DebugContext &debugContext = {},
    poplin::matmul::PlanningCache *planningCache = nullptr);

/// The same without the input gradient: returns d.
POPNN_API poplar::Tensor backwardGradientStep(
    poplar::Graph &graph, const poplar::Tensor &nextLayerGrad,
    const poplar::Tensor &bwdState, const poplar::Tensor &actOut,
    const poplar::Tensor &weightsFeedback, poplar::program::Sequence &prog,
    popnn::NonLinearityType nonLinearityType,
    const poplar::Type &partialsType = poplar::FLOAT,
    const poplar::DebugContext &debugContext = {},
    poplin::matmul::PlanningCache *planningCache = nullptr);

/// Adds one step's parameter gradients to the accumulators:
///   weightsInputDeltasAcc    += actIn^T bwdState
///   weightsFeedbackDeltasAcc += prevOut^T bwdState
///   biasDeltasAcc            += the sum of bwdState over the batch
/// bwdState is the step's d, actIn its input and prevOut the previous step's
/// output. The caller zeroes the accumulators before the first step.
POPNN_API void
paramDeltaUpdate(poplar::Graph &graph, const poplar::Tensor &bwdState,
                 const poplar::Tensor &actIn, const poplar::Tensor &prevOut,
                 poplar::Tensor &weightsInputDeltasAcc,
                 poplar::Tensor &weightsFeedbackDeltasAcc,
                 poplar::Tensor &biasDeltasAcc,
                 poplar::program::Sequence &prog,
                 const poplar::Type &partialsType = poplar::FLOAT,
                 const poplar::DebugContext &debugContext = {},
                 poplin::matmul::PlanningCache *planningCache = nullptr);

/// The whole forward pass of a layer, in a Repeat loop over the steps of
/// prevLayerActs ([numSteps][batch][input]). Each step's input product is
/// taken from *weightedIn ([numSteps][batch][output]) when it is given,
/// else made with feedFwdWeights. Returns the output of every step,
/// [numSteps][batch][output]; fwdStateInit is the initial state.
POPNN_API poplar::Tensor rnnFwdSequence(
    poplar::Graph &graph, poplar::program::Sequence &prog,
    const poplar::Tensor &fwdStateInit, const poplar::Tensor *weightedIn,
    const poplar::Tensor &biases, const poplar::Tensor &feedFwdWeights,
    const poplar::Tensor &feedbackWeights, const poplar::Tensor &prevLayerActs,
    const popnn::NonLinearityType &nonLinearityType,
    const poplar::Type &partialsType, bool inferenceOnly,
    const poplar::DebugContext &debugContext = {},
    poplin::matmul::PlanningCache *planningCache = nullptr);

/// The whole backward pass of a layer, in a Repeat loop from the last step
/// to the first. fwdStateInit and fwdState are the forward pass's initial
/// state and outputs, actIn its input ([numSteps][batch][input]);
/// outGradient, the gradient reaching the layer's outputs, is laid out
/// [batch][numSteps][output] as the original's. Returns
///   - the gradient at the input, [numSteps][batch][input] (when
///     ignoreInputGradientCalc: zeros of shape [numSteps][batch][output]),
///   - when doWU, the gradients of feedFwdWeights, feedbackWeights and
///     biases (else invalid tensors).
POPNN_API std::tuple<poplar::Tensor, poplar::Tensor, poplar::Tensor,
                     poplar::Tensor>
rnnBwdSequence(poplar::Graph &graph, bool doWU, bool ignoreInputGradientCalc,
               poplar::program::Sequence &prog,
               const poplar::Tensor &fwdStateInit,
               const poplar::Tensor &fwdState, const poplar::Tensor &biases,
               const poplar::Tensor &feedFwdWeights,
               const poplar::Tensor &feedbackWeights,
               const poplar::Tensor &outGradient, const poplar::Tensor &actIn,
               const popnn::NonLinearityType &nonLinearityType,
               const poplar::Type &partialsType,
               const poplar::DebugContext &debugContext = {},
               poplin::matmul::PlanningCache *planningCache = nullptr);

} // namespace rnn
} // namespace popnn

#endif // POPNN_RECURRENT_HPP
