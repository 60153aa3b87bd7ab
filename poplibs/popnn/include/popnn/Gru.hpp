// A single-layer GRU over a sequence, forward, backward and weight update:
//   r = ra(x Wr + h Ur + br)          u = ra(x Wu + h Uu + bu)
//   c = a(x Wc + (r h) Uc + bc)       h' = u h + (1 - u) c
// with a = activation (TANH) and ra = recurrentActivation (SIGMOID); the
// reset gate applies to h before its product with Uc. With resetAfter it
// applies after, as in PyTorch's nn.GRU:
//   c = a(x Wc + bc + r (h Uc + bc'))
// and every unit has two biases, one added to x W and one to h U. Weights:
// inputWeights [3][inputSize][outputSize], outputWeights
// [3][outputSize][outputSize], biases [3][outputSize] ([3][2][outputSize]
// with resetAfter), the outer dimension in params.cellOrder (reset,
// update, candidate by default).
//
// Options (every function): inferenceOnly (true, false) [=false], the
// forward products' pass; partialsType (half, float) [=float] and
// availableMemoryProportion, the products'; numShards and rnnCodeReuse
// only as 1 and false (one unrolled sequence). Anything else throws
// poplar::invalid_option naming the function and the option; bad
// parameters and tensors throw poputil::poplibs_error naming them.
#ifndef POPNN_GRU_HPP
#define POPNN_GRU_HPP

#include <popnn/GruDef.hpp>
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
namespace gru {

/// [reset gate, update gate, candidate]
POPNN_API const std::vector<BasicGruCellUnit> getDefaultBasicGruCellOrder();

struct POPNN_API GruParams {
  /// The same sizes as popnn/Rnn.hpp's parameters. gruFwd and the passes
  /// after it run every step: rnn.varTimeSteps must stay invalid.
  rnn::RnnParams rnn;
  poplar::Type dataType;
  std::size_t batchSize;
  std::size_t timeSteps;
  /// {inputSize, outputSize}: one layer.
  std::vector<std::size_t> layerSizes;
  /// gruFwd returns every step's output if true, else the last.
  bool outputFullSequence = true;
  /// Whether gruBwd computes the gradients of the input.
  bool calcInputGradients = true;
  std::vector<BasicGruCellUnit> cellOrder = getDefaultBasicGruCellOrder();
  /// Whether the reset gate applies after the candidate's recurrent
  /// product (and each unit has a second, recurrent bias).
  bool resetAfter = false;
  /// SIGMOID, TANH or RELU (their derivatives come from their outputs).
  NonLinearityType activation = NonLinearityType::TANH;
  NonLinearityType recurrentActivation = NonLinearityType::SIGMOID;

  GruParams(poplar::Type dataType, std::size_t batchSize, std::size_t timeSteps,
            std::vector<std::size_t> layerSizes,
            NonLinearityType activation = NonLinearityType::TANH,
            NonLinearityType recurrentActivation = NonLinearityType::SIGMOID);
};

struct GruWeights {
  poplar::Tensor inputWeights;
  poplar::Tensor outputWeights;
  poplar::Tensor biases;
};

POPNN_API std::uint64_t getBasicGruCellFwdFlops(const GruParams &params);
POPNN_API std::uint64_t getBasicGruCellBwdFlops(const GruParams &params);
POPNN_API std::uint64_t getBasicGruCellWuFlops(const GruParams &params);

/// [timeSteps][batch][inputSize]
POPNN_API poplar::Tensor
createInput(poplar::Graph &graph, const GruParams &params,
            const poplar::DebugContext &debugContext,
            const poplar::OptionFlags &options = {},
            poplin::matmul::PlanningCache *planningCache = nullptr);
/// [batch][outputSize]
POPNN_API poplar::Tensor
createInitialState(poplar::Graph &graph, const GruParams &params,
                   const poplar::DebugContext &debugContext,
                   const poplar::OptionFlags &options = {},
                   poplin::matmul::PlanningCache *planningCache = nullptr);
POPNN_API std::pair<poplar::Tensor, poplar::Tensor>
createWeightsKernel(poplar::Graph &graph, const GruParams &params,
                    const poplar::DebugContext &debugContext,
                    const poplar::OptionFlags &options = {},
                    poplin::matmul::PlanningCache *planningCache = nullptr);
POPNN_API poplar::Tensor
createWeightsBiases(poplar::Graph &graph, const GruParams &params,
                    const poplar::DebugContext &debugContext,
                    const poplar::OptionFlags &options = {},
                    poplin::matmul::PlanningCache *planningCache = nullptr);
POPNN_API GruWeights
createWeights(poplar::Graph &graph, const GruParams &params,
              const poplar::DebugContext &debugContext,
              const poplar::OptionFlags &options = {},
              poplin::matmul::PlanningCache *planningCache = nullptr);

/// The GRU over `in` from stateInit: every step's output
/// ([timeSteps][batch][outputSize]) or the last ([batch][outputSize]).
/// When intermediates is not null it is set to what the backward pass needs.
POPNN_API poplar::Tensor
gruFwd(poplar::Graph &graph, const GruParams &params,
       const poplar::Tensor &stateInit, const poplar::Tensor &in,
       const GruWeights &weights, poplar::Tensor *intermediates,
       poplar::program::Sequence &fwdProg,
       const poplar::DebugContext &debugContext = {},
       const poplar::OptionFlags &options = {},
       poplin::matmul::PlanningCache *planningCache = nullptr);

/// The backward pass: returns the gradient of the initial state; sets
/// *inputGrad when params.calcInputGradients, and *bwdIntermediates (for
/// gruWU) when not null.
POPNN_API poplar::Tensor
gruBwd(poplar::Graph &graph, const GruParams &params,
       poplar::program::Sequence &prog, const poplar::Tensor &fwdOutputInit,
       const poplar::Tensor &fwdIntermediatesSeq, const GruWeights &weights,
       const poplar::Tensor &fwdInputSeq, const poplar::Tensor &fwdOutput,
       const poplar::Tensor &gradLayerNext, poplar::Tensor *inputGrad,
       poplar::Tensor *bwdIntermediates,
       const poplar::DebugContext &debugContext = {},
       const poplar::OptionFlags &options = {},
       poplin::matmul::PlanningCache *planningCache = nullptr);

/// The gradients of the weights.
POPNN_API GruWeights
gruWU(poplar::Graph &graph, const GruParams &params,
      poplar::program::Sequence &prog, const poplar::Tensor &fwdOutputInit,
      const poplar::Tensor &fwdIntermediates,
      const poplar::Tensor &bwdIntermediates, const GruWeights &weights,
      const poplar::Tensor &input, const poplar::Tensor &output,
      const poplar::DebugContext &debugContext = {},
      const poplar::OptionFlags &options = {},
      poplin::matmul::PlanningCache *planningCache = nullptr);

/// gruBwd and gruWU together.
POPNN_API poplar::Tensor
gruBwdWithWU(poplar::Graph &graph, const GruParams &params,
             poplar::program::Sequence &prog,
             const poplar::Tensor &fwdOutputInit,
             const poplar::Tensor &fwdIntermediates, const GruWeights &weights,
             const poplar::Tensor &input, const poplar::Tensor &output,
             const poplar::Tensor &outputGrad, poplar::Tensor *inputGrad,
             GruWeights &weightsGrad,
             const poplar::DebugContext &debugContext = {},
             const poplar::OptionFlags &options = {},
             poplin::matmul::PlanningCache *planningCache = nullptr);

} // namespace gru
} // namespace popnn

#endif // POPNN_GRU_HPP
