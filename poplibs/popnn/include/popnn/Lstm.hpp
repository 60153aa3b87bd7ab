// A single-layer LSTM (no peepholes) over a sequence, forward, backward and
// weight update:
//   f = ra(x Wf + h Uf + bf)   i = ra(x Wi + h Ui + bi)
//   g = a(x Wc + h Uc + bc)    o = ra(x Wo + h Uo + bo)
//   c' = f c + i g             h' = o a(c')
// with a = activation (TANH) and ra = recurrentActivation (SIGMOID).
// Weights: inputWeights [4][inputSize][outputSize], outputWeights
// [4][outputSize][outputSize], biases [4][outputSize], the outer dimension
// in params.cellOrder (by default forget, input, candidate, output).
//
// Options (every function): inferenceOnly (true, false) [=false], the
// forward products' pass (INFERENCE_FWD or TRAINING_FWD); partialsType
// (half, float) [=float] and availableMemoryProportion, the products';
// weightAccumulatorsType (half, float) [=partialsType], the weight-update
// products' partials (they sum over every step at once);
// disableWUPartialInterleaving (true, false), which either value allows.
// Of recomputationMode, preCalcWeights, numShards, rnnCodeReuse and
// rnnStepsPerWU only the value describing what this implementation builds
// is accepted (none, false, 1, false; rnnStepsPerWU never). Anything else
// throws poplar::invalid_option naming the function and the option; bad
// parameters and tensors throw poputil::poplibs_error naming them.
#ifndef POPNN_LSTM_HPP
#define POPNN_LSTM_HPP

#include <popnn/LstmDef.hpp>
#include <popnn/Rnn.hpp>
#include <popnn/NonLinearityDef.hpp>
#include <popnn/popnn_export.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/MatMul.hpp>

#include <cstdint>
#include <utility>
#include <vector>

namespace popnn {
namespace lstm {

/// [forget gate, input gate, candidate, output gate]
POPNN_API const std::vector<BasicLstmCellUnit> getDefaultBasicLstmCellOrder();

struct POPNN_API LstmParams {
  /// The same sizes as popnn/Rnn.hpp's parameters. lstmFwd and the passes
  /// after it run every step: rnn.varTimeSteps must stay invalid.
  rnn::RnnParams rnn;
  poplar::Type dataType;
  std::size_t batchSize;
  std::size_t timeSteps;
  /// {inputSize, outputSize}: one layer.
  std::vector<std::size_t> layerSizes;
  /// lstmFwd returns every step's output ([timeSteps][batch][outputSize])
  /// if true, else the last ([batch][outputSize]).
  bool outputFullSequence = true;
  /// Accepted; the input weighting is always computed.
  bool doInputWeightCalc = true;
  /// Whether lstmBwd computes the gradients of the input (inputGrad must
  /// then be given, and only then).
  bool calcInputGradients = true;
  std::vector<BasicLstmCellUnit> cellOrder = getDefaultBasicLstmCellOrder();
  /// SIGMOID, TANH or RELU (their derivatives come from their outputs).
  NonLinearityType activation = NonLinearityType::TANH;
  NonLinearityType recurrentActivation = NonLinearityType::SIGMOID;

