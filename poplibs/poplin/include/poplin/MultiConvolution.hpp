// Several convolutions added together. Each argument carries its own
// params and convolution options. The options given to the call are the
// multi-convolution ones: planType (serial, parallel; default parallel),
// perConvReservedTiles (an integer, default 50) and cycleBackOff (a number,
// default 0.1); anything else throws poplar::invalid_option naming it. The
// convolutions are always planned and laid out one by one and run one
// after the other (each in its own compute sets), the serial plan: a
// parallel plan is not made (logged once; the two parallel-plan
// parameters then have no effect).
#ifndef POPLIN_MULTICONVOLUTION_HPP
#define POPLIN_MULTICONVOLUTION_HPP

#include <poplin/Convolution.hpp>
#include <poplin/poplin_export.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <string>
#include <vector>

namespace poplin {
namespace multiconv {

struct CreateTensorArgs {
  ConvParams params;
  poplar::OptionFlags options;
  std::string name;
};

/// The weights of convolution args[weightsIndex].
POPLIN_API poplar::Tensor
createWeights(poplar::Graph &graph, const std::vector<CreateTensorArgs> &args,
              unsigned weightsIndex, const poplar::OptionFlags &options = {},
              poplin::PlanningCache *cache = nullptr);

/// The input of convolution args[inputIndex].
POPLIN_API poplar::Tensor createInput(poplar::Graph &graph,
                                      const std::vector<CreateTensorArgs> &args,
                                      unsigned inputIndex,
                                      const poplar::OptionFlags &options = {},
                                      poplin::PlanningCache *cache = nullptr);

struct ConvolutionArgs {
  poplar::Tensor inputs;
  poplar::Tensor weights;
  ConvParams params;
  poplar::OptionFlags options;
};

/// Copies weightsIn[i], transposed in its channels and flipped in space,
/// into args[i].weights.
POPLIN_API void weightsTransposeChansFlipXY(
    poplar::Graph &graph, std::vector<ConvolutionArgs> &args,
    const std::vector<poplar::Tensor> &weightsIn,
    poplar::program::Sequence &prog, const poplar::OptionFlags &options,
    const poplar::DebugContext &debugContext, poplin::PlanningCache *cache);

/// One output per argument; see poplin::convolution.
POPLIN_API std::vector<poplar::Tensor>
convolution(poplar::Graph &graph, const std::vector<ConvolutionArgs> &args,
            bool transposeAndFlipWeights, poplar::program::Sequence &prog,
            const poplar::DebugContext &debugContext = {},
            const poplar::OptionFlags &options = {},
            poplin::PlanningCache *cache = nullptr);

struct CalculateWeightDeltasArgs {
  poplar::Tensor zDeltas;
  poplar::Tensor activations;
  ConvParams params;
  poplar::OptionFlags options;
};

/// One weight gradient per argument; see poplin::calculateWeightDeltas.
POPLIN_API std::vector<poplar::Tensor>
calculateWeightDeltas(poplar::Graph &graph,
                      const std::vector<CalculateWeightDeltasArgs> &args,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {},
                      poplin::PlanningCache *cache = nullptr);

struct ConvWeightUpdateArgs {
  poplar::Tensor zDeltas;
  poplar::Tensor weights;
  poplar::Tensor activations;
  poplar::Tensor scale;
  ConvParams params;
  poplar::OptionFlags options;
};

/// See poplin::convolutionWeightUpdate.
POPLIN_API void
convolutionWeightUpdate(poplar::Graph &graph,
                        const std::vector<ConvWeightUpdateArgs> &args,
                        poplar::program::Sequence &prog,
                        const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = {},
                        poplin::PlanningCache *cache = nullptr);

struct ConvWeightUpdateArgsScalar {
  poplar::Tensor zDeltas;
  poplar::Tensor weights;
  poplar::Tensor activations;
  float scale;
  ConvParams params;
  poplar::OptionFlags options;
};

POPLIN_API void
convolutionWeightUpdate(poplar::Graph &graph,
                        const std::vector<ConvWeightUpdateArgsScalar> &args,
                        poplar::program::Sequence &prog,
                        const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = {},
                        poplin::PlanningCache *cache = nullptr);

} // namespace multiconv
} // namespace poplin

#endif // POPLIN_MULTICONVOLUTION_HPP