  LstmParams(poplar::Type dataType, std::size_t batchSize,
             std::size_t timeSteps, std::vector<std::size_t> layerSizes,
             NonLinearityType activation = NonLinearityType::TANH,
             NonLinearityType recurrentActivation = NonLinearityType::SIGMOID);
};

/// The state of the cell (output h and cell state c), or its gradient.
struct POPNN_API LstmState {
  poplar::Tensor output;
  poplar::Tensor cellState;
  /// [2][batch][outputSize]: output then cell state.
  poplar::Tensor getAsTensor() const;
};

/// The parameters of the cell, or their gradients.
struct LstmWeights {
  poplar::Tensor inputWeights;
  poplar::Tensor outputWeights;
  poplar::Tensor biases;
};

POPNN_API std::uint64_t getBasicLstmCellFwdFlops(const LstmParams &params);
POPNN_API std::uint64_t getBasicLstmCellBwdFlops(const LstmParams &params);
POPNN_API std::uint64_t getBasicLstmCellWuFlops(const LstmParams &params);

/// [timeSteps][batch][inputSize], mapped over the tiles.
POPNN_API poplar::Tensor
createInput(poplar::Graph &graph, const LstmParams &params,
            const poplar::DebugContext &debugContext,
            const poplar::OptionFlags &options = {},
            poplin::matmul::PlanningCache *planningCache = nullptr);
/// [batch][outputSize]
POPNN_API poplar::Tensor
createInitialOutput(poplar::Graph &graph, const LstmParams &params,
                    const poplar::DebugContext &debugContext,
                    const poplar::OptionFlags &options = {},
                    poplin::matmul::PlanningCache *planningCache = nullptr);
POPNN_API poplar::Tensor
createInitialCellState(poplar::Graph &graph, const LstmParams &params,
                       const poplar::DebugContext &debugContext,
                       const poplar::OptionFlags &options = {},
                       poplin::matmul::PlanningCache *planningCache = nullptr);
POPNN_API LstmState
createInitialState(poplar::Graph &graph, const LstmParams &params,
                   const poplar::DebugContext &debugContext,
                   const poplar::OptionFlags &options = {},
                   poplin::matmul::PlanningCache *planningCache = nullptr);
POPNN_API void zeroInitialState(poplar::Graph &graph,
                                const LstmState &initialState,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {});

/// (inputWeights, outputWeights)
POPNN_API std::pair<poplar::Tensor, poplar::Tensor>
createWeightsKernel(poplar::Graph &graph, const LstmParams &params,
                    const poplar::DebugContext &debugContext,
                    const poplar::OptionFlags &options = {},
                    poplin::matmul::PlanningCache *planningCache = nullptr);
POPNN_API poplar::Tensor
createWeightsBiases(poplar::Graph &graph, const LstmParams &params,
                    const poplar::DebugContext &debugContext,
                    const poplar::OptionFlags &options = {},
                    poplin::matmul::PlanningCache *planningCache = nullptr);
POPNN_API LstmWeights
createWeights(poplar::Graph &graph, const LstmParams &params,
              const poplar::DebugContext &debugContext,
              const poplar::OptionFlags &options = {},
              poplin::matmul::PlanningCache *planningCache = nullptr);

/// The LSTM over `in` ([timeSteps][batch][inputSize]) from stateInit: the
/// output (see outputFullSequence). When intermediates is not null it is
/// set to what the backward pass needs.
POPNN_API poplar::Tensor
lstmFwd(poplar::Graph &graph, const LstmParams &params,
        poplar::program::Sequence &prog, const LstmState &stateInit,
        const LstmWeights &weights, const poplar::Tensor &in,
        poplar::Tensor *intermediates,
        const poplar::DebugContext &debugContext = {},
        const poplar::OptionFlags &options = {},
        poplin::matmul::PlanningCache *planningCache = nullptr);
/// The older form: (output, final cell state).
POPNN_API std::pair<poplar::Tensor, poplar::Tensor>
lstmFwd(poplar::Graph &graph, const LstmParams &params,
        const LstmState &stateInit, const poplar::Tensor &in,
        const LstmWeights &weights, poplar::Tensor *intermediates,
        poplar::program::Sequence &fwdProg,
        const poplar::DebugContext &debugContext = {},
        const poplar::OptionFlags &options = {},
        poplin::matmul::PlanningCache *planningCache = nullptr);

/// The backward pass: returns the gradient of the initial state; sets
/// *inputGrad ([timeSteps][batch][inputSize]) when
/// params.calcInputGradients, and *bwdIntermediates (for lstmWU) when not
/// null. outputGrad is shaped like the forward output; lastCellStateGrad
/// (the gradient of the final cell state) may be null.
POPNN_API LstmState lstmBwd(
    poplar::Graph &graph, const LstmParams &params,
    poplar::program::Sequence &prog, const LstmState &fwdStateInit,
    const poplar::Tensor &fwdIntermediates, const LstmWeights &weights,
    const poplar::Tensor &input, const poplar::Tensor &output,
    const poplar::Tensor &outputGrad, const poplar::Tensor *lastCellStateGrad,
    poplar::Tensor *inputGrad, poplar::Tensor *bwdIntermediates,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    poplin::matmul::PlanningCache *planningCache = nullptr);

/// As above, with the gradients of the final output and cell state
/// (lastStepStateGrad, which may be null) instead of the cell state's
/// alone. A null pointer must name its type: both forms take one.
POPNN_API LstmState lstmBwd(
    poplar::Graph &graph, const LstmParams &params,
    poplar::program::Sequence &prog, const LstmState &fwdStateInit,
    const poplar::Tensor &fwdIntermediates, const LstmWeights &weights,
    const poplar::Tensor &input, const poplar::Tensor &output,
    const poplar::Tensor &outputGrad, const LstmState *lastStepStateGrad,
    poplar::Tensor *inputGrad, poplar::Tensor *bwdIntermediates,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    poplin::matmul::PlanningCache *planningCache = nullptr);

/// The gradients of the weights, from the intermediates of both passes.
POPNN_API LstmWeights
lstmWU(poplar::Graph &graph, const LstmParams &params,
       poplar::program::Sequence &prog, const LstmState &fwdStateInit,
       const poplar::Tensor &fwdIntermediates,
       const poplar::Tensor &bwdIntermediates, const LstmWeights &weights,
       const poplar::Tensor &input, const poplar::Tensor &output,
       const poplar::DebugContext &debugContext = {},
       const poplar::OptionFlags &options = {},
       poplin::matmul::PlanningCache *planningCache = nullptr);

/// lstmBwd and lstmWU together; the weight gradients go to weightsGrad.
POPNN_API LstmState lstmBwdWithWU(
    poplar::Graph &graph, const LstmParams &params,
    poplar::program::Sequence &prog, const LstmState &fwdStateInit,
    const poplar::Tensor &fwdIntermediates, const LstmWeights &weights,
    const poplar::Tensor &input, const poplar::Tensor &output,
    const poplar::Tensor &outputGrad, const poplar::Tensor *lastCellStateGrad,
    poplar::Tensor *inputGrad, LstmWeights &weightsGrad,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    poplin::matmul::PlanningCache *planningCache = nullptr);

/// lstmBwdWithWU with the gradients of the final output and cell state.
POPNN_API LstmState lstmBwdWithWU(
    poplar::Graph &graph, const LstmParams &params,
    poplar::program::Sequence &prog, const LstmState &fwdStateInit,
    const poplar::Tensor &fwdIntermediates, const LstmWeights &weights,
    const poplar::Tensor &input, const poplar::Tensor &output,
    const poplar::Tensor &outputGrad, const LstmState *lastStepStateGrad,
    poplar::Tensor *inputGrad, LstmWeights &weightsGrad,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {},
    poplin::matmul::PlanningCache *planningCache = nullptr);

} // namespace lstm
} // namespace popnn

#endif // POPNN_LSTM_HPP
